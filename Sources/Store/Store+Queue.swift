import MediaTime

extension Store {
    /// A queue's identifier: assigned by the store when the queue is created, never reused.
    public struct QueueID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
        public let rawValue: Int64

        public init(rawValue: Int64) {
            self.rawValue = rawValue
        }

        public static func < (lhs: QueueID, rhs: QueueID) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        public var description: String {
            "queue \(rawValue)"
        }
    }

    /// A stored queue: its name and settings. Its items, history and playback state are
    /// read with ``items(in:)``, ``history(of:)`` and ``playback(of:)``, or all at once with
    /// ``restoreQueue(_:)``.
    public struct Queue: Hashable, Sendable {
        public let id: QueueID
        public var name: String
        public var settings: QueueSettings
    }

    /// How a queue plays, as the user set it. The defaults are AVQueuePlayer's.
    public struct QueueSettings: Hashable, Sendable {
        public var actionAtItemEnd: ActionAtItemEnd
        /// Whether an item leaves the list for the history once it has played.
        public var consume: Bool
        public var loopMode: LoopMode
        /// The rate `play()` uses; finite.
        public var defaultRate: Double
        public var automaticallyWaitsToMinimizeStalling: Bool

        public init(actionAtItemEnd: ActionAtItemEnd = .advance, consume: Bool = true, loopMode: LoopMode = .off,
                    defaultRate: Double = 1, automaticallyWaitsToMinimizeStalling: Bool = true) {
            self.actionAtItemEnd = actionAtItemEnd
            self.consume = consume
            self.loopMode = loopMode
            self.defaultRate = defaultRate
            self.automaticallyWaitsToMinimizeStalling = automaticallyWaitsToMinimizeStalling
        }

        func validate() throws {
            guard defaultRate.isFinite else {
                throw StoreError(.invalidValue, "the default rate \(defaultRate) is not a finite number")
            }
            if case .item(let loop) = loopMode { try loop.validate() }
        }
    }

    /// What a queue does when its current item ends.
    public enum ActionAtItemEnd: String, Hashable, Sendable {
        case advance, pause, none
    }

    /// How a queue repeats.
    public enum LoopMode: Hashable, Sendable {
        case off
        /// The current item restarts, as with AVPlayerLooper.
        case item(ItemLoop)
        /// The whole queue repeats.
        case queue
    }

    /// How one item repeats, like AVPlayerLooper: how many times it plays in all, and which
    /// part of it.
    public struct ItemLoop: Hashable, Sendable {
        /// How many times the item plays in all, at least 1; nil plays it forever.
        public var plays: Int?
        /// The part that repeats; nil for the whole item. Must be a valid range.
        public var timeRange: TimeRange?

        public init(plays: Int? = nil, timeRange: TimeRange? = nil) {
            self.plays = plays
            self.timeRange = timeRange
        }

        func validate() throws {
            if let plays, plays < 1 {
                throw StoreError(.invalidValue, "a loop plays at least once, not \(plays) times")
            }
            if let timeRange, !timeRange.isValid {
                throw StoreError(.invalidValue, "the loop range \(timeRange) is not a valid time range")
            }
        }
    }

    // MARK: - Reading and writing queues

    /// Creates a queue, with an empty list and history, paused.
    public func createQueue(name: String, settings: QueueSettings = QueueSettings()) throws -> Queue {
        try settings.validate()
        return try database.transaction(.immediate) {
            let insert = try database.cachedStatement("""
                INSERT INTO queues (name, action_at_item_end, consume, loop_mode, loop_plays,
                    loop_start_value, loop_start_timescale, loop_end_value, loop_end_timescale,
                    default_rate, automatically_waits_to_minimize_stalling)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                """)
            try bindSettings(settings, to: insert, name: name)
            try insert.execute()
            let id = QueueID(rawValue: database.lastInsertedRowID)
            let playback = try database.cachedStatement(
                "INSERT INTO playback (queue_id, current_item_id, rate) VALUES (?1, NULL, 0)")
            try playback.bind(id.rawValue)
            try playback.execute()
            return Queue(id: id, name: name, settings: settings)
        }
    }

    /// Every queue, in the order they were created.
    public func queues() throws -> [Queue] {
        let select = try database.cachedStatement("SELECT \(Self.queueColumns) FROM queues ORDER BY id")
        var queues: [Queue] = []
        try select.forEachRow { queues.append(try Self.decodeQueue($0)) }
        return queues
    }

    /// The queue `id`; throws ``StoreError/Code-swift.struct/queueNotFound`` when there is none.
    public func queue(_ id: QueueID) throws -> Queue {
        let select = try database.cachedStatement("SELECT \(Self.queueColumns) FROM queues WHERE id = ?1")
        try select.bind(id.rawValue)
        guard let queue = try select.firstRow(Self.decodeQueue) else { throw Self.queueNotFound(id) }
        return queue
    }

    public func renameQueue(_ id: QueueID, to name: String) throws {
        try database.transaction(.immediate) {
            let update = try database.cachedStatement("UPDATE queues SET name = ?2 WHERE id = ?1")
            try update.bind(id.rawValue, name)
            try update.execute()
            guard database.changes == 1 else { throw Self.queueNotFound(id) }
        }
    }

    public func updateQueueSettings(_ id: QueueID, _ settings: QueueSettings) throws {
        try settings.validate()
        try database.transaction(.immediate) {
            let update = try database.cachedStatement("""
                UPDATE queues SET action_at_item_end = ?2, consume = ?3, loop_mode = ?4, loop_plays = ?5,
                    loop_start_value = ?6, loop_start_timescale = ?7, loop_end_value = ?8, loop_end_timescale = ?9,
                    default_rate = ?10, automatically_waits_to_minimize_stalling = ?11
                WHERE id = ?1
                """)
            try bindSettings(settings, to: update, name: nil)
            try update.bind(id.rawValue)
            try update.execute()
            guard database.changes == 1 else { throw Self.queueNotFound(id) }
        }
    }

    /// Deletes the queue with its items, history and playback state. Its journal events
    /// stay.
    public func deleteQueue(_ id: QueueID) throws {
        try database.transaction(.immediate) {
            let delete = try database.cachedStatement("DELETE FROM queues WHERE id = ?1")
            try delete.bind(id.rawValue)
            try delete.execute()
            guard database.changes == 1 else { throw Self.queueNotFound(id) }
        }
    }

    // MARK: - Columns

    static let queueColumns = """
        id, name, action_at_item_end, consume, loop_mode, loop_plays, loop_start_value, loop_start_timescale,
        loop_end_value, loop_end_timescale, default_rate, automatically_waits_to_minimize_stalling
        """

    /// Binds `?1` (the name, unless nil) and `?2` to `?11`.
    private func bindSettings(_ settings: QueueSettings, to statement: Statement, name: String?) throws {
        let (mode, loop): (String, ItemLoop?) = switch settings.loopMode {
        case .off: ("off", nil)
        case .item(let loop): ("item", loop)
        case .queue: ("queue", nil)
        }
        let range = loop?.timeRange
        if let name { try statement.bind(name) }
        try statement.bind(settings.actionAtItemEnd.rawValue, settings.consume, mode, loop?.plays,
                           range?.start.storedValue, range?.start.storedTimescale,
                           range?.end.storedValue, range?.end.storedTimescale,
                           settings.defaultRate, settings.automaticallyWaitsToMinimizeStalling,
                           from: 2)
    }

    private static func decodeQueue(_ row: Row) throws -> Queue {
        let id = QueueID(rawValue: row.int64(0))
        let loopMode: LoopMode
        switch row.text(4) {
        case "off": loopMode = .off
        case "queue": loopMode = .queue
        case "item": loopMode = .item(ItemLoop(plays: row.optionalInt64(5).map { Int($0) },
                                               timeRange: try row.optionalTimeRange(6, "loop range")))
        case let other: throw unreadable("loop mode", other, of: id)
        }
        guard let action = ActionAtItemEnd(rawValue: row.text(2)) else {
            throw unreadable("action at item end", row.text(2), of: id)
        }
        let settings = QueueSettings(actionAtItemEnd: action, consume: row.int64(3) != 0, loopMode: loopMode,
                                     defaultRate: row.double(10),
                                     automaticallyWaitsToMinimizeStalling: row.int64(11) != 0)
        return Queue(id: id, name: row.text(1), settings: settings)
    }

    static func queueNotFound(_ id: QueueID) -> StoreError {
        StoreError(.queueNotFound, "there is no \(id)")
    }

    static func unreadable(_ what: String, _ value: String, of owner: some CustomStringConvertible) -> StoreError {
        StoreError(.unreadableValue, "the stored \(what) of \(owner), \"\(value)\", is not one this store writes")
    }
}
