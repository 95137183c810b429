extension Store {
    /// An entry of a queue's history: a copy of an item as the player passed it, under the
    /// serial the queue player gave the entry (serials rise and are never reused).
    ///
    /// The copy is independent of the list: the item may have been deleted from the list
    /// since, or be in it again (a queue that repeats).
    public struct HistoryEntry: Hashable, Sendable {
        public let serial: Int64
        public var item: Item

        public init(serial: Int64, item: Item) {
            self.serial = serial
            self.item = item
        }
    }

    /// Appends an entry to the history of the entry's item's queue, writing one row. Its
    /// serial must be above the queue's last. When the history holds more than
    /// ``Configuration/historyLimit`` serials, the oldest entries are deleted: a backstop, for
    /// the queue player drops its oldest entries itself, and the Engine removes them with
    /// ``removeHistoryEntry(serial:of:)``.
    public func appendHistoryEntry(_ entry: HistoryEntry) throws {
        let queue = entry.item.queueID
        try entry.item.attributes.validate()
        try database.transaction(.immediate) {
            try requireQueue(queue)
            let last = try database.cachedStatement(
                "SELECT serial FROM history WHERE queue_id = ?1 ORDER BY serial DESC LIMIT 1")
            try last.bind(queue.rawValue)
            if let lastSerial = try last.firstRow({ $0.int64(0) }), entry.serial <= lastSerial {
                throw StoreError(.outOfOrder, "the history entry \(entry.serial) of \(queue) does not come after "
                    + "\(lastSerial)")
            }
            let insert = try database.cachedStatement("""
                INSERT INTO history (item_id, queue_id, url, \(Self.itemAttributeColumns), serial)
                VALUES (?, ?, ?, \(Array(repeating: "?", count: Int(Self.itemAttributeCount)).joined(separator: ", ")), ?)
                """)
            try insert.bind(entry.item.id.rawValue, queue.rawValue, entry.item.url)
            try bindAttributes(entry.item.attributes, to: insert, from: 4)
            try insert.bind(entry.serial, from: 4 + Self.itemAttributeCount)
            try insert.execute()
            let prune = try database.cachedStatement("DELETE FROM history WHERE queue_id = ?1 AND serial <= ?2")
            try prune.bind(queue.rawValue, entry.serial.subtractingReportingOverflow(Int64(configuration.historyLimit))
                .partialValue)
            try prune.execute()
        }
    }

    /// Deletes the entry `serial` of the queue's history, as the queue player does when the
    /// entry falls out or `previous()` takes it back. Deleting an entry that is not there
    /// (the backstop limit dropped it already) changes nothing.
    public func removeHistoryEntry(serial: Int64, of queue: QueueID) throws {
        try database.transaction(.immediate) {
            try requireQueue(queue)
            let delete = try database.cachedStatement("DELETE FROM history WHERE queue_id = ?1 AND serial = ?2")
            try delete.bind(queue.rawValue, serial)
            try delete.execute()
        }
    }

    /// The queue's history, oldest first.
    public func history(of queue: QueueID) throws -> [HistoryEntry] {
        try database.transaction(.deferred) {
            try requireQueue(queue)
            let select = try database.cachedStatement("""
                SELECT item_id, queue_id, url, \(Self.itemAttributeColumns), serial FROM history WHERE queue_id = ?1
                ORDER BY serial
                """)
            try select.bind(queue.rawValue)
            var entries: [HistoryEntry] = []
            try select.forEachRow { row in
                let item = try Self.decodeItem(row)
                entries.append(HistoryEntry(serial: row.int64(3 + Self.itemAttributeCount), item: item))
            }
            return entries
        }
    }

    /// Deletes the queue's history.
    public func clearHistory(of queue: QueueID) throws {
        try database.transaction(.immediate) {
            try requireQueue(queue)
            let delete = try database.cachedStatement("DELETE FROM history WHERE queue_id = ?1")
            try delete.bind(queue.rawValue)
            try delete.execute()
        }
    }
}
