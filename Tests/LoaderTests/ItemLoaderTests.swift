import Foundation
import Loader
import MediaTime
import OriginSupport
import Testing

@Suite struct MediaKindTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080/media/vod-ts/index.m3u8", MediaKind?.some(.hls)),
        ("https://cdn.test/live/INDEX.M3U8?token=abc#frag", .hls),
        ("http://127.0.0.1/demo/live.m3u8", .hls),
        ("http://127.0.0.1/media/chapters.mp4", .mediaFile),
        ("https://cdn.test/song.mp3?download=1", .mediaFile),
        ("/srv/media/chapters.mp4", .mediaFile),
        ("file:///srv/media/movie", .mediaFile),
        ("/srv/media/no-extension", .mediaFile),
        ("http://cdn.test/stream", nil),
        ("http://cdn.test.m3u8/stream", nil),
        ("https://cdn.test/watch?v=index.m3u8", nil),
    ])
    func detectsTheKindFromTheURL(url: String, expected: MediaKind?) {
        #expect(MediaKind.detect(url: url) == expected)
    }

    @Test func sniffsWhatTheURLDoesNotSay() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n".utf8).write(to: root.appendingPathComponent("stream"))
        try FileManager.default.copyItem(
            at: TestOrigin.playlists.appendingPathComponent("chapters.mp4"), to: root.appendingPathComponent("movie"))
        let origin = try TestOrigin(root: root)
        let client = try HTTPClient()
        #expect(await MediaKind.sniff(origin.url("/stream"), client: client) == .hls)
        #expect(await MediaKind.sniff(origin.url("/movie"), client: client) == .mediaFile)
        #expect(await MediaKind.sniff(origin.url("/missing"), client: client) == .mediaFile, "the file loader reports the 404")
        let requests = try await origin.requests(atLeast: 3) { _ in true }
        #expect(requests.allSatisfy { $0.range == "bytes=0-511" }, "only the first bytes are fetched")
    }
}

@Suite struct ItemLoaderConformanceTests {
    @Test func aMediaFileLoadsThroughTheItemLoaderProtocol() async throws {
        let loader: any ItemLoader = MediaFileLoader(client: try HTTPClient())
        let path = TestOrigin.playlists.appendingPathComponent("chapters.mp4").path
        let (directives, continuation) = AsyncStream<LoadingDirectives>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let request = ItemLoadRequest(url: path, kind: .mediaFile, directives: LoadingDirectives(playhead: MediaTime(seconds: 3)))
        var reports: [LoaderReport] = []
        for await report in loader.load(request, directives: directives) {
            reports.append(report)
            // Directives a progressive download cannot follow change nothing.
            continuation.yield(LoadingDirectives(loadFrom: LoadPosition(time: MediaTime(seconds: 9), serial: 1)))
        }
        continuation.finish()
        #expect(reports.count == 3)
        #expect(reports.last == .loadingFinished)
        guard case .mediaProbed(let info) = reports.first else {
            Issue.record("first report: \(String(describing: reports.first))")
            return
        }
        #expect(info.duration == MediaTime(seconds: 12))
    }
}
