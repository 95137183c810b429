import MediaTime
import QueueCore
import Testing

/// A failed item, for the refusals that concern failure.
private func failedItem(_ name: String) -> PlayerItem {
    PlayerItem(id: ItemID(name), url: "https://media.test/\(name).m3u8", failure: ItemFailure(domain: "http", code: 404, message: "not found"))
}

@Suite struct InsertionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let consume: Bool
        let item: PlayerItem
        let after: String?
        let index: Int?
        let expected: QueueRefusal.Reason
        var testDescription: String { name }
    }

    /// Every reason `canInsert` and `insert` give, with both forms.
    @Test(arguments: [
        Case(name: "already in the queue", consume: true, item: item("b"), after: nil, index: nil, expected: .alreadyInQueue),
        Case(name: "already in the queue, index form", consume: true, item: item("a"), after: nil, index: 1, expected: .alreadyInQueue),
        Case(name: "failed", consume: true, item: failedItem("x"), after: nil, index: nil, expected: .itemFailed),
        Case(name: "failed, index form", consume: false, item: failedItem("x"), after: nil, index: 2, expected: .itemFailed),
        Case(name: "after not in the queue", consume: true, item: item("x"), after: "zz", index: nil, expected: .anchorNotInQueue),
        Case(name: "index past the end", consume: false, item: item("x"), after: nil, index: 4, expected: .indexOutOfRange),
        Case(name: "negative index", consume: false, item: item("x"), after: nil, index: -1, expected: .indexOutOfRange),
        Case(name: "before the current item with consume", consume: true, item: item("x"), after: nil, index: 0, expected: .positionBeforeCurrentItem),
    ])
    func refusals(_ test: Case) {
        var harness = Harness(["a", "b", "c"], consume: test.consume)
        let refusal = test.index.map { harness.player.canInsert(test.item, at: $0) }
            ?? harness.player.canInsert(test.item, after: test.after.map(ItemID.init))
        #expect(refusal?.reason == test.expected)
        let reason = harness.refuse { player throws(QueueRefusal) in
            if let index = test.index { return try player.insert(test.item, at: index) }
            return try player.insert(test.item, after: test.after.map(ItemID.init))
        }
        #expect(reason == test.expected)
        #expect(harness.order == ["a", "b", "c"])
    }

    @Test(arguments: [
        (nil as String?, nil as Int?, ["a", "b", "c", "x"]),
        ("a", nil, ["a", "x", "b", "c"]),
        ("c", nil, ["a", "b", "c", "x"]),
        (nil, 1, ["a", "x", "b", "c"]),
        (nil, 3, ["a", "b", "c", "x"]),
    ])
    func placesTheItem(after: String?, index: Int?, expected: [String]) {
        var harness = Harness(["a", "b", "c"])
        #expect(harness.player.canInsert(item("x"), after: after.map(ItemID.init)) == nil)
        harness.run { player throws(QueueRefusal) in
            if let index { return try player.insert(item("x"), at: index) }
            return try player.insert(item("x"), after: after.map(ItemID.init))
        }
        #expect(harness.order == expected)
        #expect(harness.current == "a")
        let anchor = expected[expected.firstIndex(of: "x")! - 1]
        #expect(harness.effects.contains(.persist(.inserted(ItemID("x"), after: ItemID(anchor)))))
    }

    @Test func insertingIntoAnEmptyQueueMakesItCurrentAndLoadsIt() {
        var harness = Harness()
        harness.insert("a")
        #expect(harness.current == "a")
        #expect(harness.notifications.contains(.currentItemChanged(from: nil, to: ItemID("a"))))
        #expect(harness.effects.contains(.startLoading(ItemID("a"))))
        #expect(harness.player.currentItem?.status == .loading)
        #expect(harness.player.upNext == nil)
        harness.insert("b")
        #expect(harness.player.upNext?.id == ItemID("b"))
        #expect(harness.effects.contains(.startLoading(ItemID("b"))), "one upcoming item preloads")
        harness.insert("c")
        #expect(!harness.effects.contains(.startLoading(ItemID("c"))), "only one upcoming item preloads")
    }

    @Test func reAddingAFailedURLMakesANewItem() {
        var harness = Harness(["a", "b"])
        harness.report(.failed(ItemFailure(domain: "http", code: 500, message: "boom")), for: ItemID("b"))
        let failed = harness.player.item(ItemID("b"))!
        #expect(failed.failure?.code == 500)
        #expect(harness.player.canInsert(failed, after: nil)?.reason == .alreadyInQueue)
        var fresh = harness.player.makeItem(url: failed.url)
        #expect(fresh.id != failed.id)
        #expect(harness.player.canInsert(fresh, after: nil) == nil)
        harness.run { player throws(QueueRefusal) in try player.insert(fresh, after: nil) }
        fresh = harness.player.item(fresh.id)!
        #expect(!fresh.isFailed && fresh.url == failed.url)
        #expect(harness.player.item(ItemID("b"))?.isFailed == true, "the failed item keeps its error")
    }
}

@Suite struct RemovalTests {
    @Test func removingAnUpcomingItem() {
        var harness = Harness(["a", "b", "c"])
        harness.run { player throws(QueueRefusal) in try player.remove(ItemID("b")) }
        #expect(harness.order == ["a", "c"])
        #expect(harness.notifications.contains(.itemsChanged))
        #expect(harness.effects.contains(.persist(.removed(ItemID("b")))))
        #expect(harness.history.isEmpty)
        #expect(harness.effects.contains(.stopLoading(ItemID("b"))))
        #expect(harness.effects.contains(.startLoading(ItemID("c"))))
        #expect(harness.refuse { player throws(QueueRefusal) in try player.remove(ItemID("b")) } == .notInQueue)
    }

    /// Removing the current item behaves like advancing, but the item is deleted.
    @Test(arguments: [
        (true, ["a", "b", "c"], "a", ["b", "c"], "b"),
        (true, ["a"], "a", [], nil),
        (false, ["a", "b", "c"], "b", ["a", "c"], "c"),
        (false, ["a", "b", "c"], "c", ["a", "b"], "b"),
    ])
    func removingTheCurrentItem(consume: Bool, names: [String], current: String, order: [String], next: String?) {
        var harness = Harness(names, consume: consume)
        if harness.current != current {
            harness.run { player throws(QueueRefusal) in try player.jump(to: ItemID(current)) }
        }
        harness.run { player throws(QueueRefusal) in try player.play() }
        let history = harness.history
        harness.run { player throws(QueueRefusal) in try player.remove(ItemID(current)) }
        #expect(harness.order == order)
        #expect(harness.current == next)
        #expect(harness.history == history, "a removed item does not go to history")
        #expect(harness.notifications.contains(.currentItemChanged(from: ItemID(current), to: next.map(ItemID.init))))
    }

    @Test func removingTheLastCurrentEntryWithoutConsumePauses() {
        var harness = Harness(["a", "b"], consume: false)
        harness.run { player throws(QueueRefusal) in try player.jump(to: ItemID("b")) }
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.run { player throws(QueueRefusal) in try player.remove(ItemID("b")) }
        #expect(harness.current == "a")
        #expect(harness.player.rate == 0 && harness.player.timeControlStatus == .paused)
    }

    @Test func removeAllStopsPlayback() {
        var harness = Harness(["a", "b", "c"])
        harness.ready("a")
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.player.timeControlStatus == .playing)
        harness.record(harness.player.removeAll())
        #expect(harness.order.isEmpty && harness.current == nil)
        #expect(harness.player.rate == 0 && harness.player.timeControlStatus == .paused)
        #expect(harness.effects.contains(.persist(.removedAll)))
        #expect(harness.effects.contains(.stopLoading(ItemID("a"))) && harness.effects.contains(.stopLoading(ItemID("b"))))
    }
}

@Suite struct MoveTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let consume: Bool
        let loop: LoopMode
        let start: String
        let move: String
        let after: String?
        let index: Int?
        let order: [String]
        let history: [String]
        let next: String?
        var testDescription: String { name }
    }

    /// The current entry stays current with its playhead; whatever follows it plays next.
    @Test(arguments: [
        Case(name: "upcoming after another", consume: true, loop: .off, start: "a", move: "d", after: "b", index: nil,
             order: ["a", "b", "d", "c"], history: [], next: "b"),
        Case(name: "upcoming to the end", consume: true, loop: .off, start: "a", move: "b", after: nil, index: nil,
             order: ["a", "c", "d", "b"], history: [], next: "c"),
        Case(name: "upcoming to index 1", consume: true, loop: .off, start: "a", move: "d", after: nil, index: 1,
             order: ["a", "d", "b", "c"], history: [], next: "d"),
        Case(name: "after itself", consume: true, loop: .off, start: "a", move: "c", after: "c", index: nil,
             order: ["a", "b", "c", "d"], history: [], next: "b"),
        Case(name: "current past two, consume", consume: true, loop: .off, start: "a", move: "a", after: "c", index: nil,
             order: ["a", "d"], history: ["b", "c"], next: "d"),
        Case(name: "current past two, consume and queue loop", consume: true, loop: .queue, start: "a", move: "a", after: nil, index: 2,
             order: ["a", "d", "b", "c"], history: ["b", "c"], next: "d"),
        Case(name: "current later, no consume", consume: false, loop: .off, start: "b", move: "b", after: "d", index: nil,
             order: ["a", "c", "d", "b"], history: [], next: nil),
        Case(name: "current first, no consume", consume: false, loop: .off, start: "c", move: "c", after: nil, index: 0,
             order: ["c", "a", "b", "d"], history: [], next: "a"),
        Case(name: "entry before the pointer, no consume", consume: false, loop: .off, start: "c", move: "a", after: "d", index: nil,
             order: ["b", "c", "d", "a"], history: [], next: "d"),
    ])
    func moves(_ test: Case) {
        var harness = Harness(["a", "b", "c", "d"], consume: test.consume, loop: test.loop)
        if test.start != "a" { harness.run { player throws(QueueRefusal) in try player.jump(to: ItemID(test.start)) } }
        harness.ready(test.start)
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(4)) }
        let history = harness.history
        harness.run { player throws(QueueRefusal) in
            if let index = test.index { return try player.move(ItemID(test.move), to: index) }
            return try player.move(ItemID(test.move), after: test.after.map(ItemID.init))
        }
        #expect(harness.order == test.order)
        #expect(harness.current == test.start)
        #expect(harness.time == seconds(4), "the current item keeps its playhead")
        #expect(Array(harness.history.dropFirst(history.count)) == test.history)
        #expect(harness.player.upNext?.id.rawValue == test.next)
    }

    @Test(arguments: [
        ("zz", "a" as String?, nil as Int?, true, QueueRefusal.Reason.notInQueue),
        ("b", "zz", nil, true, .anchorNotInQueue),
        ("b", nil, 4, false, .indexOutOfRange),
        ("b", nil, -1, false, .indexOutOfRange),
        ("c", nil, 0, true, .positionBeforeCurrentItem),
    ])
    func refusals(move: String, after: String?, index: Int?, consume: Bool, expected: QueueRefusal.Reason) {
        var harness = Harness(["a", "b", "c", "d"], consume: consume)
        let reason = harness.refuse { player throws(QueueRefusal) in
            if let index { return try player.move(ItemID(move), to: index) }
            return try player.move(ItemID(move), after: after.map(ItemID.init))
        }
        #expect(reason == expected)
    }

    @Test func shuffleReordersOnlyTheUpcomingEntriesReproducibly() {
        var first = Harness(["a", "b", "c", "d", "e", "f", "g"], consume: false)
        first.run { player throws(QueueRefusal) in try player.jump(to: ItemID("c")) }
        var second = first
        first.record(first.player.shuffle(seed: 7))
        second.record(second.player.shuffle(seed: 7))
        #expect(first.order == second.order)
        #expect(Array(first.order.prefix(3)) == ["a", "b", "c"])
        #expect(Set(first.order.dropFirst(3)) == ["d", "e", "f", "g"])
        #expect(first.current == "c")
        var third = Harness(["a", "b", "c", "d", "e", "f", "g"], consume: false)
        third.run { player throws(QueueRefusal) in try player.jump(to: ItemID("c")) }
        let orders = Set((0..<20 as Range<UInt64>).map { seed in
            var copy = third
            copy.record(copy.player.shuffle(seed: seed))
            return copy.order
        })
        #expect(orders.count > 1, "different seeds give different orders")
    }
}
