import Foundation
import QueueCore

/// Figures for `/metrics`, as of one instant.
public struct EngineMetrics: Sendable, Hashable {
    public let queueCount: Int
    /// Items in the queues' lists by status: `unknown`, `loading`, `readyToPlay`, `failed`.
    public let itemsByStatus: [String: Int]
    /// Stalls since the Engine started.
    public let stallsTotal: Int
    /// Bytes the loaders received over the network since the Engine started.
    public let bytesTransferredTotal: Int64
    /// One entry per live item that reported its status.
    public let liveItems: [LiveItemMetrics]
    /// Events published since the Engine started.
    public let eventsTotal: Int
    /// Event subscribers connected now.
    public let subscriberCount: Int
}

/// The live figures `/metrics` shows per item.
public struct LiveItemMetrics: Sendable, Hashable {
    public let queueID: QueueID
    public let itemID: ItemID
    public let playlistAge: Duration
    public let isStale: Bool
}

extension Engine {
    /// The figures for `/metrics`. Counting items by status visits every item: O(n).
    public func metrics() -> EngineMetrics {
        var statuses = ["unknown": 0, "loading": 0, "readyToPlay": 0, "failed": 0]
        var live: [LiveItemMetrics] = []
        for id in running.keys.sorted() {
            guard let queue = running[id] else { continue }
            for itemID in queue.player.itemIDs() {
                guard let status = queue.player.item(itemID)?.status else { continue }
                let key = switch status {
                case .unknown: "unknown"
                case .loading: "loading"
                case .readyToPlay: "readyToPlay"
                case .failed: "failed"
                }
                statuses[key, default: 0] += 1
            }
            for (itemID, side) in queue.sides.sorted(by: { $0.key < $1.key }) {
                guard let status = side.live else { continue }
                live.append(LiveItemMetrics(queueID: id, itemID: itemID, playlistAge: status.playlistAge, isStale: status.isStale))
            }
        }
        return EngineMetrics(
            queueCount: running.count, itemsByStatus: statuses, stallsTotal: stallCount,
            bytesTransferredTotal: bytesTransferred, liveItems: live, eventsTotal: events.publishedCount,
            subscriberCount: events.subscriberCount)
    }
}
