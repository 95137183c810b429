import MediaTime
import QueueCore
import Testing

@Suite struct NavigationTests {
    enum Step: Sendable, CustomStringConvertible {
        case advance
        case previous
        case jump(String)

        var description: String {
            switch self {
            case .advance: "advance"
            case .previous: "previous"
            case .jump(let name): "jump(\(name))"
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let consume: Bool
        let loop: LoopMode
        let steps: [Step]
        let order: [String]
        let current: String?
        let history: [String]
        var testDescription: String { name }
    }

    /// Sequences of navigation with the resulting list, pointer and history.
    @Test(arguments: [
        Case(name: "advance with consume", consume: true, loop: .off, steps: [.advance],
             order: ["b", "c", "d"], current: "b", history: ["a"]),
        Case(name: "advance past the end with consume empties the list", consume: true, loop: .off,
             steps: [.advance, .advance, .advance, .advance], order: [], current: nil, history: ["a", "b", "c", "d"]),
        Case(name: "advance with consume and queue loop re-enqueues", consume: true, loop: .queue, steps: [.advance, .advance],
             order: ["c", "d", "a", "b"], current: "c", history: ["a", "b"]),
        Case(name: "advance without consume moves the pointer", consume: false, loop: .off, steps: [.advance, .advance],
             order: ["a", "b", "c", "d"], current: "c", history: ["a", "b"]),
        Case(name: "advance without consume wraps under queue loop", consume: false, loop: .queue,
             steps: [.jump("d"), .advance], order: ["a", "b", "c", "d"], current: "a", history: ["a", "d"]),
        Case(name: "previous with consume brings back history, old current next", consume: true, loop: .off,
             steps: [.advance, .advance, .previous], order: ["b", "c", "d"], current: "b", history: ["a"]),
        Case(name: "previous twice with consume", consume: true, loop: .off, steps: [.advance, .advance, .previous, .previous],
             order: ["a", "b", "c", "d"], current: "a", history: []),
        Case(name: "previous with consume and queue loop moves the re-enqueued item", consume: true, loop: .queue,
             steps: [.advance, .previous], order: ["a", "b", "c", "d"], current: "a", history: []),
        Case(name: "previous without consume moves the pointer back", consume: false, loop: .off,
             steps: [.jump("c"), .previous], order: ["a", "b", "c", "d"], current: "b", history: ["a"]),
        Case(name: "previous without consume wraps under queue loop", consume: false, loop: .queue,
             steps: [.previous], order: ["a", "b", "c", "d"], current: "d", history: []),
        Case(name: "jump with consume passes the skipped entries to history", consume: true, loop: .off,
             steps: [.jump("c")], order: ["c", "d"], current: "c", history: ["a", "b"]),
        Case(name: "jump with consume and queue loop sends skipped entries round", consume: true, loop: .queue,
             steps: [.jump("c")], order: ["c", "d", "a", "b"], current: "c", history: ["a", "b"]),
        Case(name: "jump without consume keeps the entries", consume: false, loop: .off, steps: [.jump("d"), .jump("b")],
             order: ["a", "b", "c", "d"], current: "b", history: ["a"]),
        Case(name: "jump to the current item restarts it", consume: true, loop: .off, steps: [.jump("a")],
             order: ["a", "b", "c", "d"], current: "a", history: []),
    ])
    func navigates(_ test: Case) {
        var harness = Harness(["a", "b", "c", "d"], consume: test.consume, loop: test.loop)
        for step in test.steps {
            harness.run { player throws(QueueRefusal) in
                switch step {
                case .advance: try player.advanceToNextItem()
                case .previous: try player.previous()
                case .jump(let name): try player.jump(to: ItemID(name))
                }
            }
        }
        #expect(harness.order == test.order)
        #expect(harness.current == test.current)
        #expect(harness.history == test.history)
        if let current = test.current {
            #expect(harness.player.currentIndex == test.order.firstIndex(of: current))
        }
    }

    @Test func advancePastTheEndWithConsumeWaitsForAnItem() {
        var harness = Harness(["a"])
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.run { player throws(QueueRefusal) in try player.advanceToNextItem() }
        #expect(harness.current == nil && harness.player.rate == 1)
        #expect(harness.player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(harness.player.reasonForWaitingToPlay == .noItemToPlay)
        harness.insert("b")
        #expect(harness.current == "b")
        #expect(harness.player.reasonForWaitingToPlay == .evaluatingBufferingRate)
    }

    @Test func navigationSkipsFailedEntries() {
        var harness = Harness(["a", "b", "c", "d"], consume: false)
        harness.report(.failed(ItemFailure(domain: "http", code: 404, message: "gone")), for: ItemID("b"))
        harness.run { player throws(QueueRefusal) in try player.advanceToNextItem() }
        #expect(harness.current == "c")
        harness.run { player throws(QueueRefusal) in try player.previous() }
        #expect(harness.current == "a")
        #expect(harness.refuse { player throws(QueueRefusal) in try player.jump(to: ItemID("b")) } == .itemFailed)
    }

    @Test func consumePassesFailedEntriesIntoHistory() {
        var harness = Harness(["a", "b", "c"])
        harness.report(.failed(ItemFailure(domain: "http", code: 404, message: "gone")), for: ItemID("b"))
        harness.run { player throws(QueueRefusal) in try player.advanceToNextItem() }
        #expect(harness.order == ["c"] && harness.history == ["a", "b"])
        harness.run { player throws(QueueRefusal) in try player.previous() }
        #expect(harness.current == "a", "previous skips the failed history entry")
        #expect(harness.history == ["b"])
    }

    @Test(arguments: [
        (true, "previous with an empty history", QueueRefusal.Reason.noPreviousItem),
        (false, "previous at the first entry", .noPreviousItem),
        (false, "advance at the last entry", .noNextItem),
    ])
    func refusals(consume: Bool, name: String, expected: QueueRefusal.Reason) {
        var harness = Harness(["a", "b"], consume: consume)
        if name.hasPrefix("advance") { harness.run { player throws(QueueRefusal) in try player.jump(to: ItemID("b")) } }
        let reason = harness.refuse { player throws(QueueRefusal) in
            name.hasPrefix("advance") ? try player.advanceToNextItem() : try player.previous()
        }
        #expect(reason == expected)
    }

    @Test func commandsOnAnEmptyQueue() {
        var harness = Harness()
        #expect(harness.refuse { player throws(QueueRefusal) in try player.advanceToNextItem() } == .noCurrentItem)
        #expect(harness.refuse { player throws(QueueRefusal) in try player.jump(to: ItemID("a")) } == .notInQueue)
        #expect(harness.refuse { player throws(QueueRefusal) in try player.seek(to: .zero) } == .noCurrentItem)
        #expect(harness.refuse { player throws(QueueRefusal) in try player.skip(by: seconds(5)) } == .noCurrentItem)
    }

    @Test func newCurrentItemsStartFromTheBeginning() {
        var harness = Harness(["a", "b"], consume: false)
        harness.ready("a")
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(6)) }
        harness.run { player throws(QueueRefusal) in try player.advanceToNextItem() }
        harness.run { player throws(QueueRefusal) in try player.previous() }
        #expect(harness.current == "a" && harness.time == .zero)
        #expect(harness.effects.contains(.persistPlayhead(ItemID("a"), .zero)))
    }

    @Test func switchingConsumeOnDropsThePassedEntries() {
        var harness = Harness(["a", "b", "c"], consume: false)
        harness.run { player throws(QueueRefusal) in try player.jump(to: ItemID("c")) }
        harness.record(harness.player.setConsume(true))
        #expect(harness.order == ["c"] && harness.current == "c")
        #expect(harness.effects.contains(.persist(.removed(ItemID("a")))))
    }
}
