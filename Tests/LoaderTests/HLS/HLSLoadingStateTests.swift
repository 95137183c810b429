import Foundation
import Loader
import MediaTime
import Testing

/// The whole loading state machine, driven on a virtual clock with inline playlists: no
/// network, no sleeping.
@Suite struct HLSLoadingStateVODTests {
    static let url = "http://origin.test/vod/index.m3u8"
    static let vod = """
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:2.000,
        s0.ts
        #EXTINF:2.000,
        s1.ts
        #EXTINF:1.5,
        s2.ts
        #EXT-X-ENDLIST
        """

    func harness(_ text: String = Self.vod, configuration: HLSLoader.Configuration = HLSLoader.Configuration(),
                 directives: LoadingDirectives = LoadingDirectives()) -> LoadingHarness {
        var harness = LoadingHarness(url: Self.url, configuration: configuration, directives: directives)
        harness.playlists[Self.url] = text
        harness.start()
        harness.servePlaylists()
        return harness
    }

    @Test func aVODPlaylistLoadsEverySegmentExactlyAndFinishes() {
        var harness = harness()
        #expect(harness.takeReports().map(\.kind) == ["streamDescribed", "seekable"])
        #expect(harness.state.phase == .running)
        var reports: [LoaderReport] = []
        for expected in ["s0.ts", "s1.ts", "s2.ts"] {
            #expect(harness.nextMediaURL == "http://origin.test/vod/\(expected)")
            harness.answerMedia(bytes: 1000, duration: .milliseconds(10))
            reports += harness.takeReports()
        }
        #expect(reports.compactMap(\.loadedRanges) == [msRanges((0, 2000)), msRanges((0, 4000)), msRanges((0, 5500))])
        #expect(reports.last == .loadingFinished)
        let entry = reports.compactMap(\.accessEntry).last
        #expect(entry?.numberOfMediaRequests == 3 && entry?.numberOfBytesTransferred == 3000)
        #expect(entry?.segmentsDownloadedDuration == .ms(5500))
        #expect(entry?.uri == Self.url && entry?.indicatedBitrate == nil)
        #expect(harness.state.nextDeadline == nil)
    }

    @Test func theDescriptionAndSeekableRangeComeFirst() {
        var harness = harness()
        let reports = harness.takeReports()
        #expect(reports.first?.streamDescription?.duration == .ms(5500))
        #expect(reports.dropFirst().first?.seekableRanges == msRanges((0, 5500)))
    }

    @Test func aFailedSegmentLeavesAHoleAndLoadingGoesOn() {
        var harness = harness()
        harness.answerMedia()
        harness.answerMedia(status: 404)
        let errors = harness.reports.compactMap(\.errorEntry)
        #expect(errors.count == 1)
        #expect(errors.first?.statusCode == 404 && errors.first?.uri == "http://origin.test/vod/s1.ts")
        #expect(errors.first?.domain == ErrorLogEntry.httpDomain)
        #expect(harness.nextMediaURL == "http://origin.test/vod/s2.ts", "a 404 is not retried")
        harness.answerMedia()
        #expect(harness.lastLoaded == msRanges((0, 2000), (4000, 5500)))
        #expect(harness.reports.last == .loadingFinished)
        #expect(harness.reports.compactMap(\.accessEntry).last?.numberOfMediaRequests == 3)
    }

    @Test func aTransientFailureIsRetriedAfterTheBackoff() {
        let retry = RetryPolicy(maximumAttempts: 2, initialDelay: .seconds(1), jitter: 0)
        var harness = harness(configuration: HLSLoader.Configuration(segmentRetry: retry))
        harness.answerMedia(status: 503)
        #expect(harness.nextMediaURL == nil, "the retry waits")
        #expect(harness.state.nextDeadline == .seconds(1))
        harness.advance(to: .milliseconds(999))
        #expect(harness.nextMediaURL == nil)
        harness.advance(to: .seconds(1))
        #expect(harness.nextMediaURL == "http://origin.test/vod/s0.ts")
        harness.answerMedia(status: 503)
        // The second failure was the last attempt: s0 becomes a hole, s1 comes next.
        #expect(harness.nextMediaURL == "http://origin.test/vod/s1.ts")
        #expect(harness.reports.compactMap(\.errorEntry).map(\.statusCode) == [503, 503])
    }

    @Test func mapsAreFetchedOnceGapsNeverAndByteRangesAsRanges() {
        var harness = harness("""
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="700@0"
            #EXTINF:2,
            #EXT-X-BYTERANGE:1000@700
            media.mp4
            #EXTINF:2,
            #EXT-X-GAP
            #EXT-X-BYTERANGE:1000
            media.mp4
            #EXTINF:2,
            #EXT-X-BYTERANGE:1000
            media.mp4
            #EXT-X-ENDLIST
            """)
        harness.answerAllMedia()
        let requested = harness.mediaRequests.map { "\($0.url.split(separator: "/").last ?? "") \($0.byteRange?.httpValue ?? "whole")" }
        #expect(requested == ["init.mp4 0-699", "media.mp4 700-1699", "media.mp4 2700-3699"])
        #expect(harness.mediaRequests.allSatisfy { $0.isCacheable })
        #expect(harness.lastLoaded == msRanges((0, 2000), (4000, 6000)))
        #expect(harness.reports.last == .loadingFinished)
        // The map counts as a request, not as media time.
        let entry = harness.reports.compactMap(\.accessEntry).last
        #expect(entry?.numberOfMediaRequests == 3 && entry?.segmentsDownloadedDuration == .ms(4000))
    }

    static let long = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        + (0..<20).map { "#EXTINF:6,\nsegment\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"

    @Test func theForwardBufferBoundsLoadingUntilThePlayheadMoves() {
        var harness = harness(Self.long)
        harness.answerAllMedia()
        // 30 s ahead of the playhead at zero: five segments.
        #expect(harness.lastLoaded == msRanges((0, 30_000)))
        #expect(harness.state.phase == .running)
        harness.receive(LoadingDirectives(playhead: .ms(13_000)))
        harness.answerAllMedia()
        #expect(harness.lastLoaded == msRanges((0, 48_000)))
    }

    @Test func thePreferredForwardBufferDurationOverridesTheAutomaticOne() {
        var harness = harness(Self.long, directives: LoadingDirectives(preferredForwardBufferDuration: .ms(10_000)))
        harness.answerAllMedia()
        #expect(harness.lastLoaded == msRanges((0, 12_000)))
    }

    @Test func theForwardBufferIsBoundedByBytesToo() {
        var harness = harness(Self.long, configuration: HLSLoader.Configuration(maximumForwardBufferBytes: 250_000))
        harness.answerAllMedia(bytes: 100_000)
        // Three segments of 100 kB reach the bound.
        #expect(harness.lastLoaded == msRanges((0, 18_000)))
        harness.receive(LoadingDirectives(playhead: .ms(6000)))
        harness.answerAllMedia(bytes: 100_000)
        #expect(harness.lastLoaded == msRanges((0, 24_000)))
    }

    @Test func aSeekRetargetsTheDownloadAndRetriesHoles() {
        var harness = harness(Self.long)
        harness.answerMedia(status: 404)
        harness.answerAllMedia()
        #expect(harness.lastLoaded == msRanges((6000, 30_000)))
        harness.receive(LoadingDirectives(playhead: .ms(80_000), loadFrom: LoadPosition(time: .ms(80_000), serial: 1)))
        #expect(harness.nextMediaURL == "http://origin.test/vod/segment13.ts")
        harness.answerAllMedia()
        #expect(harness.lastLoaded == msRanges((6000, 30_000), (78_000, 114_000)))
        // Back to the start: the hole is tried again, what is loaded is not.
        harness.receive(LoadingDirectives(playhead: .zero, loadFrom: LoadPosition(time: .zero, serial: 2)))
        #expect(harness.nextMediaURL == "http://origin.test/vod/segment0.ts")
        harness.answerAllMedia()
        #expect(harness.lastLoaded == msRanges((0, 30_000), (78_000, 114_000)))
        #expect(harness.mediaRequests.filter { $0.url.hasSuffix("/segment0.ts") }.count == 2)
        #expect(harness.mediaRequests.filter { $0.url.hasSuffix("/segment1.ts") }.count == 1)
    }

    @Test func aMissingPlaylistFailsTheItemAfterItsRetries() {
        let retry = RetryPolicy(maximumAttempts: 2, initialDelay: .seconds(1), jitter: 0)
        var harness = LoadingHarness(url: Self.url, configuration: HLSLoader.Configuration(playlistRetry: retry))
        harness.start()
        harness.failPlaylist(Self.url, status: 503)
        harness.advance(to: .seconds(1))
        harness.failPlaylist(Self.url, status: 503)
        #expect(harness.reports.map(\.kind) == ["errorLog", "errorLog", "failed"])
        guard case .failed(let error) = harness.reports.last else { return }
        #expect(error.code == .downloadFailed && error.httpError?.statusCode == 503 && error.httpError?.attempts == 2)
    }

    @Test(arguments: [
        ("#EXTM3U\n#EXTINF:-1,Radio\nhttp://radio.test/stream\n", "no HLS tag"),
        ("<html><body>Not found</body></html>\n", "no HLS tag"),
        ("#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", "line 1"),
        ("#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example\",VALUE=\"x\"\n", "no variant"),
    ])
    func aPlaylistThatIsNotHLSFailsTheItemClearly(text: String, expected: String) {
        var harness = LoadingHarness(url: Self.url)
        harness.playlists[Self.url] = text
        harness.start()
        harness.servePlaylists()
        guard case .failed(let error) = harness.reports.last else {
            Issue.record("reports: \(harness.reports)")
            return
        }
        #expect(error.code == .invalidPlaylist)
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(harness.reports.contains { $0.errorEntry?.domain == ErrorLogEntry.playlistDomain })
    }
}
