import Foundation
import Loader
import MediaTime
import QueueCore
import Store

/// The running player: it owns every queue, persists every change, drives the loaders and
/// the clock, and publishes what happens.
///
/// ## Ownership
/// The Engine is an actor. It owns one ``QueuePlayer`` per queue, the SQLite ``Store``
/// (confined to the actor and called synchronously: no suspension point between deciding
/// and writing), the loader sessions and the timer. Nothing else mutates queue state:
/// loaders run on their own tasks and hand their reports to the actor.
///
/// ## Mutations: validate → persist → apply → publish
/// Every request that changes something (``commit``):
/// 1. brings the queue up to the clock's present (``QueuePlayer/tick()``), and writes what
///    earlier transitions still owe the Store (if that fails, the request is refused and
///    nothing of it is applied);
/// 2. **validates** the request against that state; a refusal changes nothing and throws an
///    ``EngineError`` with the contract's code;
/// 3. **persists and applies** in one SQLite transaction, which first takes the write lock:
///    an add writes its rows (the Store gives the ids), the commands are applied to the
///    player, and exactly the edits they produced are written (``StorePlan``); then it
///    commits. Most write failures (the lock is held, the file is read-only) happen as the
///    transaction begins, before anything is applied. If a write fails after the commands
///    ran (an I/O error, a full disk), the transaction rolls back and the queue is rebuilt
///    from the database — which holds the state from before the request — keeping the
///    playhead and rate it had; only what the loaders had learned is learned again;
/// 4. **publishes** the events and carries out the effects (start and stop loaders).
///
/// So an acknowledged mutation is durable, and a failed one leaves neither the database
/// nor the queue changed. Applying in place keeps a mutation O(log n) in a queue of n items.
///
/// Transitions nobody asked for — the clock reaching an item's end, a loader report — are
/// applied at once (they are facts, not requests) and their edits written right after; a
/// write that fails stays owed, in order, and is retried by the timer or by the next
/// request, so the database never skips an edit.
///
/// ## The clock
/// One timer sleeps until the earliest deadline of all queues: the instant a playing queue
/// reaches an item end, a loop end or the end of its loaded media
/// (``QueuePlayer/nextDeadline``), the next periodic playhead save, a paced `itemUpdated`
/// event, or a retry of a failed write. A paused or waiting queue has no deadline, so idle
/// queues cost nothing. Every request also brings its queue up to the present first.
///
/// ## Persisting playback
/// Each item's playhead is saved on pause, seek and item change (the queue core asks), every
/// ``EngineConfiguration/playheadSaveInterval`` while playing, and at ``shutdown()``. At
/// start-up each queue is restored at its saved item and position, paused unless
/// ``EngineConfiguration/resumesPlaybackAfterRestart``. Item ids are the Store's and never
/// change.
///
/// ## Events
/// ``events`` numbers and fans out every event (see ``EventHub``). Event ids rise across
/// restarts: the Engine reserves blocks of ids in the Store's journal (one write per
/// ``eventIDBlock`` events), and a new run starts above every reserved block, so an id from
/// before a restart always asks the client to resync. Events themselves are not journaled:
/// after a restart every queue is paused and every loader starts afresh, so a snapshot is
/// the only sound way to resume.
public actor Engine {
    /// How many event ids one journal write reserves.
    static let eventIDBlock: Int64 = 100_000

    let configuration: EngineConfiguration
    let clock: any EngineClock
    let store: Store
    /// The events of every queue, for subscribers (server-sent events) and metrics.
    public nonisolated let events: EventHub

    var running: [QueueID: RunningQueue] = [:]
    var sessions: [ItemID: LoaderSession] = [:]
    var nextLoaderGeneration = 0
    var nextLoadSerial = 0
    var timerTask: Task<Void, Never>?
    var timerDeadline: MonotonicInstant?
    /// The highest event id reserved in the journal.
    var reservedEventIDs: Int64
    var isShutDown = false
    var shuffleSeeds = SystemRandomNumberGenerator()
    /// Stalls since start, for metrics.
    var stallCount = 0
    /// Bytes the loaders received since start, for metrics.
    var bytesTransferred: Int64 = 0

    /// Opens (or creates) the database, restores every queue at its saved item and
    /// position, and starts loading their current items.
    ///
    /// Throws ``EngineError/Code-swift.struct/storageFailed`` when the database is refused
    /// (corrupt, from a newer hlsq, not an hlsq file) or cannot be read; the message says
    /// which and what to do.
    public init(configuration: EngineConfiguration) async throws(EngineError) {
        let store: Store
        let restored: [Store.RestoredQueue<PlayerItem>]
        let firstEventID: Int64
        do {
            store = try Store(path: configuration.databasePath, configuration: Store.Configuration(
                durability: configuration.durability, busyTimeout: configuration.busyTimeout,
                historyLimit: max(1_000, configuration.historyLimit)))
            restored = try store.restoreAllQueues(listing: StoreRecords.item)
            firstEventID = (try store.lastEventSequence() ?? 0) + 1
            try store.appendEvent(Self.reservation(through: firstEventID + Self.eventIDBlock - 1))
        } catch let error as StoreError {
            throw EngineError(.storageFailed, error.message)
        } catch {
            throw EngineError(.storageFailed, "the database \(configuration.databasePath) cannot be used: \(error)")
        }
        self.configuration = configuration
        clock = configuration.clock
        self.store = store
        events = EventHub(firstID: EventID(firstEventID), configuration: configuration.events)
        reservedEventIDs = firstEventID + Self.eventIDBlock - 1
        let now = clock.monotonicNow()
        // Consumed, so that each player holds the only reference to its list: its first
        // change then edits the list in place rather than copying it.
        for record in consume restored {
            let id = QueueID(record.queue.id)
            let player = try Self.restorePlayer(record, configuration: configuration, clock: clock)
            running[id] = RunningQueue(id: id, name: record.queue.name, player: player, now: now)
        }
        // Restored queues load nothing until their first transition.
        for id in running.keys.sorted() { tick(id) }
    }

    /// A queue player rebuilt from what the Store kept. A stored state the queue core finds
    /// inconsistent (it was edited by hand) falls back to the first item from its start,
    /// without history, rather than refusing to start.
    ///
    /// `rate` overrides the saved rate, and `playheads` the saved playheads of some items.
    static func restorePlayer(
        _ record: Store.RestoredQueue<PlayerItem>, configuration: EngineConfiguration, clock: any EngineClock, rate: Double? = nil,
        playhead: [ItemID: MediaTime] = [:]
    ) throws(EngineError) -> QueuePlayer {
        let settings = StoreRecords.settings(record.queue.settings)
        var items = record.items
        if !playhead.isEmpty {
            items = items.map { item in
                guard let time = playhead[item.id] else { return item }
                return PlayerItem(
                    id: item.id, url: item.url, title: item.title, kind: item.kind, preferences: item.preferences,
                    loop: item.loop, mediaSelections: item.mediaSelections, currentTime: time, failure: item.failure)
            }
        }
        let history = record.history.map { QueueCore.HistoryEntry(serial: $0.serial, item: StoreRecords.item($0.item)) }
        let savedRate = configuration.resumesPlaybackAfterRestart ? record.playback.rate : 0
        let rate = min(max(rate ?? savedRate, 0), 2)
        let current = record.playback.currentItemID.map(ItemID.init) ?? items.first?.id
        let playerConfiguration = QueueConfiguration(
            preloadCount: configuration.preloadCount, historyLimit: configuration.historyLimit)
        let snapshot = QueueSnapshot(settings: settings, items: items, currentItemID: current, history: history, rate: rate)
        if let player = try? QueuePlayer(snapshot: snapshot, configuration: playerConfiguration, clock: clock) {
            return player
        }
        let fallback = QueueSnapshot(settings: settings, items: items, currentItemID: items.first?.id)
        do {
            return try QueuePlayer(snapshot: fallback, configuration: playerConfiguration, clock: clock)
        } catch {
            throw EngineError(.storageFailed, "queue \(QueueID(record.queue.id)) cannot be restored: \(error)")
        }
    }

    // MARK: - Shutdown

    /// Stops every loader, saves every queue's playhead, and ends every event subscription.
    /// Requests after it throw ``EngineError/Code-swift.struct/unavailable``. It does no
    /// waiting of its own: it returns as soon as the last write committed.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        timerTask?.cancel()
        timerTask = nil
        timerDeadline = nil
        for id in running.keys.sorted() {
            tick(id)
            guard let queue = running[id] else { continue }
            running[id]?.pending.append(StorePlan([], player: queue.player, queue: id.stored, savingPlayback: true))
            flush(id)
        }
        for session in sessions.values {
            session.task.cancel()
            session.directives.finish()
        }
        sessions = [:]
        try? store.checkpoint()
        events.close()
    }

    // MARK: - Helpers for the API

    func requireRunning() throws(EngineError) {
        if isShutDown { throw EngineError.shuttingDown }
    }

    func requireQueue(_ id: QueueID) throws(EngineError) {
        try requireRunning()
        guard running[id] != nil else { throw EngineError.queueNotFound(id) }
    }

    static func reservation(through id: Int64) -> Store.JournalEvent {
        Store.JournalEvent(sequence: id, queueID: nil, type: "eventIDsReserved", payload: "{\"through\":\(id)}")
    }

    /// Publishes events about `queue`, reserving more ids in the journal first when the
    /// current block runs out.
    func publish(_ payloads: [EngineEvent.Payload], about queue: QueueID) {
        guard !payloads.isEmpty else { return }
        let last = events.lastEventID.rawValue + Int64(payloads.count)
        if last > reservedEventIDs {
            let through = last + Self.eventIDBlock
            // If this write fails the events go out all the same; the next one retries.
            if (try? store.appendEvent(Self.reservation(through: through))) != nil {
                reservedEventIDs = through
            }
        }
        events.publish(payloads, about: queue)
    }
}
