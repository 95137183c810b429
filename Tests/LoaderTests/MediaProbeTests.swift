import Foundation
import Loader
import MediaTime
import OriginSupport
import Testing

/// libavformat probes of the sample media, local and over HTTP, and of broken input.
@Suite struct MediaProbeTests {
    static let chaptersPath = TestOrigin.playlists.appendingPathComponent("chapters.mp4").path

    func expectTheSampleMP4(_ info: MediaInfo) {
        #expect(info.formatName.contains("mp4"))
        #expect(info.duration == MediaTime(seconds: 12))
        #expect(info.title == "hlsq sample")
        #expect(info.metadata["artist"] == "hlsq")
        #expect((info.bitRate ?? 0) > 100_000)
        #expect(info.streams.map(\.kind).prefix(2) == [.video, .audio])
        #expect(info.streams.map(\.codec).prefix(2) == ["h264", "aac"])
        let video = info.streams[0]
        #expect(video.width == 160 && video.height == 90)
        #expect(video.profile == "Constrained Baseline")
        #expect(video.sampleRate == nil)
        let audio = info.streams[1]
        #expect(audio.sampleRate == 44_100 && audio.channels == 1)
        #expect(audio.duration == MediaTime(seconds: 12))
        #expect((audio.bitRate ?? 0) > 0)
        #expect(audio.width == nil)
        #expect(info.chapters == [
            MediaChapter(start: .zero, end: MediaTime(seconds: 4), title: "Opening"),
            MediaChapter(start: MediaTime(seconds: 4), end: MediaTime(seconds: 8), title: "Middle"),
            MediaChapter(start: MediaTime(seconds: 8), end: MediaTime(seconds: 12), title: "Closing"),
        ])
    }

    @Test func probesTheSampleMP4FromAPath() async throws {
        let info = try await MediaProbe.probe(Self.chaptersPath)
        expectTheSampleMP4(info)
        #expect(info.location == Self.chaptersPath)
    }

    @Test func probesTheSampleMP4FromAFileURL() async throws {
        expectTheSampleMP4(try await MediaProbe.probe(URL(fileURLWithPath: Self.chaptersPath).absoluteString))
    }

    @Test func probesTheSampleMP4OverHTTP() async throws {
        let tag = uniqueTag()
        expectTheSampleMP4(try await MediaProbe.probe(Shared.origin.url("/chapters.mp4") + "?" + tag))
        let requests = try await Shared.origin.requests(atLeast: 1) { $0.query == tag }
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.userAgent == "hlsq/\(HLSQVersion.current)" })
    }

    @Test func probesATransportStreamSegment() async throws {
        let info = try await MediaProbe.probe(TestOrigin.playlists.appendingPathComponent("vod-ts/segment0.ts").path)
        #expect(info.formatName == "mpegts")
        #expect(Set(info.streams.map(\.codec)) == ["h264", "aac"])
        #expect(info.chapters.isEmpty)
        let seconds = try #require(info.duration.seconds)
        #expect(abs(seconds - 2) < 0.1)
    }

    struct BrokenCase: Sendable, CustomTestStringConvertible {
        var name: String
        var location: @Sendable (URL) -> String
        var code: ProbeError.Code
        var isMediaProblem: Bool
        var testDescription: String { name }
    }

    static let broken: [BrokenCase] = [
        BrokenCase(name: "text file", location: { $0.appendingPathComponent("notes.mp4").path }, code: .invalidData, isMediaProblem: true),
        BrokenCase(name: "MP4 with its index zeroed", location: { $0.appendingPathComponent("damaged.mp4").path }, code: .invalidData, isMediaProblem: true),
        BrokenCase(name: "empty file", location: { $0.appendingPathComponent("empty.mp4").path }, code: .invalidData, isMediaProblem: true),
        BrokenCase(name: "missing file", location: { $0.appendingPathComponent("missing.mp4").path }, code: .notFound, isMediaProblem: false),
        BrokenCase(name: "HTTP 404", location: { _ in Shared.origin.url("/missing.mp4") }, code: .notFound, isMediaProblem: false),
        BrokenCase(name: "HTTP 500", location: { _ in Shared.origin.url("/chapters.mp4", faults: Fault(status: 500)) }, code: .networkFailure, isMediaProblem: false),
        BrokenCase(name: "connection refused", location: { _ in "http://127.0.0.1:1/chapters.mp4" }, code: .networkFailure, isMediaProblem: false),
        BrokenCase(name: "unknown protocol", location: { _ in "nosuchprotocol://127.0.0.1/chapters.mp4" }, code: .unsupportedFormat, isMediaProblem: true),
    ]

    @Test(arguments: broken)
    func reportsBrokenInputWithATypedError(_ broken: BrokenCase) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("#EXTM3U\nthis is not a movie\n".utf8).write(to: folder.appendingPathComponent("notes.mp4"))
        // The sample with its first 4 kB (the `ftyp` and `moov` boxes, the index) zeroed.
        var damaged = try sampleBytes("chapters.mp4")
        damaged.replaceSubrange(0..<4096, with: repeatElement(0, count: 4096))
        try Data(damaged).write(to: folder.appendingPathComponent("damaged.mp4"))
        try Data().write(to: folder.appendingPathComponent("empty.mp4"))

        let location = broken.location(folder)
        do {
            let info = try await MediaProbe.probe(location)
            Issue.record("probed \(info.formatName) with \(info.streams.count) streams")
        } catch {
            #expect(error.code == broken.code, "\(error)")
            #expect(error.isMediaProblem == broken.isMediaProblem)
            #expect(error.location == location)
            #expect(error.averror.map { $0 < 0 } ?? true)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func timesOutOnAStalledServer() async throws {
        // The stall outlasts any plausible scheduling delay on a loaded machine, so finishing
        // well before it proves the timeout fired.
        let url = Shared.origin.url("/chapters.mp4", faults: Fault(stallAfter: 100, stallFor: 60))
        let started = ContinuousClock.now
        do {
            _ = try await MediaProbe.probe(url, timeout: .milliseconds(500))
            Issue.record("a stalled probe succeeded")
        } catch {
            #expect(error.code == .timedOut, "\(error)")
            #expect(!error.isMediaProblem)
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func cancellingTheTaskInterruptsTheProbe() async throws {
        let url = Shared.origin.url("/chapters.mp4", faults: Fault(delay: 20))
        let probe = Task { () async -> ProbeError? in
            do throws(ProbeError) {
                _ = try await MediaProbe.probe(url)
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let cancelledAt = ContinuousClock.now
        probe.cancel()
        #expect(await probe.value?.code == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .seconds(5))
    }
}
