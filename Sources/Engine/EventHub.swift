import Synchronization

/// Numbers the Engine's events, keeps the recent ones for clients that reconnect, and hands
/// them to subscribers without ever waiting for one.
///
/// ## Numbering
/// Each published event gets the next sequence number. Numbers keep rising across restarts:
/// the Engine starts the hub above every number a previous run could have used (it
/// reserves blocks of numbers in the Store's journal), so an id from before a restart is
/// never mistaken for a new event.
///
/// ## The ring buffer
/// The most recent events stay in a ring buffer bounded by ``Configuration/ringCapacity``
/// events and by ``Configuration/ringWeightLimit`` items (a queue snapshot weighs one plus
/// its items), whichever is reached first. A client that reconnects with the id of the last
/// event it saw gets every later event from the ring (``replay(after:queue:)``,
/// ``subscribe(queue:after:)``), or ``EventDelivery/resync(reason:)`` when some of them
/// have left it, or when the id is from before a restart.
///
/// ## Subscribers
/// A subscriber gets the events of one queue or of all, in order, through an `AsyncStream`
/// with a bounded buffer of ``Configuration/subscriberBufferSize`` events. Publishing never
/// waits: a subscriber whose buffer fills up is dropped (its stream delivers
/// ``EventDelivery/dropped`` and ends), and it can reconnect from its last id.
///
/// ## Invariants
/// - the ring holds consecutive ids ending at ``lastEventID``;
/// - its count and weight stay within the configured bounds (the newest event is always kept);
/// - subscribing and publishing are serialized, so a subscriber that resumes after an id
///   gets every later event exactly once.
///
/// The state is behind a `Mutex`: the Engine publishes from its actor, and subscribers
/// (server handlers) subscribe from anywhere.
public final class EventHub: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// The most events the ring buffer keeps.
        public var ringCapacity: Int
        /// The most items the ring's events may hold in all.
        public var ringWeightLimit: Int
        /// The most events a subscriber may leave unread before it is dropped.
        public var subscriberBufferSize: Int

        public init(ringCapacity: Int = 4096, ringWeightLimit: Int = 200_000, subscriberBufferSize: Int = 1024) {
            self.ringCapacity = max(1, ringCapacity)
            self.ringWeightLimit = max(1, ringWeightLimit)
            self.subscriberBufferSize = max(1, subscriberBufferSize)
        }
    }

    /// The answer to ``replay(after:queue:)``.
    public enum Replay: Sendable {
        /// The events after the id, oldest first (empty when there are none).
        case events([EngineEvent])
        /// Some events after the id are gone: refetch the snapshots.
        case resync(reason: String)
    }

    private struct Subscriber {
        let queue: QueueID?
        let continuation: AsyncStream<EventDelivery>.Continuation
    }

    private struct State {
        var nextID: Int64
        /// The ring: `ring[ringStart...]` are the kept events, oldest first.
        var ring: [EngineEvent] = []
        var ringStart = 0
        var weight = 0
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var isClosed = false
        var publishedCount = 0
        var droppedSubscriberCount = 0

        var kept: ArraySlice<EngineEvent> { ring[ringStart...] }
    }

    public let configuration: Configuration
    private let state: Mutex<State>

    /// A hub whose first event will be `firstID`.
    public init(firstID: EventID = EventID(1), configuration: Configuration = Configuration()) {
        self.configuration = configuration
        state = Mutex(State(nextID: firstID.rawValue))
    }

    /// The last id handed out; one below the first id before any event.
    public var lastEventID: EventID {
        state.withLock { EventID($0.nextID - 1) }
    }

    /// The number of subscribers connected now.
    public var subscriberCount: Int {
        state.withLock { $0.subscribers.count }
    }

    /// Events published since the hub started.
    public var publishedCount: Int {
        state.withLock { $0.publishedCount }
    }

    /// Subscribers dropped for falling behind since the hub started.
    public var droppedSubscriberCount: Int {
        state.withLock { $0.droppedSubscriberCount }
    }

    /// Numbers and publishes events about `queue`, in order; returns them.
    @discardableResult
    func publish(_ payloads: [EngineEvent.Payload], about queue: QueueID) -> [EngineEvent] {
        guard !payloads.isEmpty else { return [] }
        let (published, ended) = state.withLock { state in
            var published: [EngineEvent] = []
            var ended: [AsyncStream<EventDelivery>.Continuation] = []
            published.reserveCapacity(payloads.count)
            for payload in payloads {
                let event = EngineEvent(id: EventID(state.nextID), queueID: queue, payload: payload)
                state.nextID += 1
                state.publishedCount += 1
                append(event, to: &state)
                deliver(event, in: &state, ended: &ended)
                published.append(event)
            }
            return (published, ended)
        }
        // Finishing runs the stream's termination handler, which takes the lock: outside it.
        for continuation in ended { continuation.finish() }
        return published
    }

    /// The events after `id` (those of `queue` only, when given), or a resync when some are
    /// gone.
    public func replay(after id: EventID, queue: QueueID? = nil) -> Replay {
        state.withLock { Self.replay(after: id, queue: queue, in: $0) }
    }

    /// Subscribes to the events of `queue` (all queues when nil). With `after`, the stream
    /// first delivers every kept event after that id, or a resync when some are gone; then
    /// live events. Ending the iteration unsubscribes.
    public func subscribe(queue: QueueID? = nil, after id: EventID? = nil) -> AsyncStream<EventDelivery> {
        state.withLock { state in
            let replay = id.map { Self.replay(after: $0, queue: queue, in: state) } ?? .events([])
            let missed: [EngineEvent]
            if case .events(let events) = replay { missed = events } else { missed = [] }
            // Room for the missed events, the live buffer, and the final `dropped`.
            let capacity = configuration.subscriberBufferSize + missed.count + 1
            let (stream, continuation) = AsyncStream<EventDelivery>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
            if case .resync(let reason) = replay { continuation.yield(.resync(reason: reason)) }
            for event in missed { continuation.yield(.event(event)) }
            if state.isClosed {
                continuation.finish()
                return stream
            }
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = Subscriber(queue: queue, continuation: continuation)
            continuation.onTermination = { [weak self] _ in
                self?.removeSubscriber(key)
            }
            return stream
        }
    }

    /// Ends every subscription; later subscriptions get only what the ring holds. The
    /// Engine calls it when it shuts down.
    func close() {
        let continuations = state.withLock { state -> [AsyncStream<EventDelivery>.Continuation] in
            state.isClosed = true
            defer { state.subscribers = [:] }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// Whether the ring's invariants hold: consecutive ids ending at the last id, within
    /// the bounds.
    func checkInvariants() -> Bool {
        state.withLock { state in
            let kept = state.kept
            guard zip(kept, kept.dropFirst()).allSatisfy({ $0.id.rawValue + 1 == $1.id.rawValue }),
                  kept.last.map({ $0.id.rawValue == state.nextID - 1 }) ?? true,
                  kept.reduce(0, { $0 + $1.weight }) == state.weight,
                  kept.count <= configuration.ringCapacity,
                  kept.count == 1 || state.weight <= configuration.ringWeightLimit
            else { return false }
            return true
        }
    }

    // MARK: - Under the lock

    private func append(_ event: EngineEvent, to state: inout State) {
        state.ring.append(event)
        state.weight += event.weight
        while state.ring.count - state.ringStart > 1,
              state.ring.count - state.ringStart > configuration.ringCapacity || state.weight > configuration.ringWeightLimit {
            state.weight -= state.ring[state.ringStart].weight
            state.ringStart += 1
        }
        // Compact now and then, so that dropping from the front stays O(1) amortized.
        if state.ringStart >= max(64, state.ring.count / 2) {
            state.ring.removeFirst(state.ringStart)
            state.ringStart = 0
        }
    }

    /// Hands `event` to the subscribers that want it; those to be ended are removed and
    /// collected in `ended`, for the caller to finish outside the lock.
    private func deliver(
        _ event: EngineEvent, in state: inout State, ended: inout [AsyncStream<EventDelivery>.Continuation]
    ) {
        for (key, subscriber) in state.subscribers where subscriber.queue == nil || subscriber.queue == event.queueID {
            switch subscriber.continuation.yield(.event(event)) {
            case .enqueued(let remaining) where remaining <= 1:
                // One slot is left: say why the stream ends, and let the client reconnect.
                subscriber.continuation.yield(.dropped)
                state.subscribers[key] = nil
                state.droppedSubscriberCount += 1
                ended.append(subscriber.continuation)
            case .enqueued:
                break
            case .dropped, .terminated:
                state.subscribers[key] = nil
                ended.append(subscriber.continuation)
            @unknown default:
                break
            }
        }
    }

    private static func replay(after id: EventID, queue: QueueID?, in state: State) -> Replay {
        let last = state.nextID - 1
        if id.rawValue == last { return .events([]) }
        if id.rawValue > last {
            return .resync(reason: "event \(id) is newer than the last event \(last): the server restarted")
        }
        let kept = state.kept
        let oldest = kept.first?.id.rawValue ?? state.nextID
        guard id.rawValue >= oldest - 1 else {
            return .resync(reason: "the events after \(id) are no longer kept (the oldest kept is \(oldest))")
        }
        let start = kept.startIndex + Int(id.rawValue + 1 - oldest)
        let events = kept[start...].filter { queue == nil || $0.queueID == queue }
        return .events(events)
    }

    private func removeSubscriber(_ key: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
    }
}
