import Foundation
import Loader
import MediaTime
import Testing

/// Live tracking on a virtual clock: reload timing, windows, health checks, falling behind.
@Suite struct HLSLoadingStateLiveTests {
    static let url = "http://origin.test/live/index.m3u8"
    static let monitorOnly = HLSLoader.Configuration(loadsSegments: false)

    func harness(_ playlist: LivePlaylistText, configuration: HLSLoader.Configuration = Self.monitorOnly) -> LoadingHarness {
        var harness = LoadingHarness(url: Self.url, configuration: configuration)
        harness.playlists[Self.url] = playlist.text
        harness.start()
        return harness
    }

    @Test func reloadsFollowTheRules() {
        var harness = harness(LivePlaylistText(sequence: 0))
        harness.advance(to: .milliseconds(100))
        harness.servePlaylists()
        // First load: one target duration after it started.
        #expect(harness.state.nextDeadline == .seconds(2))
        harness.advance(to: .seconds(2))
        harness.advance(to: .milliseconds(2200))
        harness.servePlaylists()
        // Unchanged: half a target duration after the reload started.
        #expect(harness.state.nextDeadline == .seconds(3))
        harness.playlists[Self.url] = LivePlaylistText(sequence: 1).text
        harness.advance(to: .seconds(3))
        harness.advance(to: .milliseconds(3300))
        harness.servePlaylists()
        // Changed: one target duration after the reload started.
        #expect(harness.state.nextDeadline == .seconds(5))
        harness.advance(to: .seconds(5))
        #expect(harness.playlistRequests.map(\.at) == [.zero, .seconds(2), .seconds(3), .seconds(5)])

        let statuses = harness.reports.compactMap(\.liveStatus)
        #expect(statuses.map(\.playlistChanged) == [true, false, true])
        #expect(statuses.map(\.reloadInterval) == [.seconds(2), .seconds(1), .seconds(2)])
        #expect(statuses.map(\.mediaSequence) == [0, 0, 1])
        #expect(statuses.map(\.lastReloadAt) == [0, 2, 3].map { LoadingHarness.epoch.addingTimeInterval($0) })
        #expect(statuses.map(\.playlistAge) == [.zero, .milliseconds(2100), .zero])
        #expect(statuses.last?.liveEdge == .ms(14_000) && statuses.last?.windowLength == .ms(12_000))
        #expect(statuses.last?.targetLatency == .ms(6000) && statuses.last?.targetDuration == .ms(2000))
    }

    @Test func theSeekableWindowSlidesWithTheMediaSequence() {
        var harness = harness(LivePlaylistText(sequence: 10))
        harness.serveReloads(until: .seconds(1))
        harness.playlists[Self.url] = LivePlaylistText(sequence: 12).text
        harness.serveReloads(until: .seconds(3))
        let seekable = harness.reports.compactMap(\.seekableRanges)
        #expect(seekable == [msRanges((0, 6000)), msRanges((4000, 10_000))])
        #expect(harness.reports.first?.streamDescription?.duration == .indefinite)
    }

    @Test func anEventPlaylistKeepsItsStartWhileItGrows() {
        var harness = harness(LivePlaylistText(sequence: 0, count: 4, type: "EVENT"))
        harness.serveReloads(until: .seconds(1))
        harness.playlists[Self.url] = LivePlaylistText(sequence: 0, count: 6, type: "EVENT").text
        harness.serveReloads(until: .seconds(3))
        #expect(harness.reports.compactMap(\.seekableRanges) == [msRanges((0, 2000)), msRanges((0, 6000))])
    }

    @Test func anUnchangedPlaylistTurnsStaleAtThreeAndAHalfTargetDurations() {
        var harness = harness(LivePlaylistText(sequence: 0))
        harness.serveReloads(until: .seconds(10))
        let failing = harness.reports.compactMap(\.liveHealth).filter(\.isFailing)
        #expect(failing.map(\.check) == ["stale"])
        #expect(failing.first?.date == LoadingHarness.epoch.addingTimeInterval(7))
        let entry = harness.reports.compactMap(\.errorEntry).first
        #expect(entry?.statusCode == LiveHealthMonitor.Check.stale.statusCode && entry?.domain == ErrorLogEntry.liveDomain)
        #expect(entry?.uri == Self.url && entry?.date == LoadingHarness.epoch.addingTimeInterval(7))
        #expect(harness.reports.compactMap(\.liveStatus).last?.isStale == true)

        harness.playlists[Self.url] = LivePlaylistText(sequence: 1).text
        harness.serveReloads(until: .seconds(11))
        let recovered = harness.reports.compactMap(\.liveHealth).filter { !$0.isFailing }
        #expect(recovered.map(\.check) == ["stale"])
        #expect(harness.reports.compactMap(\.liveStatus).last?.isStale == false)
    }

    @Test func aMediaSequenceRegressionIsReportedAndRecovers() {
        var harness = harness(LivePlaylistText(sequence: 8))
        harness.serveReloads(until: .seconds(1))
        harness.playlists[Self.url] = LivePlaylistText(sequence: 0, count: 1).text
        harness.serveReloads(until: .seconds(3))
        harness.playlists[Self.url] = LivePlaylistText(sequence: 0, count: 2).text
        harness.serveReloads(until: .seconds(5))
        let changes = harness.reports.compactMap(\.liveHealth).map { "\($0.check) \($0.isFailing)" }
        #expect(changes == ["mediaSequence true", "mediaSequence false"])
        #expect(harness.reports.compactMap(\.errorEntry).map(\.statusCode) == [LiveHealthMonitor.Check.mediaSequence.statusCode])
        // The restarted stream continues the timeline after the old edge (12 s); with less
        // than the hold-back listed, nothing is seekable yet.
        #expect(harness.reports.compactMap(\.seekableRanges).last == TimeRangeSet())
        #expect(harness.state.window?.start == .ms(12_000) && harness.state.window?.liveEdge == .ms(16_000))
    }

    @Test func aFailedReloadIsAHealthEventUntilOneSucceeds() {
        var harness = harness(LivePlaylistText(sequence: 0))
        harness.serveReloads(until: .seconds(1))
        harness.advance(to: .seconds(2))
        harness.failPlaylist(Self.url, status: 500)
        #expect(harness.state.nextDeadline == .seconds(3))
        harness.serveReloads(until: .seconds(3))
        let changes = harness.reports.compactMap(\.liveHealth).map { "\($0.check) \($0.isFailing)" }
        #expect(changes == ["playlistFetch true", "playlistFetch false"])
        // The failure is logged once, as the HTTP error it is.
        #expect(harness.reports.compactMap(\.errorEntry).map(\.statusCode) == [500])
    }

    @Test func theEndListTurnsTheItemIntoVOD() {
        var harness = harness(LivePlaylistText(sequence: 0, count: 3))
        harness.serveReloads(until: .seconds(1))
        harness.playlists[Self.url] = LivePlaylistText(sequence: 0, count: 4, endList: true).text
        harness.serveReloads(until: .seconds(3))
        let durations = harness.reports.compactMap(\.streamDescription).map(\.duration)
        #expect(durations == [.indefinite, .ms(8000)])
        #expect(harness.reports.compactMap(\.seekableRanges).last == msRanges((0, 8000)))
        #expect(harness.reports.last == .loadingFinished)
        #expect(harness.state.nextDeadline == nil)
    }

    @Test func aLiveItemLoadsFromTheSyncPointAndRejoinsWhenItFallsBehind() {
        var harness = harness(LivePlaylistText(sequence: 10), configuration: HLSLoader.Configuration())
        harness.servePlaylists()
        // Window [0, 12), sync point 6: loading starts with the segment at 6 s and stops at the edge.
        #expect(harness.nextMediaURL == "http://origin.test/live/segment13.ts")
        harness.answerAllMedia()
        #expect(harness.lastLoaded == msRanges((6000, 12_000)))
        // The player sits at 6 s and does not move (paused).
        harness.receive(LoadingDirectives(playhead: .ms(6000)))
        #expect(!harness.state.followsLiveEdge)
        _ = harness.takeReports()
        harness.playlists[Self.url] = LivePlaylistText(sequence: 14).text
        harness.serveReloads(until: .seconds(2))
        let reports = harness.takeReports()
        let kinds = reports.map(\.kind).filter { ["seekable", "liveStatus", "fellBehind"].contains($0) }
        #expect(kinds == ["seekable", "liveStatus", "fellBehind"])
        #expect(reports.contains(.fellBehindLiveWindow(rejoinAt: .ms(14_000))))
        #expect(reports.compactMap(\.seekableRanges).last == msRanges((8000, 14_000)))
        // What slid out of the window is forgotten; loading goes on from the sync point.
        #expect(reports.compactMap(\.loadedRanges).first == msRanges((8000, 12_000)))
        #expect(harness.nextMediaURL == "http://origin.test/live/segment17.ts")
        #expect(harness.state.followsLiveEdge)
    }

    @Test func wallClockLatencyComesFromProgramDateTimes() {
        // Segment 10 was dated 100 s before the epoch, and segment 13 holds the sync point.
        let firstDate = LoadingHarness.epoch.addingTimeInterval(-100 - 20)
        var harness = harness(LivePlaylistText(sequence: 10, firstDate: firstDate))
        harness.serveReloads(until: .seconds(1))
        // The sync point (6 s into the window) was dated 94 s before the epoch.
        let latency = harness.reports.compactMap(\.liveStatus).first?.wallClockLatency
        #expect(latency.map { abs($0.seconds - 94) < 0.001 } == true, "\(String(describing: latency))")
    }
}
