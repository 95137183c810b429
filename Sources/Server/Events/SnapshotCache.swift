import Engine
import MicroHTTPD
import Synchronization

/// The encoded JSON of each queue's latest snapshot, as bytes that answers share without a
/// copy, so that `GET /api/queues/{id}` is a
/// dictionary lookup while nothing happens, instead of a trip through the Engine's actor and
/// a fresh encoding.
///
/// ## Why an entry is never stale
/// The Engine publishes an event for every change to a queue, from inside its actor, and a
/// snapshot records the last event id published before it was taken
/// (``QueueState/lastEventID``). So while the hub's ``EventHub/lastEventID`` still equals an
/// entry's id, no event has happened since the snapshot, and the queue is as the snapshot
/// says, except for the playhead, which the snapshot's `serverTime` lets a client
/// extrapolate. The check is global (any event anywhere empties the cache's usefulness until
/// the next fill), which keeps it exact without tracking queues separately; an idle server,
/// or one busy with a single queue, still answers most reads from here.
///
/// An entry filled from an older snapshot never replaces a newer one.
final class SnapshotCache: Sendable {
    private struct Entry {
        let lastEventID: EventID
        let json: SharedBytes
    }

    private let hub: EventHub
    private let entries = Mutex<[QueueID: Entry]>([:])

    init(hub: EventHub) {
        self.hub = hub
    }

    /// The cached JSON of `queue`, when no event happened since it was encoded.
    func json(for queue: QueueID) -> SharedBytes? {
        let current = hub.lastEventID
        return entries.withLock { entries in
            guard let entry = entries[queue], entry.lastEventID == current else { return nil }
            return entry.json
        }
    }

    /// Keeps `json`, the encoding of a snapshot of `queue` taken at `lastEventID`.
    func store(_ json: SharedBytes, for queue: QueueID, at lastEventID: EventID) {
        entries.withLock { entries in
            if let existing = entries[queue], existing.lastEventID > lastEventID { return }
            entries[queue] = Entry(lastEventID: lastEventID, json: json)
        }
    }

    /// Forgets a queue (deleted).
    func remove(_ queue: QueueID) {
        _ = entries.withLock { $0.removeValue(forKey: queue) }
    }
}
