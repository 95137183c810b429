import MediaTime
import QueueCore
import Testing

@Suite struct PlaybackClockTests {
    @Test func thePlayheadMovesByRateTimesElapsedTime() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 100)
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.player.timeControlStatus == .playing)
        harness.wait(.milliseconds(1500))
        #expect(harness.time == milliseconds(1500))
        harness.run { player throws(QueueRefusal) in try player.setRate(0.5) }
        harness.wait(.seconds(3))
        #expect(harness.time == seconds(3))
        harness.run { player throws(QueueRefusal) in try player.setRate(2) }
        harness.wait(.seconds(1))
        #expect(harness.time == seconds(5))
        harness.record(harness.player.pause())
        harness.wait(.seconds(10))
        #expect(harness.time == seconds(5))
        #expect(harness.effects.contains(.persistPlayhead(ItemID("a"), seconds(5))), "pausing persists the playhead")
    }

    @Test func commandsActAtTheInstantTheyArrive() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 100)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.clock.advance(by: .seconds(7))
        let outcome = harness.record(harness.player.pause())
        #expect(harness.time == seconds(7), "pause settles the playhead without a tick")
        #expect(outcome.effects.contains(.persistPlayhead(ItemID("a"), seconds(7))))
    }

    @Test func playbackIsBoundedByTheContiguousLoadedRange() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 20, loaded: 6)
        harness.report(.segmentLoaded(range(8, 12)), for: ItemID("a"))
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(10))
        #expect(harness.time == seconds(6), "the hole at 6–8 stops the playhead")
        #expect(harness.notifications.contains(.playbackStalled(ItemID("a"))))
        #expect(harness.player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(harness.player.reasonForWaitingToPlay == .toMinimizeStalls)
        let log = harness.player.currentItem!.accessLog
        #expect(log.last?.numberOfStalls == 1)
        #expect(log.last?.durationWatched == seconds(6))
        // The hole fills: 6–12 is 6 s ahead, enough to keep up, so playback resumes.
        harness.wait(.seconds(2))
        harness.report(.segmentLoaded(range(6, 8)), for: ItemID("a"))
        #expect(harness.player.timeControlStatus == .playing)
        #expect(harness.player.currentItem!.accessLog.last?.stallDuration == seconds(6))
        harness.wait(.seconds(3))
        #expect(harness.time == seconds(9))
    }

    @Test func stallsPauseWhenThePlayerMustNotWait() {
        var harness = Harness(["a"], waits: false)
        harness.ready("a", duration: 20, loaded: 4)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(5))
        #expect(harness.time == seconds(4))
        #expect(harness.notifications.contains(.playbackStalled(ItemID("a"))))
        #expect(harness.player.rate == 0 && harness.player.timeControlStatus == .paused)
        #expect(harness.notifications.contains(.rateChanged(0)))
    }

    @Test(arguments: [(true, TimeControlStatus.waitingToPlayAtSpecifiedRate), (false, .playing)])
    func withoutWaitingAnyMediaIsEnoughToStart(waits: Bool, expected: TimeControlStatus) {
        var harness = Harness(["a"], waits: waits)
        harness.ready("a", duration: 20, loaded: 1)
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.player.timeControlStatus == expected)
        #expect(harness.player.reasonForWaitingToPlay == (waits ? .evaluatingBufferingRate : nil))
    }

    /// timeControlStatus and reasonForWaitingToPlay as the item and its buffer evolve.
    @Test func waitingReasons() {
        var harness = Harness()
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.player.reasonForWaitingToPlay == .noItemToPlay)
        harness.insert("a")
        #expect(harness.player.reasonForWaitingToPlay == .evaluatingBufferingRate, "loading")
        harness.ready("a", duration: 30, loaded: 1)
        #expect(harness.player.reasonForWaitingToPlay == .evaluatingBufferingRate, "1 s is below the 2 s minimum")
        harness.report(.segmentLoaded(range(1, 3)), for: ItemID("a"))
        #expect(harness.player.timeControlStatus == .playing)
        harness.wait(.seconds(3))
        #expect(harness.player.reasonForWaitingToPlay == .toMinimizeStalls, "after a stall")
        harness.record(harness.player.pause())
        #expect(harness.player.timeControlStatus == .paused && harness.player.reasonForWaitingToPlay == nil)
        #expect(harness.notifications.contains(.timeControlStatusChanged(.paused, nil)))
    }

    @Test func theIndicatedBitrateMustBeMetBeforePlaybackStarts() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 30)
        harness.report(.variantSwitched(indicatedBitrate: 2_000_000, uri: "https://media.test/a/720p.m3u8"), for: ItemID("a"))
        harness.report(.segmentLoaded(range(0, 3)), for: ItemID("a"))
        harness.report(.loadedTimeRanges(TimeRangeSet([range(0, 3)])), for: ItemID("a"))
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.player.reasonForWaitingToPlay == .evaluatingBufferingRate, "no download rate measured yet")
        harness.report(.downloadBitrate(1_000_000), for: ItemID("a"))
        #expect(harness.player.timeControlStatus == .waitingToPlayAtSpecifiedRate, "too slow")
        harness.report(.downloadBitrate(3_000_000), for: ItemID("a"))
        #expect(harness.player.timeControlStatus == .playing)
    }

    @Test func liveItemsNeverEndAndStartAtTheLiveEdge() {
        var harness = Harness(["live"])
        harness.ready("live", duration: nil)
        harness.report(.seekableTimeRanges(TimeRangeSet([range(100, 130)])), for: ItemID("live"))
        #expect(harness.player.currentItem?.playbackType == .live)
        #expect(harness.time == seconds(130), "placed at the live edge")
        harness.report(.loadedTimeRanges(TimeRangeSet([range(100, 140)])), for: ItemID("live"))
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(5))
        #expect(harness.time == seconds(135))
        harness.record(harness.player.pause())
        harness.wait(.seconds(60))
        // The window slid past the paused playhead: it jumps to the window's start.
        harness.report(.seekableTimeRanges(TimeRangeSet([range(160, 190)])), for: ItemID("live"))
        #expect(harness.time == seconds(160))
        #expect(harness.notifications.contains(.timeJumped(ItemID("live"), to: seconds(160))))
    }

    @Test func aShorterDurationPullsThePlayheadBack() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 20)
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(15)) }
        harness.report(.durationChanged(seconds(12)), for: ItemID("a"))
        #expect(harness.time == seconds(12))
    }
}

@Suite struct ItemEndTests {
    @Test func advanceGoesOnWithTheNextItemInTheSameTick() {
        var harness = Harness(["a", "b"])
        harness.ready("a", duration: 10)
        harness.ready("b", duration: 10)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(13))
        #expect(harness.current == "b" && harness.time == seconds(3))
        #expect(harness.history == ["a"])
        #expect(harness.notifications.contains(.didPlayToEndTime(ItemID("a"))))
        #expect(harness.notifications.contains(.currentItemChanged(from: ItemID("a"), to: ItemID("b"))))
        #expect(harness.effects.contains(.persistPlayhead(ItemID("b"), .zero)), "advancing persists the new playhead")
        #expect(harness.player.timeControlStatus == .playing)
    }

    @Test func pauseStopsAtTheEnd() {
        var harness = Harness(["a", "b"], action: .pause)
        harness.ready("a", duration: 10)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(12))
        #expect(harness.current == "a" && harness.time == seconds(10))
        #expect(harness.player.rate == 0)
        #expect(harness.notifications.filter { $0 == .didPlayToEndTime(ItemID("a")) }.count == 1)
        // play() at the end replays the item.
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.time == .zero && harness.player.rate == 1)
    }

    @Test func noneKeepsTheRateAndTheClockGoingThenActsWhenSwitched() {
        var harness = Harness(["a", "b"], action: .none)
        harness.ready("a", duration: 10)
        harness.ready("b", duration: 10)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(14))
        #expect(harness.current == "a" && harness.player.rate == 1)
        #expect(harness.player.timeControlStatus == .playing)
        #expect(harness.player.currentItem?.currentTime == seconds(10), "the item's playhead stays within the item")
        #expect(harness.time == seconds(14), "currentTime keeps moving")
        #expect(harness.player.timePastEnd == seconds(4))
        #expect(harness.notifications.contains(.didPlayToEndTime(ItemID("a"))))
        harness.record(harness.player.setActionAtItemEnd(.advance))
        #expect(harness.current == "b", "switching away from .none at the end acts at once")
        #expect(harness.player.timePastEnd == nil)
    }

    @Test func forwardPlaybackEndTimeEndsTheItem() {
        var harness = Harness(["a", "b"])
        harness.ready("a", duration: 30)
        harness.run { player throws(QueueRefusal) in
            try player.setPreferences(PlayerItem.Preferences(forwardPlaybackEndTime: seconds(5)), of: ItemID("a"))
        }
        #expect(harness.effects.contains(.applyLoadingPreferences(ItemID("a"))))
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(6))
        #expect(harness.history == ["a"] && harness.current == "b")
        #expect(harness.player.history.last?.item.currentTime == seconds(5))
    }

    @Test func theLastItemEndingWithoutConsumePausesAtItsEnd() {
        var harness = Harness(["a"], consume: false)
        harness.ready("a", duration: 5)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(8))
        #expect(harness.current == "a" && harness.time == seconds(5) && harness.player.rate == 0)
    }

    @Test func aFailingCurrentItemAdvancesOrPauses() {
        for action in [ActionAtItemEnd.advance, .pause] {
            var harness = Harness(["a", "b"], action: action)
            harness.ready("a", duration: 10)
            harness.run { player throws(QueueRefusal) in try player.play() }
            harness.wait(.seconds(2))
            let failure = ItemFailure(domain: "http", code: 503, message: "unavailable")
            harness.report(.failed(failure), for: ItemID("a"))
            #expect(harness.notifications.contains(.failedToPlayToEndTime(ItemID("a"), failure)))
            #expect(harness.notifications.contains(.statusChanged(ItemID("a"), .failed(failure))))
            #expect(harness.effects.contains(.stopLoading(ItemID("a"))))
            if action == .advance {
                #expect(harness.current == "b" && harness.history == ["a"])
                #expect(harness.player.history.last?.item.failure == failure)
            } else {
                #expect(harness.current == "a" && harness.player.rate == 0)
                #expect(harness.refuse { player throws(QueueRefusal) in try player.play() } == .itemFailed)
            }
            #expect(harness.refuse { player throws(QueueRefusal) in
                try player.report(.readyToPlay(duration: seconds(1), kind: .hls), for: ItemID("a"))
            } == (action == .advance ? .notInQueue : .itemFailed), "a failed item never becomes ready")
        }
    }

    @Test func reversePlaybackEndsAtTheStartAndPauses() {
        var harness = Harness(["a", "b"])
        harness.ready("a", duration: 10)
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(4)) }
        harness.run { player throws(QueueRefusal) in try player.setRate(-1) }
        harness.wait(.seconds(1))
        #expect(harness.time == seconds(3))
        harness.wait(.seconds(5))
        #expect(harness.time == .zero && harness.player.rate == 0 && harness.current == "a")
        #expect(harness.notifications.contains(.didPlayToEndTime(ItemID("a"))))
    }

    @Test func reversePlaybackEndTimeEndsReversePlayback() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 20)
        harness.run { player throws(QueueRefusal) in
            try player.setPreferences(PlayerItem.Preferences(reversePlaybackEndTime: seconds(6)), of: ItemID("a"))
        }
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(10)) }
        harness.run { player throws(QueueRefusal) in try player.setRate(-2) }
        harness.wait(.seconds(5))
        #expect(harness.time == seconds(6) && harness.player.rate == 0)
        #expect(harness.notifications.contains(.didPlayToEndTime(ItemID("a"))))
    }

    @Test func emptyItemsDoNotSpin() {
        var harness = Harness(["a", "b"], consume: false, loop: .queue)
        harness.ready("a", duration: 0)
        harness.ready("b", duration: 0)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(1))
        #expect(harness.player.rate == 0, "a queue of empty items stops")
    }
}

@Suite struct LoopTests {
    @Test func anItemLoopsItsCountThenTheQueueMovesOn() {
        var harness = Harness(["a", "b"], loop: .item(ItemLoop(plays: 3)))
        harness.ready("a", duration: 4)
        harness.ready("b", duration: 4)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(9))
        #expect(harness.current == "a" && harness.time == seconds(1))
        #expect(harness.player.currentItem?.loopCount == 2)
        #expect(harness.notifications.contains(.itemLooped(ItemID("a"), loopCount: 1)))
        #expect(harness.notifications.contains(.itemLooped(ItemID("a"), loopCount: 2)))
        #expect(harness.notifications.filter { $0 == .didPlayToEndTime(ItemID("a")) }.count == 2)
        harness.wait(.seconds(4))
        #expect(harness.current == "b" && harness.time == seconds(1))
    }

    @Test func anInfiniteLoopOverATimeRange() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 60)
        harness.run { player throws(QueueRefusal) in
            try player.setLoop(ItemLoop(plays: nil, timeRange: range(10, 15)), of: ItemID("a"))
        }
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(14))
        #expect(harness.time == seconds(14) && harness.player.currentItem?.loopCount == 0, "the loop bounds the first play")
        harness.clearRecords()
        // 1 s to reach 15, then 19 loops of 5 s, then 4 s into the next.
        harness.wait(.seconds(100))
        #expect(harness.current == "a" && harness.time == seconds(14))
        #expect(harness.player.currentItem?.loopCount == 20)
        #expect(harness.notifications.filter { if case .itemLooped = $0 { true } else { false } }.count == 20)
    }

    @Test func aLoopRangeStartsANewPlayAtItsStart() {
        var harness = Harness(["a", "b"], loop: .item(ItemLoop(plays: 2, timeRange: range(10, 15))))
        harness.ready("b", duration: 60)
        harness.run { player throws(QueueRefusal) in try player.advanceToNextItem() }
        #expect(harness.current == "b" && harness.time == seconds(10))
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(7))
        #expect(harness.time == seconds(12) && harness.player.currentItem?.loopCount == 1)
        harness.wait(.seconds(4))
        #expect(harness.current == nil, "after two plays the queue moves on, and is empty")
    }

    @Test(arguments: [true, false])
    func queueLoopRepeatsEverything(consume: Bool) {
        var harness = Harness(["a", "b"], consume: consume, loop: .queue)
        harness.ready("a", duration: 3)
        harness.ready("b", duration: 3)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(7))
        #expect(harness.current == "a" && harness.time == seconds(1))
        #expect(harness.order == ["a", "b"])
        #expect(harness.history == ["a", "b"])
    }

    @Test(arguments: [
        ItemLoop(plays: 0),
        ItemLoop(plays: 2, timeRange: range(5, 5)),
        ItemLoop(plays: 2, timeRange: TimeRange(start: .indefinite, end: seconds(5))),
        ItemLoop(plays: nil, timeRange: TimeRange(start: seconds(-1), end: seconds(5))),
    ])
    func invalidLoopsAreRefused(loop: ItemLoop) {
        var harness = Harness(["a"])
        #expect(harness.refuse { player throws(QueueRefusal) in try player.setLoopMode(.item(loop)) } == .invalidLoop)
        #expect(harness.refuse { player throws(QueueRefusal) in try player.setLoop(loop, of: ItemID("a")) } == .invalidLoop)
    }
}
