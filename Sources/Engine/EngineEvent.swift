import Foundation
import MediaTime
import QueueCore

/// One event the Engine published, with its global sequence number.
///
/// ``name`` is the server-sent event's `event:` field, and the payload matches the API
/// contract's list: every event concerns one queue (``queueID``) and, where it applies, one
/// item.
public struct EngineEvent: Sendable {
    public let id: EventID
    public let queueID: QueueID
    public let payload: Payload

    public enum Payload: Sendable {
        /// A queue was created: its snapshot.
        case queueCreated(QueueState)
        /// Anything about a queue changed: settings, items, order, current item, rate or
        /// status. One per transition, after the transition's other events.
        case queueUpdated(QueueState)
        case queueDeleted
        /// An item's status, ranges or buffer flags changed; at most about four per second
        /// per item (see ``EngineConfiguration/itemUpdateInterval``).
        case itemUpdated(ItemState)
        case currentItemChanged(itemID: ItemID?, previousItemID: ItemID?)
        case timeControlStatusChanged(PlaybackStatus)
        case rateChanged(PlaybackStatus)
        /// The playhead moved other than by playing: a seek, a loop restart, a live window
        /// that slid past it.
        case timeJumped(itemID: ItemID, from: MediaTime, to: MediaTime)
        case seekCompleted(seekID: SeekID, finished: Bool)
        case didPlayToEndTime(itemID: ItemID)
        case failedToPlayToEndTime(itemID: ItemID, error: ItemFailure)
        case playbackStalled(itemID: ItemID)
        case newAccessLogEntry(itemID: ItemID, entry: AccessLogEvent)
        case newErrorLogEntry(itemID: ItemID, entry: ErrorLogEvent)
        /// A live item reloaded its playlist.
        case liveStatus(itemID: ItemID, live: LiveState)
        /// A live health check started failing (`isFailing`) or recovered.
        case liveHealth(itemID: ItemID, check: String, isFailing: Bool, message: String)
    }

    /// The contract's event type: `queueUpdated`, `itemUpdated`, …
    public var name: String {
        switch payload {
        case .queueCreated: "queueCreated"
        case .queueUpdated: "queueUpdated"
        case .queueDeleted: "queueDeleted"
        case .itemUpdated: "itemUpdated"
        case .currentItemChanged: "currentItemChanged"
        case .timeControlStatusChanged: "timeControlStatusChanged"
        case .rateChanged: "rateChanged"
        case .timeJumped: "timeJumped"
        case .seekCompleted: "seekCompleted"
        case .didPlayToEndTime: "didPlayToEndTime"
        case .failedToPlayToEndTime: "failedToPlayToEndTime"
        case .playbackStalled: "playbackStalled"
        case .newAccessLogEntry: "newAccessLogEntry"
        case .newErrorLogEntry: "newErrorLogEntry"
        case .liveStatus: "liveStatus"
        case .liveHealth: "liveHealth"
        }
    }

    /// How much the event holds, in items: the ring buffer bounds the total, so that
    /// snapshots of long queues cannot fill the memory.
    var weight: Int {
        switch payload {
        case .queueCreated(let state), .queueUpdated(let state): 1 + state.items.count + state.history.count
        default: 1
        }
    }
}

/// What a subscription delivers.
public enum EventDelivery: Sendable {
    case event(EngineEvent)
    /// The events after the subscriber's `Last-Event-ID` are no longer all in the ring
    /// buffer (or the id is from before a restart): the client must refetch its snapshots.
    /// Always the first delivery when it comes.
    case resync(reason: String)
    /// The subscriber fell too far behind and was dropped so as never to hold up the Engine;
    /// the stream ends after this. A client reconnects with its last event id.
    case dropped
}
