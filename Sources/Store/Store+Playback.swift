extension Store {
    /// Where a queue's playback stands: its current item and the rate to resume at. Each
    /// item keeps its own playhead (``ItemAttributes/playhead``).
    public struct Playback: Hashable, Sendable {
        /// The current item, in the queue's list; nil when nothing is current.
        public var currentItemID: ItemID?
        /// The rate playback runs at; 0 while paused.
        public var rate: Double

        public init(currentItemID: ItemID? = nil, rate: Double = 0) {
            self.currentItemID = currentItemID
            self.rate = rate
        }
    }

    /// Everything stored about one queue, read in one consistent snapshot: what a restart
    /// needs to rebuild it. `Entry` is what each item of the list was made into as it was
    /// read (``Item`` itself unless the reader asked for another type).
    public struct RestoredQueue<Entry> {
        public let queue: Queue
        /// The list, in order.
        public let items: [Entry]
        /// The history, oldest first.
        public let history: [HistoryEntry]
        public let playback: Playback
    }

    /// Saves the queue's current item and rate, writing its one row.
    public func savePlayback(_ playback: Playback, of queue: QueueID) throws {
        guard playback.rate.isFinite else {
            throw StoreError(.invalidValue, "the rate \(playback.rate) is not a finite number")
        }
        try database.transaction(.immediate) {
            if let current = playback.currentItemID {
                guard try location(of: current).queue == queue else {
                    throw StoreError(.itemsInDifferentQueues, "\(current) is not in \(queue)")
                }
            }
            let update = try database.cachedStatement(
                "UPDATE playback SET current_item_id = ?2, rate = ?3 WHERE queue_id = ?1")
            try update.bind(queue.rawValue, playback.currentItemID?.rawValue, playback.rate)
            try update.execute()
            guard database.changes == 1 else { throw Self.queueNotFound(queue) }
        }
    }

    /// The queue's saved current item and rate.
    public func playback(of queue: QueueID) throws -> Playback {
        let select = try database.cachedStatement("SELECT current_item_id, rate FROM playback WHERE queue_id = ?1")
        try select.bind(queue.rawValue)
        let playback = try select.firstRow { row in
            Playback(currentItemID: row.optionalInt64(0).map(ItemID.init), rate: row.double(1))
        }
        guard let playback else { throw Self.queueNotFound(queue) }
        return playback
    }

    /// The queue with its list, history and playback state, read in one snapshot.
    public func restoreQueue(_ id: QueueID) throws -> RestoredQueue<Item> {
        try restoreQueue(id, listing: { $0 })
    }

    /// The queue as ``restoreQueue(_:)`` reads it, with each item of the list made into an
    /// `Entry` as its row is read: a long list is never held twice, once as ``Item``s and
    /// once as entries.
    public func restoreQueue<Entry>(_ id: QueueID, listing entry: (Item) throws -> Entry) throws -> RestoredQueue<Entry> {
        try database.transaction(.deferred) {
            RestoredQueue(queue: try queue(id), items: try items(in: id, listing: entry), history: try history(of: id),
                          playback: try playback(of: id))
        }
    }

    /// Every queue, as ``restoreQueue(_:)`` gives it, from one snapshot.
    public func restoreAllQueues() throws -> [RestoredQueue<Item>] {
        try restoreAllQueues(listing: { $0 })
    }

    /// Every queue, as ``restoreQueue(_:listing:)`` gives it, from one snapshot.
    public func restoreAllQueues<Entry>(listing entry: (Item) throws -> Entry) throws -> [RestoredQueue<Entry>] {
        try database.transaction(.deferred) {
            try queues().map { try restoreQueue($0.id, listing: entry) }
        }
    }
}

extension Store.RestoredQueue: Sendable where Entry: Sendable {}
