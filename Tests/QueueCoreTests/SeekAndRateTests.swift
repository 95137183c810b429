import MediaTime
import QueueCore
import Testing

@Suite struct SeekTests {
    @Test func aSeekIntoLoadedMediaCompletesAtOnce() throws {
        var harness = Harness(["a"])
        harness.ready("a", duration: 20)
        let outcome = harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(7)) }
        let seek = try #require(outcome.seek)
        #expect(outcome.notifications.contains(.seekCompleted(seek, finished: true)))
        #expect(outcome.notifications.contains(.timeJumped(ItemID("a"), to: seconds(7))))
        #expect(outcome.effects.contains(.persistPlayhead(ItemID("a"), seconds(7))))
        #expect(harness.time == seconds(7))
    }

    @Test func aNewerSeekOrACancelCompletesTheOlderOneUnfinished() throws {
        var harness = Harness(["a"])
        harness.ready("a", duration: 20, loaded: 5)
        let first = try #require(harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(10)) }.seek)
        #expect(harness.player.pendingSeekID == first)
        #expect(harness.effects.contains(.loadFrom(ItemID("a"), seconds(10))))
        let second = try #require(harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(12)) }.seek)
        #expect(harness.notifications.contains(.seekCompleted(first, finished: false)))
        harness.report(.segmentLoaded(range(12, 14)), for: ItemID("a"))
        #expect(harness.notifications.contains(.seekCompleted(second, finished: true)))
        let third = try #require(harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(16)) }.seek)
        harness.record(harness.player.cancelPendingSeeks())
        #expect(harness.notifications.contains(.seekCompleted(third, finished: false)))
        #expect(harness.player.pendingSeekID == nil && harness.time == seconds(16))
    }

    @Test func aPendingSeekWaitsAndIsUnfinishedWhenTheItemChanges() throws {
        var harness = Harness(["a", "b"])
        harness.ready("a", duration: 20, loaded: 5)
        harness.run { player throws(QueueRefusal) in try player.play() }
        let seek = try #require(harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(15)) }.seek)
        #expect(harness.player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        harness.run { player throws(QueueRefusal) in try player.advanceToNextItem() }
        #expect(harness.notifications.contains(.seekCompleted(seek, finished: false)))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let target: MediaTime
        let before: MediaTime
        let after: MediaTime
        let landing: MediaTime?
        let refusal: QueueRefusal.Reason?
        var testDescription: String { name }
    }

    /// Seekable ranges [0, 10) and [20, 30); the ends are seekable.
    @Test(arguments: [
        Case(name: "inside", target: seconds(5), before: .zero, after: .zero, landing: seconds(5), refusal: nil),
        Case(name: "at a range's end", target: seconds(10), before: .zero, after: .zero, landing: seconds(10), refusal: nil),
        Case(name: "in the hole", target: seconds(15), before: .zero, after: .zero, landing: nil, refusal: .outsideSeekableRanges),
        Case(name: "in the hole, within tolerance after", target: seconds(15), before: .zero, after: seconds(6),
             landing: seconds(20), refusal: nil),
        Case(name: "in the hole, within both tolerances", target: seconds(14), before: seconds(5), after: seconds(6),
             landing: seconds(10), refusal: nil),
        Case(name: "past the end", target: seconds(31), before: .zero, after: .zero, landing: nil, refusal: .outsideSeekableRanges),
        Case(name: "not numeric", target: .indefinite, before: .zero, after: .zero, landing: nil, refusal: .invalidTime),
        Case(name: "negative tolerance", target: seconds(5), before: seconds(-1), after: .zero, landing: nil, refusal: .invalidTime),
    ])
    func seekableRanges(_ test: Case) {
        var harness = Harness(["a"])
        harness.ready("a", duration: 30)
        harness.report(.seekableTimeRanges(TimeRangeSet([range(0, 10), range(20, 30)])), for: ItemID("a"))
        if let refusal = test.refusal {
            #expect(harness.player.validate(.seek(to: test.target, toleranceBefore: test.before, toleranceAfter: test.after))?.reason == refusal)
            #expect(harness.refuse { player throws(QueueRefusal) in
                try player.seek(to: test.target, toleranceBefore: test.before, toleranceAfter: test.after)
            } == refusal)
        } else {
            harness.run { player throws(QueueRefusal) in
                try player.seek(to: test.target, toleranceBefore: test.before, toleranceAfter: test.after)
            }
            #expect(harness.time == test.landing)
        }
    }

    @Test func anItemThatIsNotReadyCannotSeek() {
        var harness = Harness(["a"])
        #expect(harness.refuse { player throws(QueueRefusal) in try player.seek(to: seconds(1)) } == .itemNotReadyToPlay)
    }

    @Test(arguments: [(Int64(5), Int64(11)), (-20, 0), (100, 30), (0, 6)])
    func skipClampsToTheSeekableRange(offset: Int64, expected: Int64) {
        var harness = Harness(["a"])
        harness.ready("a", duration: 30)
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(6)) }
        harness.run { player throws(QueueRefusal) in try player.skip(by: seconds(offset)) }
        #expect(harness.time == seconds(expected))
    }

    /// An ad break at [10, 20).
    @Test(arguments: [
        (Int64(12), Int64(15), nil as QueueRefusal.Reason?),
        (12, 25, .leavesLinearPlaybackRange),
        (12, 5, .leavesLinearPlaybackRange),
        (5, 25, .jumpsOverLinearPlaybackRange),
        (5, 20, .jumpsOverLinearPlaybackRange),
        (5, 12, nil),
        (25, 5, nil),
    ])
    func linearPlaybackRanges(from start: Int64, to target: Int64, expected: QueueRefusal.Reason?) {
        var harness = Harness(["a"])
        harness.ready("a", duration: 30)
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(start)) }
        let ad = LinearPlaybackRange(timeRange: range(10, 20), label: "ad")
        harness.report(.mediaInformation(MediaInformation(linearPlaybackRanges: [ad])), for: ItemID("a"))
        if let expected {
            #expect(harness.refuse { player throws(QueueRefusal) in try player.seek(to: seconds(target)) } == expected)
            #expect(harness.refuse { player throws(QueueRefusal) in try player.skip(by: seconds(target - start)) } == expected)
        } else {
            harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(target)) }
            #expect(harness.time == seconds(target))
        }
    }
}

@Suite struct RateTests {
    enum Setup: String, Sendable, CaseIterable {
        case noItem, loading, vod, live, vodNothingBehind
    }

    @Test(arguments: Setup.allCases)
    func allowedRates(setup: Setup) {
        var harness = Harness(setup == .noItem ? [] : ["a"])
        switch setup {
        case .noItem, .loading:
            break
        case .vod:
            harness.ready("a", duration: 30)
            harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(5)) }
        case .vodNothingBehind:
            harness.ready("a", duration: 30)
            harness.report(.loadedTimeRanges(TimeRangeSet([range(10, 20)])), for: ItemID("a"))
            harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(5)) }
        case .live:
            harness.ready("a", duration: nil)
            harness.report(.seekableTimeRanges(TimeRangeSet([range(0, 30)])), for: ItemID("a"))
            harness.report(.loadedTimeRanges(TimeRangeSet([range(0, 40)])), for: ItemID("a"))
        }
        for rate in [0.5, 1, 2] {
            #expect(harness.player.validate(.setRate(rate)) == nil)
        }
        let fast = harness.player.validate(.setRate(4))?.reason
        let reverse = harness.player.validate(.setRate(-1))?.reason
        #expect(fast == (setup == .vod || setup == .vodNothingBehind ? nil : .rateNotSupported))
        #expect(reverse == (setup == .vod ? nil : .rateNotSupported))
        #expect(harness.refuse { player throws(QueueRefusal) in try player.setRate(.nan) } == .invalidRate)
        #expect(harness.refuse { player throws(QueueRefusal) in try player.setDefaultRate(3) } == .invalidRate)
        #expect(harness.refuse { player throws(QueueRefusal) in try player.setDefaultRate(0) } == .invalidRate)
    }

    @Test func playUsesTheDefaultRateAndSpecialRatesResetOnItemChange() {
        var harness = Harness(["a", "b"])
        harness.ready("a", duration: 30)
        harness.run { player throws(QueueRefusal) in try player.setDefaultRate(1.5) }
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.player.rate == 1.5)
        harness.run { player throws(QueueRefusal) in try player.setRate(8) }
        harness.wait(.seconds(1))
        #expect(harness.time == seconds(8))
        harness.run { player throws(QueueRefusal) in try player.advanceToNextItem() }
        #expect(harness.player.rate == 1.5)
        #expect(harness.notifications.contains(.rateChanged(1.5)))
    }
}
