@testable import QueueCore
import Testing

private struct Entry: Identifiable, Equatable, VacantRepresentable {
    let id: Int

    static let vacant = Entry(id: -1)
}

@Suite struct ItemListTests {
    @Test(arguments: [0, 1, 2, 7, 100])
    func buildsInOrder(count: Int) throws {
        let list = try #require(ItemList((0..<count).map(Entry.init)))
        #expect(list.count == count)
        #expect(list.elements().map(\.id) == Array(0..<count))
        for position in 0..<count {
            #expect(list.position(of: list.slot(at: position)) == position)
        }
        #expect(list.checkInvariants())
    }

    @Test func refusesDuplicateIDs() {
        #expect(ItemList([Entry(id: 1), Entry(id: 2), Entry(id: 1)]) == nil)
    }

    @Test func neighboursWalkTheOrder() throws {
        let list = try #require(ItemList((0..<50).map(Entry.init)))
        var forward: [Int] = []
        var slot = list.first
        while let current = slot {
            forward.append(list[current].id)
            slot = list.successor(of: current)
        }
        #expect(forward == Array(0..<50))
        var backward: [Int] = []
        slot = list.last
        while let current = slot {
            backward.append(list[current].id)
            slot = list.predecessor(of: current)
        }
        #expect(backward == Array((0..<50).reversed()))
    }

    /// Thousands of random edits, each checked against an array and the invariants.
    @Test(arguments: [1 as UInt64, 2, 3])
    func randomEditsMatchAnArray(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var list = ItemList<Entry>()
        var model: [Int] = []
        var nextID = 0
        for _ in 0..<3000 {
            switch Int.random(in: 0..<13, using: &generator) {
            case 10 where !model.isEmpty, 11:
                // Insert right after an element (or at the end).
                let position = model.isEmpty ? -1 : Int.random(in: -1..<model.count, using: &generator)
                let anchor = position < 0 ? nil : list.slot(of: model[position])
                list.insert(Entry(id: nextID), after: anchor)
                model.insert(nextID, at: anchor == nil ? model.count : position + 1)
                nextID += 1
            case 12 where model.count > 1:
                // Move right after another element (or to the end).
                let from = Int.random(in: 0..<model.count, using: &generator)
                var to = Int.random(in: -1..<model.count, using: &generator)
                if to == from { to = -1 }
                let slot = try #require(list.slot(of: model[from]))
                let anchorID = to < 0 ? nil : model[to]
                list.move(slot, after: anchorID.flatMap { list.slot(of: $0) })
                let moved = model.remove(at: from)
                model.insert(moved, at: anchorID.map { model.firstIndex(of: $0)! + 1 } ?? model.count)
            case 0..<4:
                let position = Int.random(in: 0...model.count, using: &generator)
                list.insert(Entry(id: nextID), at: position)
                model.insert(nextID, at: position)
                nextID += 1
            case 4..<6 where !model.isEmpty:
                let position = Int.random(in: 0..<model.count, using: &generator)
                let slot = try #require(list.slot(of: model[position]))
                #expect(list.remove(slot).id == model.remove(at: position))
            case 6..<9 where !model.isEmpty:
                let from = Int.random(in: 0..<model.count, using: &generator)
                let to = Int.random(in: 0..<model.count, using: &generator)
                let slot = try #require(list.slot(of: model[from]))
                list.move(slot, to: to)
                model.insert(model.remove(at: from), at: to)
                #expect(list[slot].id == model[to])
            case 9 where model.count > 1:
                let start = Int.random(in: 0..<model.count, using: &generator)
                var suffix = Array(list.slots(from: list.slot(at: start)))
                suffix.shuffle(using: &generator)
                list.reorderSuffix(from: start, as: suffix)
                model.replaceSubrange(start..., with: suffix.map { list[$0].id })
            default:
                break
            }
            #expect(list.count == model.count)
            if let probe = model.indices.randomElement(using: &generator) {
                let slot = try #require(list.slot(of: model[probe]))
                #expect(list.position(of: slot) == probe)
                #expect(list[list.slot(at: probe)].id == model[probe])
            }
        }
        #expect(list.elements().map(\.id) == model)
        #expect(list.checkInvariants())
    }

    @Test func removeAllEmptiesAndAllowsReuse() throws {
        var list = try #require(ItemList((0..<10).map(Entry.init)))
        list.removeAll()
        #expect(list.isEmpty && list.first == nil && list.checkInvariants())
        list.insert(Entry(id: 3), at: 0)
        #expect(list.elements().map(\.id) == [3])
    }
}
