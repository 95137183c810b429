import ArgumentParser
import MediaTime
import Playlist

/// `hlsq inspect`: what a playlist contains, as a readable summary or a JSON document.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Summarize a playlist: kind, timing, segments, variants, renditions, date ranges, diagnostics.",
        discussion: "Exits with 0 when the playlist was read (even with diagnostics), 2 when it cannot be read."
    )

    @Argument(help: "A playlist file, an http(s) URL, or - for standard input.")
    var input: PlaylistInput

    @Flag(help: "Print the whole model as a JSON document.")
    var json = false

    /// Segments and entries listed in the summary before it elides the middle.
    private static let listedItems = 12

    func run() async throws {
        let bytes: [UInt8]
        do {
            bytes = try await input.read()
        } catch {
            printError("hlsq inspect: \(error)")
            throw ExitCode(2)
        }
        let result = Playlist.parse(bytes: bytes, options: ParseOptions(baseURL: input.baseURL))
        if json {
            print(try encodeJSON(PlaylistDocument(source: input.displayName, result: result)))
            return
        }
        switch result.playlist {
        case .media(let playlist): summarize(playlist)
        case .multivariant(let playlist): summarize(playlist)
        case .m3u(let list): summarize(list)
        }
        if result.diagnostics.isEmpty {
            print("diagnostics: none")
        } else {
            print("diagnostics: \(result.diagnostics.count)")
            for diagnostic in result.diagnostics { print("  \(input.displayName):\(diagnostic)") }
        }
    }

    private func seconds(_ time: MediaTime) -> String {
        time.decimalSeconds(maximumFractionDigits: 6) ?? time.description
    }

    private func summarize(_ playlist: MediaPlaylist) {
        print("\(input.displayName): media playlist, version \(playlist.version.map(String.init) ?? "1 (implicit)")")
        var facts = ["target duration \(playlist.targetDuration) s", "media sequence \(playlist.mediaSequence)"]
        if playlist.discontinuitySequence != 0 { facts.append("discontinuity sequence \(playlist.discontinuitySequence)") }
        if let type = playlist.playlistType { facts.append(type.text) }
        facts.append(playlist.hasEndList ? "ended" : "live")
        if playlist.isIFramesOnly { facts.append("I-frames only") }
        print("  " + facts.joined(separator: ", "))
        if let control = playlist.serverControl {
            var parts: [String] = []
            if let value = control.holdBack { parts.append("hold-back \(seconds(value)) s") }
            if let value = control.partHoldBack { parts.append("part hold-back \(seconds(value)) s") }
            if let value = control.canSkipUntil { parts.append("can skip until \(seconds(value)) s") }
            if control.canBlockReload { parts.append("blocking reload") }
            print("  server control: " + parts.joined(separator: ", "))
        }
        if let info = playlist.partInformation { print("  part target \(seconds(info.partTarget)) s") }
        print("  \(playlist.segments.count) segments, \(seconds(playlist.duration)) s")
        for segment in elided(playlist.segments) {
            guard let segment else {
                print("    …")
                continue
            }
            var line = "    #\(segment.mediaSequenceNumber) \(seconds(segment.startTime)) +\(seconds(segment.duration)) \(segment.uri)"
            if let range = segment.byteRange { line += " [\(range)]" }
            if let date = segment.programDateTime { line += " @ \(date)" }
            if segment.isDiscontinuity { line += " (discontinuity)" }
            if segment.isGap { line += " (gap)" }
            if !segment.keys.isEmpty { line += " (\(segment.keys.map(\.method.text).joined(separator: ", ")))" }
            print(line)
        }
        let lowLatency = [("parts after the last segment", playlist.trailingParts.count),
                          ("preload hints", playlist.preloadHints.count),
                          ("rendition reports", playlist.renditionReports.count)].filter { $0.1 > 0 }
        if !lowLatency.isEmpty {
            print("  " + lowLatency.map { "\($0.1) \($0.0)" }.joined(separator: ", "))
        }
        if !playlist.dateRanges.isEmpty {
            print("  \(playlist.dateRanges.count) date ranges")
            for range in playlist.dateRanges.prefix(Self.listedItems) {
                let end = range.effectiveEndDate.map { " to \($0)" } ?? ""
                print("    \(range.id)\(range.classValue.map { " (\($0))" } ?? ""): \(range.startDate)\(end)")
            }
        }
        let markers = playlist.adMarkers
        if !markers.isEmpty { print("  \(markers.count) ad markers") }
    }

    private func summarize(_ playlist: MultivariantPlaylist) {
        print("\(input.displayName): multivariant playlist, version \(playlist.version.map(String.init) ?? "1 (implicit)")")
        print("  \(playlist.variants.count) variants")
        for variant in playlist.variants {
            var facts = ["\(variant.stream.bandwidth) bit/s"]
            if let resolution = variant.stream.resolution { facts.append(resolution.description) }
            if !variant.stream.codecs.isEmpty { facts.append(variant.stream.codecs.joined(separator: ",")) }
            if let group = variant.audioGroup { facts.append("audio \(group)") }
            if let group = variant.subtitlesGroup { facts.append("subtitles \(group)") }
            print("    \(variant.uri): " + facts.joined(separator: ", "))
        }
        if !playlist.iFrameVariants.isEmpty {
            print("  \(playlist.iFrameVariants.count) I-frame variants")
            for variant in playlist.iFrameVariants { print("    \(variant.uri): \(variant.stream.bandwidth) bit/s") }
        }
        if !playlist.renditions.isEmpty {
            print("  \(playlist.renditions.count) renditions")
            for rendition in playlist.renditions {
                var facts = [rendition.type.text, "group \(rendition.groupID)"]
                if let language = rendition.language { facts.append(language) }
                if rendition.isDefault { facts.append("default") }
                print("    \(rendition.name): " + facts.joined(separator: ", ") + (rendition.uri.map { " \($0)" } ?? ""))
            }
        }
        if !playlist.sessionData.isEmpty { print("  \(playlist.sessionData.count) session data") }
        if let steering = playlist.contentSteering { print("  content steering: \(steering.serverURI)") }
    }

    private func summarize(_ list: M3UPlaylist) {
        let kind = list.hasHeader ? "extended M3U" : "list of URLs"
        print("\(input.displayName): \(kind)\(list.title.map { " \"\($0)\"" } ?? ""), \(list.entries.count) entries")
        for entry in elided(list.entries) {
            guard let entry else {
                print("    …")
                continue
            }
            var line = "    \(entry.title ?? entry.uri)"
            if let group = entry.groupTitle { line += " [\(group)]" }
            if let duration = entry.duration { line += " \(seconds(duration)) s" }
            if entry.title != nil { line += " \(entry.uri)" }
            print(line)
        }
    }

    /// The first items and the last few, with nil standing for the elided middle.
    private func elided<Items: Collection>(_ items: Items) -> [Items.Element?] {
        guard items.count > Self.listedItems + 3 else { return items.map(Optional.some) }
        return items.prefix(Self.listedItems).map(Optional.some) + [nil] + items.suffix(3).map(Optional.some)
    }
}
