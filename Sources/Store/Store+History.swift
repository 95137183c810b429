extension Store {
    /// Moves an item of a list to the end of its queue's history, as `consume` does when the
    /// item has played, writing its own row. When the history grows past
    /// ``Configuration/historyLimit``, its oldest items are deleted. If the item was current,
    /// its queue has no current item until ``savePlayback(_:of:)`` names one (in the same
    /// ``transaction(_:)``, typically): a current item is always in its queue's list.
    public func moveItemToHistory(_ item: ItemID) throws {
        try database.transaction(.immediate) {
            let location = try location(of: item)
            guard location.rank != nil else { throw Self.itemNotInList(item) }
            let last = try database.cachedStatement("""
                SELECT history_sequence FROM items WHERE queue_id = ?1 AND history_sequence IS NOT NULL
                ORDER BY history_sequence DESC LIMIT 1
                """)
            try last.bind(location.queue.rawValue)
            let sequence = (try last.firstRow { $0.int64(0) } ?? 0) + 1
            let update = try database.cachedStatement(
                "UPDATE items SET rank = NULL, history_sequence = ?2 WHERE id = ?1")
            try update.bind(item.rawValue, sequence)
            try update.execute()
            let uncurrent = try database.cachedStatement(
                "UPDATE playback SET current_item_id = NULL WHERE current_item_id = ?1")
            try uncurrent.bind(item.rawValue)
            try uncurrent.execute()
            let prune = try database.cachedStatement(
                "DELETE FROM items WHERE queue_id = ?1 AND history_sequence <= ?2")
            try prune.bind(location.queue.rawValue, sequence - Int64(configuration.historyLimit))
            try prune.execute()
        }
    }

    /// Brings an item of a history back into its queue's list at `position`, as `previous()`
    /// does with `consume` on, writing its own row only.
    public func restoreItemFromHistory(_ item: ItemID, to position: Position) throws {
        try database.transaction(.immediate) {
            let location = try location(of: item)
            guard location.rank == nil else {
                throw StoreError(.itemNotInHistory, "\(item) is in its queue's list, not in its history")
            }
            let gap = try gap(at: position, in: location.queue, moving: [item])
            guard let rank = Rank.between(gap.lower, gap.upper) else {
                throw Self.unorderedRanks(gap, in: location.queue)
            }
            let update = try database.cachedStatement(
                "UPDATE items SET rank = ?2, history_sequence = NULL WHERE id = ?1")
            try update.bind(item.rawValue, rank)
            try update.execute()
        }
    }

    /// The queue's history, oldest first: at most ``Configuration/historyLimit`` items.
    public func history(of queue: QueueID) throws -> [Item] {
        try database.transaction(.deferred) {
            try requireQueue(queue)
            let select = try database.cachedStatement("""
                SELECT \(Self.itemColumns) FROM items WHERE queue_id = ?1 AND history_sequence IS NOT NULL
                ORDER BY history_sequence
                """)
            try select.bind(queue.rawValue)
            var items: [Item] = []
            try select.forEachRow { items.append(try Self.decodeItem($0)) }
            return items
        }
    }

    /// Deletes the queue's history.
    public func clearHistory(of queue: QueueID) throws {
        try database.transaction(.immediate) {
            try requireQueue(queue)
            let delete = try database.cachedStatement(
                "DELETE FROM items WHERE queue_id = ?1 AND history_sequence IS NOT NULL")
            try delete.bind(queue.rawValue)
            try delete.execute()
        }
    }
}
