import MediaTime

extension Store {
    /// Where a queue's playback stands: what persists of it across a restart.
    public struct Playback: Hashable, Sendable {
        /// The current item, in the queue's list; nil when nothing is current.
        public var currentItemID: ItemID?
        /// The position in the current item, stored exactly.
        public var playhead: MediaTime
        /// The rate playback runs at; 0 while paused.
        public var rate: Double
        /// How many times the current item has looped.
        public var completedLoops: Int

        public init(currentItemID: ItemID? = nil, playhead: MediaTime = .zero, rate: Double = 0,
                    completedLoops: Int = 0) {
            self.currentItemID = currentItemID
            self.playhead = playhead
            self.rate = rate
            self.completedLoops = completedLoops
        }
    }

    /// Everything stored about one queue, read in one consistent snapshot: what a restart
    /// needs to rebuild it.
    public struct RestoredQueue: Sendable {
        public let queue: Queue
        /// The list, in order.
        public let items: [Item]
        /// The history, oldest first.
        public let history: [Item]
        public let playback: Playback
    }

    /// Saves the queue's playback position, writing its one row.
    public func savePlayback(_ playback: Playback, of queue: QueueID) throws {
        guard playback.rate.isFinite else {
            throw StoreError(.invalidValue, "the rate \(playback.rate) is not a finite number")
        }
        guard playback.completedLoops >= 0 else {
            throw StoreError(.invalidValue, "a loop count cannot be negative (\(playback.completedLoops))")
        }
        try database.transaction(.immediate) {
            if let current = playback.currentItemID {
                let location = try location(of: current)
                guard location.queue == queue else {
                    throw StoreError(.itemsInDifferentQueues, "\(current) is not in \(queue)")
                }
                guard location.rank != nil else { throw Self.itemNotInList(current) }
            }
            let update = try database.cachedStatement("""
                UPDATE playback SET current_item_id = ?2, playhead_value = ?3, playhead_timescale = ?4, rate = ?5,
                    completed_loops = ?6
                WHERE queue_id = ?1
                """)
            try update.bind(queue.rawValue, playback.currentItemID?.rawValue, playback.playhead.storedValue,
                            playback.playhead.storedTimescale, playback.rate, playback.completedLoops)
            try update.execute()
            guard database.changes == 1 else { throw Self.queueNotFound(queue) }
        }
    }

    /// The queue's saved playback position.
    public func playback(of queue: QueueID) throws -> Playback {
        let select = try database.cachedStatement("""
            SELECT current_item_id, playhead_value, playhead_timescale, rate, completed_loops
            FROM playback WHERE queue_id = ?1
            """)
        try select.bind(queue.rawValue)
        let playback = try select.firstRow { row in
            Playback(currentItemID: row.optionalInt64(0).map(ItemID.init), playhead: try row.mediaTime(1, "playhead"),
                     rate: row.double(3), completedLoops: Int(row.int64(4)))
        }
        guard let playback else { throw Self.queueNotFound(queue) }
        return playback
    }

    /// The queue with its list, history and playback position, read in one snapshot.
    public func restoreQueue(_ id: QueueID) throws -> RestoredQueue {
        try database.transaction(.deferred) {
            RestoredQueue(queue: try queue(id), items: try items(in: id), history: try history(of: id),
                          playback: try playback(of: id))
        }
    }

    /// Every queue, as ``restoreQueue(_:)`` gives it, from one snapshot.
    public func restoreAllQueues() throws -> [RestoredQueue] {
        try database.transaction(.deferred) {
            try queues().map { try restoreQueue($0.id) }
        }
    }
}
