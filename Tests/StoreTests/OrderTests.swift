import Testing
@testable import Store

/// The order of a list, and what moving costs: one row per moved item, however long the
/// queue and however often the same gap is used.
@Suite struct OrderTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    @Test func movesToEveryKindOfPosition() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c", "d", "e"])
        let id = Dictionary(uniqueKeysWithValues: items.map { ($0.title!, $0.id) })
        try store.moveItem(id["e"]!, to: .first)
        #expect(try fixture.titles(queue.id) == ["e", "a", "b", "c", "d"])
        try store.moveItem(id["e"]!, to: .last)
        #expect(try fixture.titles(queue.id) == ["a", "b", "c", "d", "e"])
        try store.moveItem(id["a"]!, to: .after(id["c"]!))
        #expect(try fixture.titles(queue.id) == ["b", "c", "a", "d", "e"])
        try store.moveItem(id["d"]!, to: .before(id["b"]!))
        #expect(try fixture.titles(queue.id) == ["d", "b", "c", "a", "e"])
        try store.moveItems([id["e"]!, id["b"]!, id["d"]!], to: .after(id["c"]!))
        #expect(try fixture.titles(queue.id) == ["c", "e", "b", "d", "a"])
        try store.moveItems([id["a"]!, id["c"]!], to: .first)
        #expect(try fixture.titles(queue.id) == ["a", "c", "e", "b", "d"])
    }

    @Test func movingAnItemWhereItIsWritesNothing() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        let (a, b, c) = (items[0].id, items[1].id, items[2].id)
        for (item, position) in [(b, Store.Position.after(a)), (b, .before(c)), (a, .first), (c, .last)] {
            #expect(try fixture.rowsWritten { try store.moveItem(item, to: position) } == 0)
        }
        #expect(try fixture.titles(queue.id) == ["a", "b", "c"])
    }

    /// In a queue of 10,000 items, each move writes exactly one row, wherever it goes.
    @Test func aMoveWritesOneRowInALongQueue() throws {
        let queue = try store.createQueue(name: "long")
        let count = 10_000
        let items = try store.insertItems((0..<count).map { StoreFixture.attributes("\($0)") }, into: queue.id)
        var model = items.map(\.id)
        var generator = SystemRandomNumberGenerator()
        for step in 0..<300 {
            let item = model.randomElement(using: &generator)!
            let others = model.filter { $0 != item }
            let position: Store.Position = switch step % 4 {
            case 0: .first
            case 1: .last
            case 2: .after(others.randomElement(using: &generator)!)
            default: .before(others.randomElement(using: &generator)!)
            }
            let index = model.firstIndex(of: item)!
            model.remove(at: index)
            switch position {
            case .first: model.insert(item, at: 0)
            case .last: model.append(item)
            case .after(let anchor): model.insert(item, at: model.firstIndex(of: anchor)! + 1)
            case .before(let anchor): model.insert(item, at: model.firstIndex(of: anchor)!)
            }
            let unchanged = model.firstIndex(of: item) == index
            let written = try fixture.rowsWritten { try store.moveItem(item, to: position) }
            #expect(written == (unchanged ? 0 : 1), "step \(step): \(written) rows for \(item) to \(position)")
        }
        #expect(try store.items(in: queue.id).map(\.id) == model)
    }

    /// The worst case for fractional keys: every move goes into the gap right after the same
    /// item. Each still writes one row (nothing is renumbered), and the moved item's key
    /// grows by one byte per eight moves at most.
    @Test func repeatedMovesIntoTheSameGapWriteOneRowEach() throws {
        let queue = try store.createQueue(name: "long")
        let items = try store.insertItems((0..<10_000).map { StoreFixture.attributes("\($0)") }, into: queue.id)
        let anchor = items[5_000].id
        let moves = 1_000
        var expectedNext: [Store.ItemID] = []
        for move in 0..<moves {
            // Alternate between far-away items, so each move really changes the order.
            let item = items[move % 2 == 0 ? 100 + move : 9_000 - move].id
            let written = try fixture.rowsWritten { try store.moveItem(item, to: .after(anchor)) }
            #expect(written == 1, "move \(move) wrote \(written) rows")
            expectedNext.insert(item, at: 0)
        }
        let order = try store.items(in: queue.id).map(\.id)
        let start = order.firstIndex(of: anchor)! + 1
        #expect(Array(order[start..<start + moves]) == expectedNext)
        let longest = try store.database.integer(
            "SELECT max(length(rank)) FROM items WHERE queue_id = \(queue.id.rawValue)")
        #expect(try #require(longest) <= Int64(8 + moves / 8 + 1))
    }

    @Test func bulkOperationsWriteOneRowPerItem() throws {
        let queue = try store.createQueue(name: "bulk")
        let inserted = try fixture.rowsWritten {
            try store.insertItems((0..<1_000).map { StoreFixture.attributes("\($0)") }, into: queue.id)
        }
        #expect(inserted == 1_000)
        let items = try store.items(in: queue.id)
        let upcoming = items.dropFirst().map(\.id).shuffled()
        let shuffled = try fixture.rowsWritten { try store.moveItems(upcoming, to: .after(items[0].id)) }
        #expect(shuffled == Int64(upcoming.count))
        #expect(try store.items(in: queue.id).map(\.id) == [items[0].id] + upcoming)
    }

    /// Long random sequences of inserts, moves and removals, checked against an array.
    @Test(arguments: 0..<4)
    func randomEditsMatchAReferenceList(round: Int) throws {
        let queue = try store.createQueue(name: "random \(round)")
        var model: [Store.ItemID] = []
        var generator = SystemRandomNumberGenerator()
        func randomPosition(excluding item: Store.ItemID?) -> (Store.Position, Int)? {
            let anchors = model.filter { $0 != item }
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return (.first, 0)
            case 1: return (.last, anchors.count)
            case 2:
                guard let anchor = anchors.randomElement(using: &generator) else { return nil }
                return (.after(anchor), anchors.firstIndex(of: anchor)! + 1)
            default:
                guard let anchor = anchors.randomElement(using: &generator) else { return nil }
                return (.before(anchor), anchors.firstIndex(of: anchor)!)
            }
        }
        for step in 0..<600 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                guard let (position, index) = randomPosition(excluding: nil) else { continue }
                let count = Int.random(in: 1...3, using: &generator)
                let new = try store.insertItems((0..<count).map { StoreFixture.attributes("\(step)-\($0)") },
                                                into: queue.id, at: position)
                model.insert(contentsOf: new.map(\.id), at: index)
            case 4..<8:
                guard let item = model.randomElement(using: &generator),
                      let (position, index) = randomPosition(excluding: item) else { continue }
                try store.moveItem(item, to: position)
                model.removeAll { $0 == item }
                model.insert(item, at: index)
            default:
                guard let item = model.randomElement(using: &generator) else { continue }
                try store.removeItem(item)
                model.removeAll { $0 == item }
            }
        }
        #expect(try store.items(in: queue.id).map(\.id) == model)
    }
}
