import Foundation
import Loader
import MediaTime
import Playlist
import Testing

@Suite struct PlaylistReloadTimingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var outcome: PlaylistReloadTiming.Outcome
        var startedAt: Duration
        var now: Duration
        var expected: Duration
        var testDescription: String { "\(outcome) started \(startedAt) now \(now) → \(expected)" }
    }

    @Test(arguments: [
        // Changed (or first load): one target duration after the load started.
        Case(outcome: .changed, startedAt: .seconds(10), now: .milliseconds(10_200), expected: .seconds(16)),
        // Unchanged: half a target duration after the load started.
        Case(outcome: .unchanged, startedAt: .seconds(10), now: .milliseconds(10_200), expected: .seconds(13)),
        // Failed: half a target duration after the failure was known.
        Case(outcome: .failed, startedAt: .seconds(10), now: .milliseconds(10_200), expected: .milliseconds(13_200)),
        // A load slower than the interval is followed at once.
        Case(outcome: .changed, startedAt: .seconds(10), now: .seconds(17), expected: .seconds(17)),
        Case(outcome: .unchanged, startedAt: .seconds(10), now: .seconds(14), expected: .seconds(14)),
    ])
    func followsRFC8216bis(_ test: Case) {
        let next = PlaylistReloadTiming.nextReload(
            after: test.outcome, loadStartedAt: test.startedAt, now: test.now, targetDuration: .seconds(6))
        #expect(next == test.expected)
    }

    @Test func intervals() {
        #expect(PlaylistReloadTiming.interval(after: .changed, targetDuration: .seconds(4)) == .seconds(4))
        #expect(PlaylistReloadTiming.interval(after: .unchanged, targetDuration: .seconds(4)) == .seconds(2))
        #expect(PlaylistReloadTiming.interval(after: .failed, targetDuration: .seconds(1)) == .milliseconds(500))
        // A target duration of zero (a broken playlist) is not a reason to reload in a loop.
        #expect(PlaylistReloadTiming.interval(after: .changed, targetDuration: .zero) == .seconds(1))
        #expect(PlaylistReloadTiming.interval(after: .unchanged, targetDuration: .zero) == .milliseconds(500))
    }
}

@Suite struct LiveWindowTests {
    @Test func aVODPlaylistIsSeekableWhole() {
        let window = LiveWindow(playlist: LivePlaylistText(count: 3, type: "VOD").playlist, offset: .zero)
        #expect(window.behavior == .vod)
        #expect(window.seekableRange == msRange(0, 6000))
        #expect(window.duration == .ms(6000))
        // ENDLIST alone makes a live playlist VOD too.
        let ended = LiveWindow(playlist: LivePlaylistText(sequence: 7, count: 3, endList: true).playlist, offset: .ms(14_000))
        #expect(ended.behavior == .vod)
        #expect(ended.seekableRange == msRange(14_000, 20_000) && ended.duration == .ms(20_000))
    }

    @Test func aLiveWindowEndsThreeTargetDurationsBeforeTheEdge() {
        let window = LiveWindow(playlist: LivePlaylistText(sequence: 10, count: 6).playlist, offset: .ms(20_000))
        #expect(window.behavior == .live && window.duration == .indefinite)
        #expect(window.start == .ms(20_000) && window.liveEdge == .ms(32_000))
        #expect(window.holdBack == .ms(6000))
        #expect(window.syncPoint == .ms(26_000))
        #expect(window.seekableRange == msRange(20_000, 26_000))
        #expect(window.length == .ms(12_000))
    }

    @Test func holdBackComesFromServerControl() {
        let window = LiveWindow(playlist: LivePlaylistText(count: 6, holdBack: "9.5").playlist, offset: .zero)
        #expect(window.holdBack == .ms(9500))
        #expect(window.seekableRange == msRange(0, 2500))
    }

    @Test func theSyncPointNeverPrecedesTheStart() {
        let window = LiveWindow(playlist: LivePlaylistText(sequence: 3, count: 2).playlist, offset: .ms(6000))
        #expect(window.syncPoint == .ms(6000))
        #expect(window.seekableRange.isEmpty)
    }

    @Test func anEventPlaylistKeepsItsStart() {
        let window = LiveWindow(playlist: LivePlaylistText(count: 5, type: "EVENT").playlist, offset: .zero)
        #expect(window.behavior == .event && window.duration == .indefinite)
        #expect(window.seekableRange == msRange(0, 4000))
    }
}

@Suite struct PlaylistTimelineTests {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theFirstPlaylistStartsAtZero() {
        #expect(PlaylistTimeline.offset(of: LivePlaylistText(sequence: 40).playlist, after: nil) == .zero)
    }

    @Test func anOverlappingSegmentKeepsItsTime() {
        let old = LivePlaylistText(sequence: 10).playlist
        let new = LivePlaylistText(sequence: 12).playlist
        // Segment 12 started 4 s after segment 10, which sits at 100 s.
        #expect(PlaylistTimeline.offset(of: new, after: (old, .ms(100_000))) == .ms(104_000))
    }

    @Test func aJumpIsPlacedByProgramDateTimes() {
        let old = LivePlaylistText(sequence: 10, count: 3, firstDate: Self.epoch).playlist
        let new = LivePlaylistText(sequence: 20, count: 3, firstDate: Self.epoch).playlist
        #expect(PlaylistTimeline.offset(of: new, after: (old, .zero)) == .ms(20_000))
    }

    @Test func aJumpWithoutDatesCountsTargetDurations() {
        let old = LivePlaylistText(sequence: 10, count: 3).playlist
        let new = LivePlaylistText(sequence: 15, count: 3).playlist
        // The old edge is 6 s; segments 13 and 14 are missing.
        #expect(PlaylistTimeline.offset(of: new, after: (old, .zero)) == .ms(10_000))
    }

    @Test func aRegressionContinuesAtTheEdge() {
        let old = LivePlaylistText(sequence: 10, count: 3).playlist
        let new = LivePlaylistText(sequence: 0, count: 1).playlist
        #expect(PlaylistTimeline.offset(of: new, after: (old, .ms(50_000))) == .ms(56_000))
        // With dates, a restart that went on later is placed by them, never before the edge.
        let dated = LivePlaylistText(sequence: 10, count: 3, firstDate: Self.epoch).playlist
        let later = LivePlaylistText(sequence: 0, count: 1, firstDate: Self.epoch.addingTimeInterval(40)).playlist
        #expect(PlaylistTimeline.offset(of: later, after: (dated, .zero)) == .ms(20_000))
        let earlier = LivePlaylistText(sequence: 0, count: 1, firstDate: Self.epoch).playlist
        #expect(PlaylistTimeline.offset(of: earlier, after: (dated, .zero)) == .ms(6000))
    }

    @Test func aRenditionIsAlignedWithTheMainPlaylist() {
        let main = LivePlaylistText(sequence: 10, count: 6, firstDate: Self.epoch).playlist
        // The audio's segment 90 is dated 24 s after the epoch, 4 s after the main's segment 10.
        let datedAudio = LivePlaylistText(sequence: 90, count: 6, firstDate: Self.epoch.addingTimeInterval(24 - 180)).playlist
        #expect(PlaylistTimeline.offset(ofRendition: datedAudio, alignedWith: (main, .ms(1000))) == .ms(5000))
        let undated = LivePlaylistText(sequence: 10, count: 6).playlist
        let audio = LivePlaylistText(sequence: 12, count: 6).playlist
        #expect(PlaylistTimeline.offset(ofRendition: audio, alignedWith: (undated, .ms(1000))) == .ms(5000))
        let unrelated = LivePlaylistText(sequence: 500, count: 6).playlist
        #expect(PlaylistTimeline.offset(ofRendition: unrelated, alignedWith: (undated, .ms(1000))) == .ms(1000))
    }
}

@Suite struct LiveHealthMonitorTests {
    typealias Check = LiveHealthMonitor.Check

    func transitions(_ events: [LiveHealthMonitor.Event]) -> [String] {
        events.map { "\($0.check.rawValue) \($0.isFailing ? "failing" : "recovered")" }
    }

    @Test func aPlaylistUnchangedForThreeAndAHalfTargetDurationsIsStale() {
        var monitor = LiveHealthMonitor()
        let playlist = LivePlaylistText(sequence: 0, targetDuration: 2).playlist
        #expect(monitor.playlistLoaded(playlist, changed: true, at: .seconds(1)).isEmpty)
        #expect(monitor.staleDeadline == .seconds(8))
        #expect(monitor.playlistLoaded(playlist, changed: false, at: .seconds(2)).isEmpty)
        #expect(monitor.tick(at: .milliseconds(7999)).isEmpty)
        let stale = monitor.tick(at: .seconds(8))
        #expect(transitions(stale) == ["stale failing"])
        #expect(stale.first?.message.contains("7 s, more than 3.5 × the target duration of 2 s") == true)
        #expect(monitor.isFailing(.stale) && monitor.staleDeadline == nil)
        #expect(monitor.tick(at: .seconds(20)).isEmpty, "a failing check is reported once")
        let next = LivePlaylistText(sequence: 1, targetDuration: 2).playlist
        #expect(transitions(monitor.playlistLoaded(next, changed: true, at: .seconds(21))) == ["stale recovered"])
        #expect(monitor.staleDeadline == .seconds(28))
    }

    @Test func aZeroTargetDurationCountsAsOneSecond() {
        var monitor = LiveHealthMonitor()
        _ = monitor.playlistLoaded(LivePlaylistText(targetDuration: 0, segmentDuration: "0.5").playlist, changed: true, at: .zero)
        #expect(monitor.staleDeadline == .milliseconds(3500))
    }

    @Test func theStaleMultipleIsConfigurable() {
        var monitor = LiveHealthMonitor(staleMultiple: 2)
        _ = monitor.playlistLoaded(LivePlaylistText(targetDuration: 6).playlist, changed: true, at: .zero)
        #expect(monitor.staleDeadline == .seconds(12))
    }

    @Test func aMediaSequenceGoingBackwardsFailsUntilItMovesOn() {
        var monitor = LiveHealthMonitor()
        _ = monitor.playlistLoaded(LivePlaylistText(sequence: 8).playlist, changed: true, at: .zero)
        let restart = monitor.playlistLoaded(LivePlaylistText(sequence: 0, count: 1).playlist, changed: true, at: .seconds(2))
        #expect(transitions(restart) == ["mediaSequence failing"])
        #expect(restart.first?.message == "EXT-X-MEDIA-SEQUENCE went back from 8 to 0")
        let grown = monitor.playlistLoaded(LivePlaylistText(sequence: 0, count: 2).playlist, changed: true, at: .seconds(4))
        #expect(transitions(grown) == ["mediaSequence recovered"])
    }

    @Test func discontinuitiesThatLeaveTheWindowMustBeCounted() {
        var monitor = LiveHealthMonitor()
        let before = LivePlaylistText(sequence: 10, discontinuities: [11], discontinuitySequence: 3)
        _ = monitor.playlistLoaded(before.playlist, changed: true, at: .zero)
        // Segment 11 (and its discontinuity) left: the sequence must become 4.
        let forgot = LivePlaylistText(sequence: 12, discontinuitySequence: 3)
        let failing = monitor.playlistLoaded(forgot.playlist, changed: true, at: .seconds(2))
        #expect(transitions(failing) == ["discontinuitySequence failing"])
        #expect(failing.first?.message.contains("segment 12 has discontinuity sequence 3, was 4") == true)
        // The next playlist agrees with the one before it: the overlap is consistent again.
        let consistent = LivePlaylistText(sequence: 13, discontinuitySequence: 3)
        #expect(transitions(monitor.playlistLoaded(consistent.playlist, changed: true, at: .seconds(4)))
            == ["discontinuitySequence recovered"])
        // Counting right from the start raises nothing.
        var healthy = LiveHealthMonitor()
        _ = healthy.playlistLoaded(before.playlist, changed: true, at: .zero)
        let right = LivePlaylistText(sequence: 12, discontinuitySequence: 4)
        #expect(healthy.playlistLoaded(right.playlist, changed: true, at: .seconds(2)).isEmpty)
    }

    @Test func aSegmentMustKeepItsURI() {
        var monitor = LiveHealthMonitor()
        _ = monitor.playlistLoaded(LivePlaylistText(sequence: 5).playlist, changed: true, at: .zero)
        let swapped = LivePlaylistText(sequence: 6, renamed: [8: "other8.ts"])
        let failing = monitor.playlistLoaded(swapped.playlist, changed: true, at: .seconds(2))
        #expect(transitions(failing) == ["segmentURI failing"])
        #expect(failing.first?.message == "segment 8 changed its URI from segment8.ts to other8.ts")
        // The renamed segment stays as renamed: the next playlist agrees with this one.
        let moved = LivePlaylistText(sequence: 7, renamed: [8: "other8.ts"])
        #expect(transitions(monitor.playlistLoaded(moved.playlist, changed: true, at: .seconds(4))) == ["segmentURI recovered"])
    }

    @Test func aSegmentLongerThanTheTargetDurationFailsWhileListed() {
        var monitor = LiveHealthMonitor()
        // 2.4 s rounds to 2: allowed; 2.6 s rounds to 3: too long.
        _ = monitor.playlistLoaded(LivePlaylistText(sequence: 0, count: 3, durations: [1: "2.4"]).playlist, changed: true, at: .zero)
        #expect(monitor.failing.isEmpty)
        let long = LivePlaylistText(sequence: 1, count: 3, durations: [3: "2.6"])
        let failing = monitor.playlistLoaded(long.playlist, changed: true, at: .seconds(2))
        #expect(transitions(failing) == ["segmentDuration failing"])
        #expect(failing.first?.message == "segment 3 lasts 2.6 s, longer than the target duration of 2 s")
        let still = LivePlaylistText(sequence: 2, count: 3, durations: [3: "2.6"])
        #expect(monitor.playlistLoaded(still.playlist, changed: true, at: .seconds(4)).isEmpty)
        let gone = LivePlaylistText(sequence: 4, count: 3)
        #expect(transitions(monitor.playlistLoaded(gone.playlist, changed: true, at: .seconds(6))) == ["segmentDuration recovered"])
    }

    @Test func fetchFailuresRecoverAtTheNextSuccess() {
        var monitor = LiveHealthMonitor()
        let playlist = LivePlaylistText().playlist
        _ = monitor.playlistLoaded(playlist, changed: true, at: .zero)
        #expect(transitions(monitor.playlistFailed("HTTP status 503")) == ["playlistFetch failing"])
        #expect(monitor.playlistFailed("HTTP status 503").isEmpty)
        #expect(transitions(monitor.playlistLoaded(playlist, changed: false, at: .seconds(3))) == ["playlistFetch recovered"])
    }

    @Test func anEndedPlaylistRecoversEverything() {
        var monitor = LiveHealthMonitor()
        _ = monitor.playlistLoaded(LivePlaylistText(sequence: 8).playlist, changed: true, at: .zero)
        _ = monitor.playlistLoaded(LivePlaylistText(sequence: 2).playlist, changed: true, at: .seconds(1))
        _ = monitor.playlistFailed("timeout")
        let ended = monitor.playlistEnded()
        #expect(Set(transitions(ended)) == ["mediaSequence recovered", "playlistFetch recovered"])
        #expect(monitor.failing.isEmpty && monitor.staleDeadline == nil)
    }

    @Test func aVariantSwitchComparesAfresh() {
        var monitor = LiveHealthMonitor()
        _ = monitor.playlistLoaded(LivePlaylistText(sequence: 8).playlist, changed: true, at: .zero)
        monitor.forgetPreviousPlaylist()
        #expect(monitor.playlistLoaded(LivePlaylistText(sequence: 3).playlist, changed: true, at: .seconds(1)).isEmpty)
    }
}
