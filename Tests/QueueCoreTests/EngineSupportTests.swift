import MediaTime
import QueueCore
import Testing

/// What the core offers the engine beyond the commands: the timer's deadline, progress of
/// long downloads, and cheap queries.
@Suite struct EngineSupportTests {
    /// Nanoseconds from the clock's reading to the player's next deadline.
    private func delay(_ harness: Harness) -> Int64? {
        harness.player.nextDeadline.map { $0.nanoseconds - harness.clock.monotonicNow().nanoseconds }
    }

    @Test func pausedAndWaitingPlayersHaveNoDeadline() {
        var harness = Harness(["a"])
        #expect(harness.player.nextDeadline == nil, "paused")
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(harness.player.nextDeadline == nil, "waiting for the item to load")
    }

    @Test(arguments: [(1.0, Int64(10_000_000_000)), (2.0, 5_000_000_000), (0.5, 20_000_000_000)])
    func theDeadlineIsTheItemsEndAtTheRate(rate: Double, expected: Int64) {
        var harness = Harness(["a", "b"])
        harness.ready("a", duration: 10)
        harness.run { player throws(QueueRefusal) in try player.setRate(rate) }
        #expect(delay(harness) == expected)
        // Sleeping exactly until the deadline ends the item in one tick.
        harness.clock.advance(nanoseconds: expected)
        let outcome = harness.record(harness.player.tick())
        #expect(outcome.notifications.contains(.didPlayToEndTime(ItemID("a"))))
        #expect(harness.current == "b")
    }

    @Test func theDeadlineIsTheEndOfTheLoadedMediaBeforeTheEnd() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 20, loaded: 6)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(1))
        #expect(delay(harness) == 5_000_000_000)
        harness.wait(.seconds(5))
        #expect(harness.notifications.contains(.playbackStalled(ItemID("a"))))
        #expect(harness.player.nextDeadline == nil, "stalled: the next change comes from the loader")
    }

    @Test func theDeadlineStopsAtTheLoopRangesEnd() {
        var harness = Harness(["a"], loop: .item(ItemLoop(timeRange: range(2, 5))))
        harness.ready("a", duration: 10)
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.time == seconds(2))
        #expect(delay(harness) == 3_000_000_000)
    }

    @Test func observersBringTheDeadlineForward() throws {
        var harness = Harness(["a"])
        harness.ready("a", duration: 10)
        _ = try harness.player.addBoundaryTimeObserver(times: [milliseconds(2500), seconds(7)])
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(delay(harness) == 2_500_000_000)
        harness.wait(.milliseconds(2500))
        #expect(delay(harness) == 4_500_000_000)
        _ = try harness.player.addPeriodicTimeObserver(interval: seconds(1))
        #expect(delay(harness) == 500_000_000, "the next whole second")
    }

    @Test func reversePlaybackCountsDownToTheStart() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 10)
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(4)) }
        harness.run { player throws(QueueRefusal) in try player.setRate(-1) }
        #expect(harness.player.timeControlStatus == .playing)
        #expect(delay(harness) == 4_000_000_000)
    }

    @Test func transferProgressAddsBytesWithoutARequest() {
        var harness = Harness(["a"])
        harness.ready("a", duration: 10)
        harness.report(.mediaRequest(bytes: 1000, transferDuration: milliseconds(100), mediaDuration: .zero), for: ItemID("a"))
        harness.report(.transferProgress(bytes: 3000, transferDuration: milliseconds(300)), for: ItemID("a"))
        let entry = harness.player.currentItem?.accessLog.last
        #expect(entry?.numberOfMediaRequests == 1)
        #expect(entry?.numberOfBytesTransferred == 4000)
        #expect(entry?.transferDuration == milliseconds(400))
        #expect(harness.refuse { player throws(QueueRefusal) in
            try player.report(.transferProgress(bytes: -1, transferDuration: .zero), for: ItemID("a"))
        } == .invalidReport)
    }

    @Test func itemIDsListThePositionsAskedFor() {
        let harness = Harness(["a", "b", "c", "d"])
        #expect(harness.player.itemIDs() == ["a", "b", "c", "d"].map(ItemID.init))
        #expect(harness.player.itemIDs(from: 1, limit: 2) == ["b", "c"].map(ItemID.init))
        #expect(harness.player.itemIDs(from: 3, limit: 10) == [ItemID("d")])
        #expect(harness.player.itemIDs(from: 4).isEmpty && harness.player.itemIDs(from: -1).isEmpty)
        #expect(harness.player.itemIDs(limit: 0).isEmpty)
    }
}
