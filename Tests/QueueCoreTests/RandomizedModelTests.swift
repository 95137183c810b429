import MediaTime
import QueueCore
import Testing

/// The queue's order semantics written as plainly as possible, over arrays of names: the
/// reference the player is checked against.
private struct ReferenceQueue {
    var order: [String] = []
    var current: String?
    var history: [String] = []
    var failed: Set<String> = []
    var consume: Bool
    let loopsQueue: Bool
    let historyLimit: Int

    func position(_ name: String) -> Int? { order.firstIndex(of: name) }
    func playable(_ name: String) -> Bool { !failed.contains(name) }

    mutating func record(_ name: String) {
        history.append(name)
        if history.count > historyLimit { history.removeFirst() }
    }

    /// Consume on: the entry leaves for history, or goes round under queue loop.
    mutating func pass(_ name: String) {
        record(name)
        order.removeAll { $0 == name }
        if loopsQueue && playable(name) { order.append(name) }
    }

    mutating func passFailedAtFront() {
        while let first = order.first, !playable(first) { pass(first) }
    }

    func nextPlayable(after name: String) -> String? {
        guard let start = position(name) else { return nil }
        for step in 1...order.count {
            let index = start + step
            if index >= order.count && !loopsQueue { return nil }
            let candidate = order[index % order.count]
            if candidate == name { return playable(name) ? name : nil }
            if playable(candidate) { return candidate }
        }
        return nil
    }

    func previousPlayable(before name: String) -> String? {
        guard let start = position(name) else { return nil }
        for step in 1...order.count {
            let index = start - step
            if index < 0 && !loopsQueue { return nil }
            let candidate = order[(index % order.count + order.count) % order.count]
            if candidate == name { return playable(name) ? name : nil }
            if playable(candidate) { return candidate }
        }
        return nil
    }

    mutating func advance() -> QueueRefusal.Reason? {
        guard let current else { return .noCurrentItem }
        if consume {
            pass(current)
            passFailedAtFront()
            self.current = order.first
            return nil
        }
        guard let next = nextPlayable(after: current) else { return .noNextItem }
        record(current)
        self.current = next
        return nil
    }

    mutating func apply(_ command: QueueCommand) -> QueueRefusal.Reason? {
        switch command {
        case .insert(let item, let anchor):
            let name = item.id.rawValue
            if position(name) != nil { return .alreadyInQueue }
            if item.isFailed { return .itemFailed }
            var index = order.count
            if let anchor {
                guard let anchorIndex = position(anchor.rawValue) else { return .anchorNotInQueue }
                index = anchorIndex + 1
            }
            order.insert(name, at: index)
            if current == nil { current = name }
        case .insertAt(let item, let index):
            let name = item.id.rawValue
            if position(name) != nil { return .alreadyInQueue }
            if item.isFailed { return .itemFailed }
            guard index >= 0, index <= order.count else { return .indexOutOfRange }
            if index == 0 && consume && current != nil { return .positionBeforeCurrentItem }
            order.insert(name, at: index)
            if current == nil { current = name }
        case .remove(let id):
            let name = id.rawValue
            guard let index = position(name) else { return .notInQueue }
            guard name == current else {
                order.remove(at: index)
                return nil
            }
            if consume {
                order.remove(at: index)
                passFailedAtFront()
                current = order.first
            } else {
                let next = nextPlayable(after: name).flatMap { $0 == name ? nil : $0 }
                let fallback = index > 0 ? order[index - 1] : (index + 1 < order.count ? order[index + 1] : nil)
                order.remove(at: index)
                current = next ?? fallback
            }
        case .removeAll:
            order = []
            current = nil
        case .move(let id, let anchor):
            guard let from = position(id.rawValue) else { return .notInQueue }
            var to = order.count - 1
            if let anchor {
                guard let anchorIndex = position(anchor.rawValue) else { return .anchorNotInQueue }
                to = anchor == id ? from : (anchorIndex < from ? anchorIndex + 1 : anchorIndex)
            }
            move(id.rawValue, from: from, to: to)
        case .moveTo(let id, let index):
            guard let from = position(id.rawValue) else { return .notInQueue }
            guard index >= 0, index < order.count else { return .indexOutOfRange }
            if index == 0 && consume && id.rawValue != current { return .positionBeforeCurrentItem }
            move(id.rawValue, from: from, to: index)
        case .shuffle(let seed):
            if let current, let index = position(current), index + 1 < order.count {
                var upcoming = Array(order[(index + 1)...])
                var generator = SplitMix64(seed: seed)
                upcoming.shuffle(using: &generator)
                order.replaceSubrange((index + 1)..., with: upcoming)
            }
        case .advanceToNextItem:
            return advance()
        case .previous:
            if consume {
                guard let index = history.lastIndex(where: playable) else { return .noPreviousItem }
                let name = history.remove(at: index)
                order.removeAll { $0 == name }
                order.insert(name, at: 0)
                current = name
            } else {
                guard let current, let previous = previousPlayable(before: current), previous != current else {
                    return .noPreviousItem
                }
                self.current = previous
            }
        case .jump(let id):
            let name = id.rawValue
            guard let index = position(name) else { return .notInQueue }
            guard playable(name) else { return .itemFailed }
            if let current, current != name {
                if consume {
                    while order.first != name { pass(order[0]) }
                } else if index > (position(current) ?? 0) {
                    record(current)
                }
            }
            current = name
        case .setConsume(let on):
            consume = on
            if on, let current { order.removeFirst(position(current) ?? 0) }
        default:
            Issue.record("the model does not know \(command)")
        }
        return nil
    }

    mutating func move(_ name: String, from: Int, to: Int) {
        if consume && name == current {
            for _ in 0..<to {
                guard order.count > 1 else { break }
                pass(order[1])
            }
            return
        }
        order.insert(order.remove(at: from), at: to)
    }

    /// A failure report: the current item fails and the queue advances (`.advance`).
    mutating func fail(_ name: String) -> QueueRefusal.Reason? {
        guard position(name) != nil else { return .notInQueue }
        guard playable(name) else { return .itemFailed }
        failed.insert(name)
        if name == current { _ = advance() }
        return nil
    }
}

@Suite struct RandomizedModelTests {
    /// Long random sequences of commands on small queues, where collisions are frequent:
    /// after every step the refusal (or its absence), the order, the current entry and the
    /// history must match the reference, `validate` must have predicted the outcome, and the
    /// invariants must hold.
    @Test(arguments: [(UInt64(1), true, false), (2, false, false), (3, true, true), (4, false, true), (5, true, false), (6, false, true)])
    func matchesTheReference(seed: UInt64, consume: Bool, loopsQueue: Bool) throws {
        var generator = SplitMix64(seed: seed)
        let clock = ManualClock()
        var player = try QueuePlayer(
            settings: QueueSettings(consume: consume, loopMode: loopsQueue ? .queue : .off),
            configuration: QueueConfiguration(preloadCount: 2, historyLimit: 12), clock: clock)
        var model = ReferenceQueue(consume: consume, loopsQueue: loopsQueue, historyLimit: 12)
        var freshNumber = 0
        var accepted = 0

        func someName() -> String {
            let pool = model.order + model.history + ["nowhere"]
            return pool.randomElement(using: &generator) ?? "nowhere"
        }
        func someItem() -> PlayerItem {
            if Int.random(in: 0..<3, using: &generator) == 0, let entry = player.history.randomElement(using: &generator) {
                return entry.item
            }
            if Int.random(in: 0..<4, using: &generator) == 0, let queued = player.items.randomElement(using: &generator) {
                return queued
            }
            freshNumber += 1
            return item("n\(freshNumber)")
        }
        func someIndex() -> Int {
            Int.random(in: -1...(model.order.count + 1), using: &generator)
        }

        for step in 0..<2500 {
            let roll = Int.random(in: 0..<100, using: &generator)
            if roll < 6 {
                let name = someName()
                let failure = ItemFailure(domain: "test", code: step, message: "failed at step \(step)")
                let expected = model.fail(name)
                do {
                    _ = try player.report(.failed(failure), for: ItemID(name))
                    #expect(expected == nil, "step \(step): fail \(name) accepted, model says \(String(describing: expected))")
                } catch {
                    #expect(error.reason == expected, "step \(step): fail \(name)")
                }
            } else {
                let command: QueueCommand
                switch roll {
                case 6..<26: command = .insert(someItem(), after: Bool.random(using: &generator) ? nil : ItemID(someName()))
                case 26..<34: command = .insertAt(someItem(), index: someIndex())
                case 34..<44: command = .remove(ItemID(someName()))
                case 44..<54: command = .move(ItemID(someName()), after: Bool.random(using: &generator) ? nil : ItemID(someName()))
                case 54..<62: command = .moveTo(ItemID(someName()), index: someIndex())
                case 62..<72: command = .advanceToNextItem
                case 72..<80: command = .previous
                case 80..<90: command = .jump(to: ItemID(someName()))
                case 90..<94: command = .shuffle(seed: generator.next())
                case 94..<96: command = .setConsume(!model.consume)
                case 96..<97: command = .removeAll
                default: command = .setConsume(model.consume)
                }
                let predicted = player.validate(command)?.reason
                let expected = model.apply(command)
                do {
                    _ = try player.apply(command)
                    accepted += 1
                    #expect(expected == nil, "step \(step): \(command) accepted, model refused with \(String(describing: expected))")
                    #expect(predicted == nil, "step \(step): validate predicted \(String(describing: predicted))")
                } catch {
                    #expect(error.reason == expected, "step \(step): \(command)")
                    #expect(predicted == error.reason, "step \(step): validate disagrees")
                }
            }
            #expect(player.checkInvariants(), "step \(step)")
            #expect(player.items.map(\.id.rawValue) == model.order, "step \(step)")
            #expect(player.currentItemID?.rawValue == model.current, "step \(step)")
            #expect(player.history.map(\.item.id.rawValue) == model.history, "step \(step)")
            if player.items.map(\.id.rawValue) != model.order || player.currentItemID?.rawValue != model.current { break }
        }
        #expect(accepted > 1000, "the sequence exercises mostly accepted commands")
    }
}
