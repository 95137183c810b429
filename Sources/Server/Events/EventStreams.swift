import Engine
import MicroHTTPD
import Synchronization

/// The open `/api/events` streams: each one follows an ``EventHub`` subscription and writes
/// its messages to the client's ``StreamingBody``.
///
/// ## One stream
/// A stream starts with `retry: 1000`. When the client resumes (`Last-Event-ID`), the hub
/// replays the kept events after that id, or the stream's first event is `resync` when some
/// are gone. Then live events follow, in order, each exactly once (the hub serializes
/// subscribing with publishing). A task per stream moves deliveries from the subscription to
/// the body; the message bytes come from a cache shared by all streams.
///
/// ## Slow and departed clients
/// Nothing here ever waits for a client. A client that does not read lets its body's buffer
/// grow to ``Configuration/bufferLimit``, then its connection is closed; a client whose
/// subscription falls ``EventHub/Configuration/subscriberBufferSize`` events behind is
/// dropped by the hub. Either way the client reconnects with its last id and resumes. A
/// client that left is noticed at the next write, which the heartbeat (a comment line every
/// ``Configuration/heartbeatInterval``) guarantees.
///
/// ## Invariant
/// A stream is in ``count`` from the moment it is opened until its body ends; ending the body
/// (any termination) cancels its task, which ends its subscription.
final class EventStreams: Sendable {
    struct Configuration: Sendable {
        var heartbeatInterval: Duration = .seconds(15)
        /// The most bytes waiting for one client before it is cut off.
        var bufferLimit: Int = 1 << 20
    }

    private struct Open {
        let body: StreamingBody
        var task: Task<Void, Never>?
    }

    private let hub: EventHub
    private let configuration: Configuration
    private let messages = EventMessageCache()
    private let open = Mutex<(streams: [Int: Open], nextKey: Int)>(([:], 0))
    private let heartbeat = Mutex<Task<Void, Never>?>(nil)

    init(hub: EventHub, configuration: Configuration) {
        self.hub = hub
        self.configuration = configuration
        let interval = configuration.heartbeatInterval
        heartbeat.withLock { task in
            task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    self.writeHeartbeats()
                }
            }
        }
    }

    deinit {
        heartbeat.withLock { $0?.cancel() }
    }

    /// The streams open now.
    var count: Int {
        open.withLock { $0.streams.count }
    }

    /// Opens a stream of the events of `queue` (all queues when nil), resuming after `after`
    /// when given, and returns the response that carries it.
    func openStream(queue: QueueID?, after: EventID?) -> HTTPResponse {
        let body = StreamingBody(bufferLimit: configuration.bufferLimit)
        body.write(EventMessage.retry)
        let key = open.withLock { state in
            defer { state.nextKey += 1 }
            state.streams[state.nextKey] = Open(body: body)
            return state.nextKey
        }
        // Read before subscribing: live events start after this id or later, so a resync
        // that names it never makes a reconnecting client skip an event.
        let lastBeforeSubscribing = hub.lastEventID
        let deliveries = hub.subscribe(queue: queue, after: after)
        let messages = messages
        let task = Task {
            for await delivery in deliveries {
                let bytes: [UInt8]
                switch delivery {
                case .event(let event):
                    bytes = messages.message(for: event)
                case .resync(let reason):
                    bytes = EventMessage.resync(reason: reason, lastEventID: lastBeforeSubscribing)
                case .dropped:
                    body.finish()
                    return
                }
                if case .terminated = body.write(bytes) { return }
            }
            // The hub closed (the engine shut down): the stream is complete.
            body.finish()
        }
        open.withLock { $0.streams[key]?.task = task }
        body.onTermination { [weak self] _ in
            let ended = self?.open.withLock { $0.streams.removeValue(forKey: key) }
            (ended?.task ?? task).cancel()
        }
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                // Proxies such as nginx must pass each event on at once.
                "X-Accel-Buffering": "no",
            ],
            body: .stream(body))
    }

    /// Writes a heartbeat to every open stream.
    func writeHeartbeats() {
        let bodies = open.withLock { $0.streams.values.map(\.body) }
        for body in bodies { body.write(EventMessage.heartbeat) }
    }
}
