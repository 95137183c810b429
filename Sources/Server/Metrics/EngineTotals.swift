import Engine
import Synchronization

/// Monotonic totals of what the items' access logs count, for the `_total` counters of
/// `/metrics`.
///
/// An item's access log holds its own totals, but items leave (removed, deleted with their
/// queue) and a log keeps only its latest entries, so a plain sum over the items present
/// would go down. Here each scrape adds what every item's sums grew by since the previous
/// scrape, and what left is kept: the totals only rise. Transfers an item made between the
/// last scrape and its removal are not counted.
final class EngineTotals: Sendable {
    struct Sums: Sendable, Equatable {
        var bytes: Int64 = 0
        var stalls: Int = 0
    }

    private struct State {
        var lastSeen: [String: Sums] = [:]
        var totals = Sums()
    }

    private let state = Mutex(State())

    /// Adds the growth of `current` (the sums of each item present now, by a key unique
    /// across queues) and returns the totals.
    func update(with current: [String: Sums]) -> Sums {
        state.withLock { state in
            for (key, sums) in current {
                let previous = state.lastSeen[key] ?? Sums()
                state.totals.bytes += max(0, sums.bytes - previous.bytes)
                state.totals.stalls += max(0, sums.stalls - previous.stalls)
            }
            state.lastSeen = current
            return state.totals
        }
    }

    /// The sums of an item's access log.
    static func sums(of item: ItemState) -> Sums {
        item.item.accessLog.reduce(into: Sums()) { sums, entry in
            sums.bytes += entry.numberOfBytesTransferred
            sums.stalls += entry.numberOfStalls
        }
    }
}
