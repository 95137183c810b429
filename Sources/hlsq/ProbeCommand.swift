import ArgumentParser
import Foundation
import Loader
import MediaTime

/// `hlsq probe`: what libavformat finds in a media file or URL.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print the duration, streams, metadata and chapters of a media file or URL.",
        discussion: """
        Exit status: 0 when probed, 1 when the media cannot be probed (invalid or \
        unsupported), 2 on usage or I/O errors (not found, network, timeout).
        """
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: "Give up after this many seconds.")
    var timeout: Double = 30

    @Argument(help: "A path, a file: URL, or an http or https URL.")
    var location: String

    func validate() throws {
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds.")
        }
    }

    func run() async throws {
        let info: MediaInfo
        do {
            info = try await MediaProbe.probe(location, timeout: .milliseconds(Int64(timeout * 1000)))
        } catch {
            FileHandle.standardError.write(Data("hlsq probe: \(error)\n".utf8))
            throw ExitCode(error.isMediaProblem ? 1 : 2)
        }
        print(json ? try Self.json(info) : Self.text(info))
    }

    // MARK: - Text

    static func text(_ info: MediaInfo) -> String {
        var lines = [info.location]
        let format = info.formatDescription.map { "\(info.formatName) (\($0))" } ?? info.formatName
        lines.append("  format    \(format)")
        lines.append("  duration  \(info.duration.decimalSeconds(maximumFractionDigits: 3).map { "\($0) s" } ?? "unknown")")
        if let bitRate = info.bitRate { lines.append("  bit rate  \(kilobits(bitRate))") }
        if !info.metadata.isEmpty {
            lines.append("metadata")
            let width = info.metadata.keys.map(\.count).max() ?? 0
            for (key, value) in info.metadata.sorted(by: { $0.key < $1.key }) {
                lines.append("  " + key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
            }
        }
        lines.append("streams")
        for stream in info.streams {
            var parts = ["#\(stream.index)", stream.kind.rawValue, stream.codec]
            if let profile = stream.profile { parts.append("(\(profile))") }
            if let language = stream.language { parts.append(language) }
            if let width = stream.width, let height = stream.height { parts.append("\(width)×\(height)") }
            if let frameRate = stream.frameRate { parts.append(String(format: "%.3g fps", frameRate)) }
            if let sampleRate = stream.sampleRate { parts.append("\(sampleRate) Hz") }
            if let channels = stream.channels { parts.append("\(channels) ch") }
            if let bitRate = stream.bitRate { parts.append(kilobits(bitRate)) }
            if let title = stream.title { parts.append("\"\(title)\"") }
            lines.append("  " + parts.joined(separator: " "))
        }
        if !info.chapters.isEmpty {
            lines.append("chapters")
            for chapter in info.chapters {
                let start = chapter.start.decimalSeconds(maximumFractionDigits: 3) ?? "?"
                let end = chapter.end.decimalSeconds(maximumFractionDigits: 3) ?? "?"
                lines.append("  \(start)–\(end) s  \(chapter.title ?? "")")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func kilobits(_ bitsPerSecond: Int) -> String {
        bitsPerSecond < 1000 ? "\(bitsPerSecond) b/s" : "\((bitsPerSecond + 500) / 1000) kb/s"
    }

    // MARK: - JSON

    /// The JSON form: times are seconds as numbers; unknown fields are left out.
    struct Document: Encodable {
        struct Stream: Encodable {
            var index: Int
            var kind: String
            var codec: String
            var profile: String?
            var language: String?
            var title: String?
            var bitRate: Int?
            var width: Int?
            var height: Int?
            var frameRate: Double?
            var sampleRate: Int?
            var channels: Int?
            var duration: Double?
            var isDefault: Bool
        }

        struct Chapter: Encodable {
            var start: Double?
            var end: Double?
            var title: String?
        }

        var location: String
        var format: String
        var formatDescription: String?
        var duration: Double?
        var bitRate: Int?
        var title: String?
        var metadata: [String: String]
        var streams: [Stream]
        var chapters: [Chapter]

        init(_ info: MediaInfo) {
            location = info.location
            format = info.formatName
            formatDescription = info.formatDescription
            duration = info.duration.seconds
            bitRate = info.bitRate
            title = info.title
            metadata = info.metadata
            streams = info.streams.map {
                Stream(
                    index: $0.index, kind: $0.kind.rawValue, codec: $0.codec, profile: $0.profile,
                    language: $0.language, title: $0.title, bitRate: $0.bitRate, width: $0.width,
                    height: $0.height, frameRate: $0.frameRate, sampleRate: $0.sampleRate,
                    channels: $0.channels, duration: $0.duration?.seconds, isDefault: $0.isDefault
                )
            }
            chapters = info.chapters.map { Chapter(start: $0.start.seconds, end: $0.end.seconds, title: $0.title) }
        }

    }

    static func json(_ info: MediaInfo) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Document(info)), as: UTF8.self)
    }
}
