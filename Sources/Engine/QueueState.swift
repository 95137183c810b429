import Foundation
import MediaTime
import QueueCore

/// A queue as the API shows it: settings, playback status, the list and the history, at one
/// instant of the Engine's clock.
///
/// `lastEventID` is the last event the snapshot includes (for the snapshot a `queueUpdated`
/// event carries, that event itself): a client that subscribes to events after it
/// (``EventHub/subscribe(queue:after:)``) misses nothing and sees nothing twice.
public struct QueueState: Sendable {
    public let id: QueueID
    public let name: String
    public let settings: QueueSettings
    /// The requested rate: 0 is paused.
    public let rate: Double
    public let timeControlStatus: TimeControlStatus
    public let reasonForWaitingToPlay: WaitingReason?
    public let currentItemID: ItemID?
    public let currentIndex: Int?
    /// The current item's time (plus the time played past its end under
    /// `actionAtItemEnd == .none`); zero without a current item.
    public let currentTime: MediaTime
    /// When the snapshot was taken, for extrapolating the playhead:
    /// `currentTime + rate × (now − serverTime)` while playing.
    public let serverTime: WallClockDate
    /// The list in order (with consume on: the current item, then the upcoming ones). The
    /// snapshot of an event, or of a mutation's answer, lists only the first items of a long
    /// queue (see ``itemCount``).
    public let items: [ItemState]
    /// How many entries the list has: more than ``items`` holds only in the snapshot of an
    /// event or of a mutation's answer about a queue longer than
    /// ``EngineConfiguration/eventItemLimit``.
    public let itemCount: Int
    /// Passed entries, most recent last.
    public let history: [ItemState]
    public let lastEventID: EventID
}

/// A queue in the list of queues.
public struct QueueSummary: Sendable, Hashable {
    public let id: QueueID
    public let name: String
    public let itemCount: Int
    public let currentItemID: ItemID?
    public let timeControlStatus: TimeControlStatus
    public let rate: Double
}

/// Everything known about one item: the queue core's ``PlayerItem`` (identity, status,
/// times, ranges, preferences, loop, media information, logs) plus what the Engine adds:
/// its buffer flags, the variant playing, live figures and cache hits.
///
/// The Server shows the summary fields in queue snapshots and all of them for one item.
///
/// An immutable object: snapshots and events share one instance per version of an item, so
/// that a snapshot of a long queue costs a reference per item, not a copy of each.
public final class ItemState: Sendable {
    public let item: PlayerItem
    /// The buffer flags at the item's playhead.
    public let buffer: BufferStatus
    /// The URI of the variant playing (HLS), as the loader last reported it.
    public let currentVariantURI: String?
    /// Live figures; nil for items that are not live or have not reported any yet.
    public let live: LiveState?
    /// Cache hits per access-log entry, parallel to the end of `item.accessLog`.
    let cacheHits: [Int]

    init(item: PlayerItem, buffer: BufferStatus, currentVariantURI: String?, live: LiveState?, cacheHits: [Int]) {
        self.item = item
        self.buffer = buffer
        self.currentVariantURI = currentVariantURI
        self.live = live
        self.cacheHits = cacheHits
    }

    public var id: ItemID { item.id }

    /// The access log with the loader's cache hits beside each entry, oldest first.
    public var accessLog: [AccessLogRecord] {
        item.accessLog.enumerated().map { index, event in
            let offset = cacheHits.count - item.accessLog.count + index
            return AccessLogRecord(event: event, numberOfCacheHits: offset >= 0 ? cacheHits[offset] : 0)
        }
    }
}

/// One access-log entry: the queue core's playback period and the loader's cache hits in it.
public struct AccessLogRecord: Sendable, Hashable {
    public let event: AccessLogEvent
    public let numberOfCacheHits: Int
}

/// The live figures of an item: the loader's last ``LiveStatus``, the playback latency,
/// and the health checks failing now.
public struct LiveState: Sendable, Hashable {
    public let status: LiveStatus
    /// The live edge minus the item's playhead.
    public let latency: MediaTime
    /// The checks failing now, oldest first.
    public let health: [LiveHealthRecord]
}

/// A live health check that is failing, since when, and why.
public struct LiveHealthRecord: Sendable, Hashable {
    public let check: String
    public let since: Date
    public let message: String
}

/// The playback status that `timeControlStatusChanged` and `rateChanged` events carry.
public struct PlaybackStatus: Sendable, Hashable {
    public let timeControlStatus: TimeControlStatus
    public let reasonForWaitingToPlay: WaitingReason?
    public let rate: Double
    public let currentTime: MediaTime
}
