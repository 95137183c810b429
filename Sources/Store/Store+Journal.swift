extension Store {
    /// One event as the journal keeps it, for clients that resume after a restart.
    public struct JournalEvent: Hashable, Sendable {
        /// The event's global sequence number, as the event hub assigned it.
        public var sequence: Int64
        /// The queue it concerns; nil for an event about the whole server.
        public var queueID: QueueID?
        public var type: String
        /// The event's body: JSON text.
        public var payload: String

        public init(sequence: Int64, queueID: QueueID?, type: String, payload: String) {
            self.sequence = sequence
            self.queueID = queueID
            self.type = type
            self.payload = payload
        }
    }

    /// Appends `events`, whose sequence numbers must rise above the journal's last one, and
    /// forgets the events more than ``Configuration/journalLimit`` numbers older than the
    /// newest. A payload that is not JSON is refused by SQLite (`SQLITE_CONSTRAINT`).
    public func appendEvents(_ events: [JournalEvent]) throws {
        try database.transaction(.immediate) {
            var last = try lastEventSequence() ?? .min
            let insert = try database.cachedStatement(
                "INSERT INTO events (sequence, queue_id, type, payload) VALUES (?1, ?2, ?3, ?4)")
            for event in events {
                guard event.sequence > last else {
                    throw StoreError(.outOfOrder, "the event \(event.sequence) does not come after \(last)")
                }
                try insert.bind(event.sequence, event.queueID?.rawValue, event.type, event.payload)
                try insert.execute()
                last = event.sequence
            }
            let prune = try database.cachedStatement("DELETE FROM events WHERE sequence <= ?1")
            try prune.bind(last.subtractingReportingOverflow(configuration.journalLimit).partialValue)
            try prune.execute()
        }
    }

    public func appendEvent(_ event: JournalEvent) throws {
        try appendEvents([event])
    }

    /// The journal's events after `sequence`, oldest first, at most `limit` of them, only
    /// those of `queue` when it is given.
    public func events(after sequence: Int64, queue: QueueID? = nil, limit: Int = .max) throws -> [JournalEvent] {
        let select = try database.cachedStatement(queue == nil
            ? "SELECT sequence, queue_id, type, payload FROM events WHERE sequence > ?1 ORDER BY sequence LIMIT ?2"
            : """
              SELECT sequence, queue_id, type, payload FROM events WHERE queue_id = ?3 AND sequence > ?1
              ORDER BY sequence LIMIT ?2
              """)
        try select.bind(sequence, limit)
        if let queue { try select.bind(queue.rawValue, from: 3) }
        var events: [JournalEvent] = []
        try select.forEachRow { row in
            events.append(JournalEvent(sequence: row.int64(0), queueID: row.optionalInt64(1).map(QueueID.init),
                                       type: row.text(2), payload: row.text(3)))
        }
        return events
    }

    /// The newest event's sequence number, or nil when the journal is empty.
    public func lastEventSequence() throws -> Int64? {
        let select = try database.cachedStatement("SELECT max(sequence) FROM events")
        return try select.firstRow { $0.optionalInt64(0) } ?? nil
    }
}
