import Engine
import Synchronization

/// The server-sent events messages of `/api/events`, as bytes.
///
/// An engine event is `id: <sequence>`, `event: <type>`, `data: <one-line JSON>` and a blank
/// line. The JSON writer escapes line breaks, so the data is always one line. Every data
/// object has `queueId`, and `itemId` where the event is about one item (docs/API.md lists
/// each type's members).
enum EventMessage {
    /// Sent first on every stream: how long a client waits before reconnecting.
    static let retry = Array("retry: 1000\n\n".utf8)
    /// A comment line that keeps idle connections alive and reveals clients that left.
    static let heartbeat = Array(": heartbeat\n\n".utf8)

    /// The message for an engine event.
    static func bytes(for event: EngineEvent) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256)
        writeData(of: event, to: &json)
        var message: [UInt8] = []
        message.reserveCapacity(json.bytes.count + 64)
        message.append(contentsOf: "id: \(event.id.rawValue)\nevent: \(event.name)\ndata: ".utf8)
        message.append(contentsOf: json.bytes)
        message.append(contentsOf: "\n\n".utf8)
        return message
    }

    /// `event: resync` with the reason. Its `id` is the last event before the stream's live
    /// events, so a client that reconnects later resumes from there, not from the id that was
    /// too old.
    static func resync(reason: String, lastEventID: EventID) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.member("reason", reason)
        json.endObject()
        return Array("id: \(lastEventID.rawValue)\nevent: resync\ndata: ".utf8) + json.bytes + Array("\n\n".utf8)
    }

    static func writeData(of event: EngineEvent, to json: inout JSONWriter) {
        let queueID = event.queueID.description
        switch event.payload {
        case .queueCreated(let state), .queueUpdated(let state):
            json.queueSnapshot(state, eventQueueID: true)
            return
        default:
            break
        }
        json.beginObject()
        json.member("queueId", queueID)
        switch event.payload {
        case .queueCreated, .queueUpdated, .queueDeleted:
            break
        case .itemUpdated(let state):
            json.member("itemId", state.id.rawValue)
            json.key("item")
            json.itemSummary(state)
        case .currentItemChanged(let itemID, let previousItemID):
            json.member("itemId", itemID?.rawValue)
            json.member("previousItemId", previousItemID?.rawValue)
        case .timeControlStatusChanged(let status), .rateChanged(let status):
            json.playbackStatus(status)
        case .timeJumped(let itemID, let from, let to):
            json.member("itemId", itemID.rawValue)
            json.member("from", seconds: from)
            json.member("to", seconds: to)
        case .seekCompleted(let seekID, let finished):
            json.key("seekId")
            json.integer(seekID.rawValue)
            json.member("finished", finished)
        case .didPlayToEndTime(let itemID), .playbackStalled(let itemID):
            json.member("itemId", itemID.rawValue)
        case .failedToPlayToEndTime(let itemID, let error):
            json.member("itemId", itemID.rawValue)
            json.key("error")
            json.failure(error)
        case .newAccessLogEntry(let itemID, let entry):
            json.member("itemId", itemID.rawValue)
            json.key("entry")
            json.accessLogEntry(entry, cacheHits: nil)
        case .newErrorLogEntry(let itemID, let entry):
            json.member("itemId", itemID.rawValue)
            json.key("entry")
            json.errorLogEntry(entry)
        case .liveStatus(let itemID, let live):
            json.member("itemId", itemID.rawValue)
            json.key("live")
            json.live(live)
        case .liveHealth(let itemID, let check, let isFailing, let message):
            json.member("itemId", itemID.rawValue)
            json.member("check", check)
            json.member("state", isFailing ? "failing" : "recovered")
            json.member("message", message)
        }
        json.endObject()
    }
}

/// The encoded messages of recent events, shared by every stream: an event that a thousand
/// clients receive is encoded once, not a thousand times.
final class EventMessageCache: Sendable {
    private struct State {
        var messages: [Int64: [UInt8]] = [:]
        /// Keys in insertion order, oldest first, to evict.
        var order: [Int64] = []
        var orderStart = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 512) {
        self.capacity = max(1, capacity)
    }

    func message(for event: EngineEvent) -> [UInt8] {
        let id = event.id.rawValue
        if let cached = state.withLock({ $0.messages[id] }) { return cached }
        // Encoded outside the lock: a few streams may encode the same event at once, which
        // costs less than making every stream wait for one.
        let message = EventMessage.bytes(for: event)
        state.withLock { state in
            guard state.messages[id] == nil else { return }
            state.messages[id] = message
            state.order.append(id)
            while state.order.count - state.orderStart > capacity {
                state.messages[state.order[state.orderStart]] = nil
                state.orderStart += 1
            }
            if state.orderStart >= capacity {
                state.order.removeFirst(state.orderStart)
                state.orderStart = 0
            }
        }
        return message
    }
}
