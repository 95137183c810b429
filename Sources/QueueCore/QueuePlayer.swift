import MediaTime

/// A queue of ``PlayerItem``s played on an injected clock with the semantics of
/// `AVQueuePlayer`: a pure, deterministic state machine.
///
/// ## Transitions
/// Every command (`insert`, `advanceToNextItem`, `seek`, a loader report, `tick`, …) is a
/// mutating method that:
/// 1. reads the clock once and brings playback up to that instant (the playhead moves by
///    rate × elapsed time, items end, stalls happen, observers fire);
/// 2. validates the command against that state, and throws a ``QueueRefusal`` if it must be
///    refused;
/// 3. mutates, and returns a ``QueueOutcome``: notifications to publish and effects for the
///    engine (start or stop loaders, persist an edit or the playhead).
///
/// A refused command changes nothing. Time passes all the same: what step 1 produced is kept
/// and delivered at the front of the next outcome. ``validate(_:)`` and
/// ``canInsert(_:after:)`` answer without changing anything, from the state as of the last
/// transition. No transition does I/O.
///
/// ## The list and the current entry
/// The entries form one ordered list with a current pointer. Up next is always the entry
/// after the current one.
/// - With ``QueueSettings/consume`` on (the default, `AVQueuePlayer`'s semantics) the current
///   entry is always the first: the list is the current item followed by the upcoming ones.
///   Every entry the pointer passes going forward — by playing to its end, by
///   ``advanceToNextItem()``, by ``jump(to:)``, or by moving the current item past it —
///   leaves the list for ``history``. Nothing may be put before the current entry.
/// - With consume off (MPD, mpv, VLC) the list keeps every entry and the pointer walks it.
///
/// ## Decisions the AVFoundation model leaves open
/// `docs/QUEUE-SEMANTICS.md` lists them all with their reasons. In short:
/// - `jump(to:)` with consume on passes (into history) every entry before the target; with
///   consume off it only moves the pointer. Jumping to the current item restarts it.
/// - `previous()` with consume on brings back the most recent playable history entry as the
///   current item, the old current next; with an empty history it is refused
///   (``QueueRefusal/Reason-swift.struct/noPreviousItem``). With consume off it moves the
///   pointer back, wrapping under queue loop.
/// - Moving the current item keeps it current with its playhead; with consume on, the
///   entries it moves past are passed into history.
/// - `advanceToNextItem()` past the last entry: with consume on the list empties (rate kept,
///   waiting with `noItemToPlay`); with consume off it is refused.
/// - The last entry ending with `.advance` and consume off leaves the pointer on it, paused
///   at its end; `play()` at an item's end restarts the item.
/// - Queue loop with consume on enqueues each passed entry again at the end; failed entries
///   are never enqueued again and are skipped wherever the player looks for the next one.
/// - Reverse playback that reaches its end pauses, whatever `actionAtItemEnd` says.
/// - Rates outside `(0, 2]` fall back to the default rate when the current item changes.
///
/// ## Data structure and costs
/// The entries live in an ``ItemList`` (an order-statistic treap with an id index):
/// insert, remove, move, advance, previous and lookups by id or position cost O(log n).
/// Operations that pass k entries (a jump, moving the current item far, switching consume
/// on) cost O(k log n); `shuffle` costs O(k) for k upcoming entries; skipping k consecutive
/// failed entries costs O(k log n).
///
/// ## Invariants (``checkInvariants()``, asserted after every transition)
/// - the list's own invariants hold, so no item appears twice;
/// - the current pointer names an entry of the list, and is nil only when the list is
///   empty; with consume on it names the first entry;
/// - every item's playhead is numeric, not negative and not past a numeric duration, its
///   range sets are normalized, and it has a failure exactly when it failed;
/// - `rate` is finite; the status is `paused` exactly when the rate is 0, and a waiting
///   reason exists exactly when the status is waiting, `noItemToPlay` exactly when there is
///   no current item;
/// - time past the end exists only with `actionAtItemEnd == .none`, at the current item's end;
/// - a pending seek belongs to the current item;
/// - history holds at most ``QueueConfiguration/historyLimit`` entries, serials increasing;
/// - the items being loaded are the current entry and the next
///   ``QueueConfiguration/preloadCount`` playable ones.
public struct QueuePlayer: Sendable {
    typealias Slot = ItemList<PlayerItem>.Slot

    /// Per-current-item playback state, reset when the current item changes.
    struct Session: Sendable {
        /// Whether the current item has played since it became current: until then the
        /// player waits with `evaluatingBufferingRate`, after it with `toMinimizeStalls`.
        var hasStartedPlayback = false
        /// When playing was asked for, for the access log's startup time.
        var playRequestedAt: MonotonicInstant?
        /// Playback began in a new access-log period that has no start date yet.
        var awaitsPlaybackStart = true
        /// When the current stall began.
        var stallStartedAt: MonotonicInstant?
        /// With `actionAtItemEnd == .none`, the time played past the end.
        var timePastEnd: MediaTime?
        /// didPlayToEndTime was posted for the current arrival at the end.
        var endPosted = false
    }

    struct PendingSeek: Hashable, Sendable {
        let id: SeekID
        let item: ItemID
        let target: MediaTime
    }

    public let configuration: QueueConfiguration
    public internal(set) var settings: QueueSettings
    var list: ItemList<PlayerItem>
    var currentSlot: Slot?
    var historyLog: HistoryLog
    var nextHistorySerial: Int64
    /// The requested rate: 0 is paused. The player may still wait (see ``timeControlStatus``).
    public internal(set) var rate: Double
    public internal(set) var timeControlStatus: TimeControlStatus
    public internal(set) var reasonForWaitingToPlay: WaitingReason?

    let clock: any PlaybackClock
    var idGenerator: any ItemIDGenerator
    var lastInstant: MonotonicInstant
    var session = Session()
    var pendingSeek: PendingSeek?
    var nextSeekNumber = 1
    var observers = TimeObservers()
    /// The items the engine was told to load, current first.
    public internal(set) var loadingItemIDs: [ItemID] = []
    var loadingWindowIsStale = true
    /// What passing time produced during a refused command, delivered with the next outcome.
    var carried = QueueOutcome()

    /// An empty queue.
    public init(
        settings: QueueSettings = QueueSettings(),
        configuration: QueueConfiguration = QueueConfiguration(),
        clock: any PlaybackClock,
        idGenerator: any ItemIDGenerator = SequentialItemIDGenerator()
    ) throws(QueueRefusal) {
        try self.init(
            snapshot: QueueSnapshot(settings: settings), configuration: configuration,
            clock: clock, idGenerator: idGenerator)
    }

    /// A queue restored from `snapshot`, validated against the invariants. Nothing is being
    /// loaded yet: the first transition (usually ``tick()``) asks for the loaders.
    public init(
        snapshot: QueueSnapshot,
        configuration: QueueConfiguration = QueueConfiguration(),
        clock: any PlaybackClock,
        idGenerator: any ItemIDGenerator = SequentialItemIDGenerator()
    ) throws(QueueRefusal) {
        try Self.validateSettings(snapshot.settings).get()
        guard snapshot.rate.isFinite, snapshot.rate >= 0, snapshot.rate <= 2 else {
            throw QueueRefusal(.invalidSnapshot, "a restored rate must lie in [0, 2], not \(snapshot.rate)")
        }
        guard let list = ItemList(snapshot.items) else {
            throw QueueRefusal(.invalidSnapshot, "two items share an id")
        }
        // Reads the two times in place: passing each item along would copy all of it.
        for index in snapshot.items.indices
        where !Self.isPlayhead(snapshot.items[index].currentTime, within: snapshot.items[index].duration) {
            throw QueueRefusal(.invalidSnapshot, "the playhead of \(snapshot.items[index].id) lies outside the item")
        }
        var currentSlot: Slot?
        if let currentID = snapshot.currentItemID {
            guard let slot = list.slot(of: currentID) else {
                throw QueueRefusal(.invalidSnapshot, "the current item \(currentID) is not in the list")
            }
            guard !snapshot.settings.consume || list.first == slot else {
                throw QueueRefusal(.invalidSnapshot, "with consume on, the current item must come first")
            }
            currentSlot = slot
        } else if !list.isEmpty {
            throw QueueRefusal(.invalidSnapshot, "a list with entries needs a current item")
        }
        for (earlier, later) in zip(snapshot.history, snapshot.history.dropFirst()) where earlier.serial >= later.serial {
            throw QueueRefusal(.invalidSnapshot, "history serials must increase")
        }
        self.configuration = configuration
        self.settings = snapshot.settings
        self.list = list
        self.currentSlot = currentSlot
        self.historyLog = HistoryLog(snapshot.history, limit: configuration.historyLimit)
        self.nextHistorySerial = (snapshot.history.last?.serial ?? 0) + 1
        self.rate = snapshot.rate
        self.timeControlStatus = .paused
        self.reasonForWaitingToPlay = nil
        self.clock = clock
        self.idGenerator = idGenerator
        self.lastInstant = clock.monotonicNow()
        if rate != 0 { session.playRequestedAt = lastInstant }
        var restored = QueueOutcome()
        refreshTimeControlStatus(at: lastInstant, &restored)
        assert(checkInvariants())
    }

    /// The durable state, for the Store; ``init(snapshot:configuration:clock:idGenerator:)``
    /// takes it back.
    public func snapshot() -> QueueSnapshot {
        QueueSnapshot(settings: settings, items: items, currentItemID: currentItemID, history: history, rate: rate)
    }

    /// A new item with an id from the injected generator.
    public mutating func makeItem(url: String, title: String? = nil, kind: PlayerItem.Kind = .unknown) -> PlayerItem {
        PlayerItem(id: idGenerator.nextID(), url: url, title: title, kind: kind)
    }

    // MARK: Queries

    /// The entries in order: O(n).
    public var items: [PlayerItem] {
        Array(list.elements())
    }

    /// Passed entries, oldest first: O(``QueueConfiguration/historyLimit``).
    public var history: [HistoryEntry] {
        Array(historyLog.entries)
    }

    public var count: Int { list.count }

    public var currentItem: PlayerItem? {
        currentSlot.map { list[$0] }
    }

    public var currentItemID: ItemID? {
        currentSlot.map { list[$0].id }
    }

    /// The current entry's position: O(log n).
    public var currentIndex: Int? {
        currentSlot.map { list.position(of: $0) }
    }

    /// The entry after the current one, nil at the end of the list.
    public var upNext: PlayerItem? {
        guard let slot = currentSlot, let next = list.successor(of: slot) else { return nil }
        return list[next]
    }

    public func item(_ id: ItemID) -> PlayerItem? {
        list.slot(of: id).map { list[$0] }
    }

    /// O(log n).
    public func index(of id: ItemID) -> Int? {
        list.slot(of: id).map { list.position(of: $0) }
    }

    /// O(log n).
    public func item(at index: Int) -> PlayerItem? {
        guard index >= 0, index < list.count else { return nil }
        return list[list.slot(at: index)]
    }

    /// The entries from `index` on, at most `limit` of them: O(log n + limit).
    public func items(from index: Int, limit: Int) -> [PlayerItem] {
        guard index >= 0, index < list.count, limit > 0 else { return [] }
        return Array(list.elements(from: list.slot(at: index)).prefix(limit))
    }

    /// The ids of the entries from `index` on, at most `limit` of them, without copying the
    /// items: O(log n + limit).
    public func itemIDs(from index: Int = 0, limit: Int = .max) -> [ItemID] {
        guard index >= 0, index < list.count, limit > 0 else { return [] }
        return list.slots(from: list.slot(at: index)).prefix(limit).map { list[$0].id }
    }

    /// The current item's time, plus the time played past its end under
    /// `actionAtItemEnd == .none`; zero without a current item. As of the last transition.
    public var currentTime: MediaTime {
        guard let item = currentItem else { return .zero }
        return session.timePastEnd.map { item.currentTime.adding($0) } ?? item.currentTime
    }

    /// How far playback ran past the current item's end under `actionAtItemEnd == .none`.
    public var timePastEnd: MediaTime? {
        session.timePastEnd
    }

    /// The seek not yet completed, if any.
    public var pendingSeekID: SeekID? {
        pendingSeek?.id
    }

    /// An item's buffer flags under the configured policy.
    public func bufferStatus(of id: ItemID) -> BufferStatus? {
        item(id)?.bufferStatus(policy: configuration.bufferPolicy)
    }

    // MARK: Transition scaffolding

    /// Step 1 of every transition: pending outcome, then time up to now.
    mutating func beginTransition() -> QueueOutcome {
        var outcome = carried
        carried = QueueOutcome()
        advancePlayback(to: clock.monotonicNow(), &outcome)
        refreshLoadingWindow(&outcome)
        return outcome
    }

    /// Unwraps a validation result; on refusal keeps `outcome` for the next transition.
    mutating func accept<Value>(_ result: Result<Value, QueueRefusal>, _ outcome: QueueOutcome) throws(QueueRefusal) -> Value {
        switch result {
        case .success(let value):
            return value
        case .failure(let refusal):
            carried = outcome
            throw refusal
        }
    }

    /// The last step of every transition: status, zero-time events (an item that ends at
    /// once), loaders.
    mutating func finishTransition(_ outcome: inout QueueOutcome) -> QueueOutcome {
        refreshTimeControlStatus(at: lastInstant, &outcome)
        advancePlayback(to: lastInstant, &outcome)
        refreshLoadingWindow(&outcome)
        assert(checkInvariants())
        return outcome
    }

    /// Brings playback up to the clock's present: the engine calls it on its timer.
    public mutating func tick() -> QueueOutcome {
        var outcome = beginTransition()
        // Playback already ran up to now; only a change of status can make more happen at
        // this instant.
        let status = timeControlStatus
        refreshTimeControlStatus(at: lastInstant, &outcome)
        if timeControlStatus != status { advancePlayback(to: lastInstant, &outcome) }
        refreshLoadingWindow(&outcome)
        assert(checkInvariants())
        return outcome
    }

    // MARK: Invariants

    static func playheadIsWithinItem(_ item: PlayerItem) -> Bool {
        isPlayhead(item.currentTime, within: item.duration)
    }

    static func isPlayhead(_ playhead: MediaTime, within duration: MediaTime) -> Bool {
        playhead.isNumeric && playhead >= .zero && (!duration.isNumeric || playhead <= duration)
    }

    /// Whether the invariants in the type's documentation hold. O(n).
    public func checkInvariants() -> Bool {
        guard list.checkInvariants() else { return false }
        if let slot = currentSlot {
            guard list.slot(of: list[slot].id) == slot else { return false }
            if settings.consume && list.first != slot { return false }
        } else if !list.isEmpty {
            return false
        }
        for item in list.elements() {
            guard Self.playheadIsWithinItem(item),
                  item.loadedTimeRanges.checkInvariants(), item.seekableTimeRanges.checkInvariants(),
                  item.accessLog.count <= configuration.logLimit, item.errorLog.count <= configuration.logLimit
            else { return false }
        }
        guard rate.isFinite, (rate == 0) == (timeControlStatus == .paused),
              (timeControlStatus == .waitingToPlayAtSpecifiedRate) == (reasonForWaitingToPlay != nil),
              (reasonForWaitingToPlay == .noItemToPlay) == (rate != 0 && currentSlot == nil)
        else { return false }
        if let past = session.timePastEnd {
            guard let slot = currentSlot, settings.actionAtItemEnd == .none, past >= .zero,
                  list[slot].currentTime >= effectiveForwardEnd(of: slot) else { return false }
        }
        if let seek = pendingSeek, seek.item != currentItemID { return false }
        let history = historyLog.entries
        guard history.count <= configuration.historyLimit,
              zip(history, history.dropFirst()).allSatisfy({ $0.serial < $1.serial }),
              history.last.map({ $0.serial < nextHistorySerial }) ?? true
        else { return false }
        if case .failure = Self.validateSettings(settings) { return false }
        return loadingWindowIsStale || loadingItemIDs == desiredLoadingWindow()
    }
}

/// The durable state of a queue: what the Store saves and restores.
public struct QueueSnapshot: Hashable, Sendable {
    public var settings: QueueSettings
    /// The entries in order.
    public var items: [PlayerItem]
    public var currentItemID: ItemID?
    /// Oldest first.
    public var history: [HistoryEntry]
    /// The rate to resume at: 0 restores paused.
    public var rate: Double

    public init(
        settings: QueueSettings = QueueSettings(), items: [PlayerItem] = [], currentItemID: ItemID? = nil,
        history: [HistoryEntry] = [], rate: Double = 0
    ) {
        self.settings = settings
        self.items = items
        self.currentItemID = currentItemID
        self.history = history
        self.rate = rate
    }
}
