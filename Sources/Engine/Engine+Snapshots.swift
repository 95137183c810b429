import Foundation
import MediaTime
import QueueCore

// The values the API returns, built from a queue's present state.

extension Engine {
    /// The queue's snapshot, listing at most `itemLimit` items. `lastEventID` is the last
    /// event it includes: the last one published, or the event about to carry it.
    func queueState(_ id: QueueID, itemLimit: Int = .max, lastEventID: EventID? = nil) -> QueueState? {
        guard let queue = running[id] else { return nil }
        let player = queue.player
        let policy = player.configuration.bufferPolicy
        let items = itemLimit >= player.count ? player.items : player.items(from: 0, limit: itemLimit)
        return QueueState(
            id: id, name: queue.name, settings: player.settings, rate: player.rate,
            timeControlStatus: player.timeControlStatus, reasonForWaitingToPlay: player.reasonForWaitingToPlay,
            currentItemID: player.currentItemID, currentIndex: player.currentIndex, currentTime: player.currentTime,
            serverTime: clock.wallClockNow(),
            items: items.map { Self.itemState($0, side: queue.sides[$0.id], policy: policy) }, itemCount: player.count,
            history: player.history.map { Self.itemState($0.item, side: nil, policy: policy) },
            lastEventID: lastEventID ?? events.lastEventID)
    }

    func queueSummary(_ id: QueueID) -> QueueSummary? {
        guard let queue = running[id] else { return nil }
        return QueueSummary(
            id: id, name: queue.name, itemCount: queue.player.count, currentItemID: queue.player.currentItemID,
            timeControlStatus: queue.player.timeControlStatus, rate: queue.player.rate)
    }

    /// The item `item` of queue `id`'s list, else its most recent history entry.
    func itemState(_ item: ItemID, in id: QueueID) -> ItemState? {
        guard let queue = running[id] else { return nil }
        let policy = queue.player.configuration.bufferPolicy
        if let listed = queue.player.item(item) {
            return Self.itemState(listed, side: queue.sides[item], policy: policy)
        }
        return queue.player.history.last { $0.item.id == item }.map { Self.itemState($0.item, side: nil, policy: policy) }
    }

    static func itemState(_ item: PlayerItem, side: ItemSide?, policy: BufferPolicy) -> ItemState {
        let live = side?.live.map { status in
            LiveState(
                status: status, latency: status.liveEdge.distance(from: item.currentTime),
                health: (side?.health.values).map { $0.sorted { $0.since < $1.since } } ?? [])
        }
        return ItemState(
            item: item, buffer: item.bufferStatus(policy: policy), currentVariantURI: side?.variantURI, live: live,
            cacheHits: side?.cacheHits ?? [])
    }
}

extension MediaTime {
    /// `self − earlier`, rounded to the nanosecond when the exact difference does not fit.
    func distance(from earlier: MediaTime) -> MediaTime {
        let exact = self - earlier
        if exact.isValid { return exact }
        guard let end = seconds, let start = earlier.seconds else { return exact }
        return MediaTime(seconds: end - start)
    }
}
