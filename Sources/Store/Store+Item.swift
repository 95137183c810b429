import Foundation
import MediaTime

extension Store {
    /// An item's identifier: assigned by the store when the item is inserted and never
    /// changed or reused (SQLite's AUTOINCREMENT), across restarts and deletions alike.
    public struct ItemID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
        public let rawValue: Int64

        public init(rawValue: Int64) {
            self.rawValue = rawValue
        }

        public static func < (lhs: ItemID, rhs: ItemID) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        public var description: String {
            "item \(rawValue)"
        }
    }

    /// A stored item: its identity and the attributes that survive a restart.
    ///
    /// The attributes read as the item's own properties (`item.url`, `item.status`).
    @dynamicMemberLookup
    public struct Item: Hashable, Sendable {
        public let id: ItemID
        public let queueID: QueueID
        public var attributes: ItemAttributes

        public init(id: ItemID, queueID: QueueID, attributes: ItemAttributes) {
            self.id = id
            self.queueID = queueID
            self.attributes = attributes
        }

        public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ItemAttributes, Value>) -> Value {
            get { attributes[keyPath: keyPath] }
            set { attributes[keyPath: keyPath] = newValue }
        }
    }

    /// What the store keeps of an item, apart from its identity and position: what the
    /// queue player needs to rebuild it after a restart.
    ///
    /// `url` is fixed when the item is inserted (re-adding a URL makes a new item); the other
    /// attributes change with ``updateItem(_:)`` and ``savePlayhead(_:of:)``.
    public struct ItemAttributes: Hashable, Sendable {
        public var url: String
        public var title: String?
        public var kind: ItemKind
        /// The last status known when the store wrote the item.
        public var status: ItemStatus
        /// Where the item resumes.
        public var playhead: MediaTime
        public var preferences: ItemPreferences
        /// The rendition chosen in each media-selection group, by the group's characteristic
        /// ("audible", "legible"); a group that is missing is chosen automatically.
        public var mediaSelections: [String: MediaSelection]
        /// How this item repeats on its own; nil when it follows its queue's loop mode.
        public var loop: ItemLoop?

        public init(url: String, title: String? = nil, kind: ItemKind = .unknown, status: ItemStatus = .unknown,
                    playhead: MediaTime = .zero, preferences: ItemPreferences = ItemPreferences(),
                    mediaSelections: [String: MediaSelection] = [:], loop: ItemLoop? = nil) {
            self.url = url
            self.title = title
            self.kind = kind
            self.status = status
            self.playhead = playhead
            self.preferences = preferences
            self.mediaSelections = mediaSelections
            self.loop = loop
        }

        func validate() throws {
            try preferences.validate()
            try loop?.validate()
        }
    }

    public enum ItemKind: String, Hashable, Sendable, CaseIterable {
        case hls, mediaFile, unknown
    }

    /// AVPlayerItem's playback preferences. The defaults are AVFoundation's.
    public struct ItemPreferences: Hashable, Sendable {
        /// The forward buffer to aim for; zero lets the player choose.
        public var preferredForwardBufferDuration: MediaTime
        /// The highest bit rate to pick, in bits per second; zero for no limit.
        public var preferredPeakBitRate: Double
        /// Where playback ends going forward; nil for the item's end.
        public var forwardPlaybackEndTime: MediaTime?
        /// Where playback ends going backward; nil for the item's start.
        public var reversePlaybackEndTime: MediaTime?

        public init(preferredForwardBufferDuration: MediaTime = .zero, preferredPeakBitRate: Double = 0,
                    forwardPlaybackEndTime: MediaTime? = nil, reversePlaybackEndTime: MediaTime? = nil) {
            self.preferredForwardBufferDuration = preferredForwardBufferDuration
            self.preferredPeakBitRate = preferredPeakBitRate
            self.forwardPlaybackEndTime = forwardPlaybackEndTime
            self.reversePlaybackEndTime = reversePlaybackEndTime
        }

        /// Whether these are exactly the defaults, down to the timescales: only then does the
        /// store leave them out.
        var isDefault: Bool {
            let defaults = ItemPreferences()
            return preferredPeakBitRate.bitPattern == defaults.preferredPeakBitRate.bitPattern
                && preferredForwardBufferDuration.isStored(like: defaults.preferredForwardBufferDuration)
                && forwardPlaybackEndTime == nil && reversePlaybackEndTime == nil
        }

        func validate() throws {
            guard preferredPeakBitRate.isFinite, preferredPeakBitRate >= 0 else {
                throw StoreError(.invalidValue, "a peak bit rate must be a finite number of at least 0, "
                    + "not \(preferredPeakBitRate)")
            }
        }
    }

    /// A choice in a media-selection group.
    public enum MediaSelection: Hashable, Sendable {
        /// No rendition of the group plays (subtitles off).
        case off
        /// The rendition with this name.
        case option(String)
    }

    /// AVPlayerItem's status, as last known.
    public enum ItemStatus: Hashable, Sendable {
        case unknown, loading, readyToPlay
        case failed(ItemFailure)
    }

    /// Why an item failed: where the code comes from (`http`, `curl`, `avformat`, …), the
    /// code, and a message for people.
    public struct ItemFailure: Hashable, Sendable {
        public var domain: String
        public var code: Int
        public var message: String

        public init(domain: String, code: Int, message: String) {
            self.domain = domain
            self.code = code
            self.message = message
        }
    }

    /// Where items go in a queue's list.
    public enum Position: Hashable, Sendable {
        case first, last
        /// Right after an item of the list.
        case after(ItemID)
        /// Right before an item of the list.
        case before(ItemID)
    }

    // MARK: - Inserting, moving, removing

    /// Inserts `items` together at `position` of the queue's list, in the given order, as one
    /// transaction; returns them with their new ids. Each row written is one new item.
    @discardableResult
    public func insertItems(_ items: [ItemAttributes], into queue: QueueID, at position: Position = .last) throws
        -> [Item] {
        for item in items { try item.validate() }
        return try database.transaction(.immediate) {
            try requireQueue(queue)
            let gap = try gap(at: position, in: queue, moving: [])
            guard let ranks = Rank.sequence(count: items.count, between: gap.lower, and: gap.upper) else {
                throw Self.unorderedRanks(gap, in: queue)
            }
            var inserted: [Item] = []
            inserted.reserveCapacity(items.count)
            var start = 0
            while start < items.count {
                // Rows go in by statements of up to `rowsPerInsert` rows: SQLite then reads and
                // writes the AUTOINCREMENT counter once per statement, not once per row.
                let count = items.count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
                let insert = try database.cachedStatement(count == 1 ? Self.insertOneSQL : Self.insertManySQL)
                for row in 0..<count {
                    let attributes = items[start + row]
                    let first = Int32(row * Self.insertParameterCount + 1)
                    try insert.bind(queue.rawValue, ranks[start + row], attributes.url, from: first)
                    try bindAttributes(attributes, to: insert, from: first + 3)
                }
                try insert.execute()
                // AUTOINCREMENT gives each row the largest id so far plus one, and this
                // transaction holds the write lock: the ids are consecutive.
                let firstID = database.lastInsertedRowID - Int64(count) + 1
                for row in 0..<count {
                    inserted.append(Item(id: ItemID(rawValue: firstID + Int64(row)), queueID: queue,
                                         attributes: items[start + row]))
                }
                start += count
            }
            return inserted
        }
    }

    private static let rowsPerInsert = 64
    private static let insertParameterCount = Int(3 + itemAttributeCount)
    private static let insertOneSQL = insertSQL(rows: 1)
    private static let insertManySQL = insertSQL(rows: rowsPerInsert)

    /// `INSERT INTO items` of `rows` rows of `insertParameterCount` parameters each. They are
    /// plain `?`s, which SQLite numbers in order, to keep the text short: the statement cache
    /// hashes it at every lookup.
    private static func insertSQL(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: insertParameterCount).joined(separator: ",") + ")"
        return "INSERT INTO items (queue_id, rank, url, \(itemAttributeColumns)) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ",")
    }

    /// Inserts one item at `position` of the queue's list and returns it with its new id.
    @discardableResult
    public func insertItem(_ item: ItemAttributes, into queue: QueueID, at position: Position = .last) throws -> Item {
        try insertItems([item], into: queue, at: position)[0]
    }

    /// Moves `items`, which must all be in the same queue's list, to `position` of that list,
    /// keeping their given order. Writes one row per item and nothing else, whatever the
    /// queue's length; moving an item to where it already is writes nothing.
    public func moveItems(_ items: [ItemID], to position: Position) throws {
        guard Set(items).count == items.count else {
            throw StoreError(.invalidPosition, "an item cannot be moved twice at once")
        }
        guard let first = items.first else { return }
        try database.transaction(.immediate) {
            let queue = try location(of: first).queue
            for item in items.dropFirst() {
                guard try location(of: item).queue == queue else {
                    throw StoreError(.itemsInDifferentQueues, "\(first) and \(item) are in different queues")
                }
            }
            let gap = try gap(at: position, in: queue, moving: Set(items))
            if items.count == 1, gap.lowerItem == first || gap.upperItem == first { return }
            guard let ranks = Rank.sequence(count: items.count, between: gap.lower, and: gap.upper) else {
                throw Self.unorderedRanks(gap, in: queue)
            }
            let update = try database.cachedStatement("UPDATE items SET rank = ?2 WHERE id = ?1")
            for (item, rank) in zip(items, ranks) {
                try update.bind(item.rawValue, rank)
                try update.execute()
            }
        }
    }

    /// Moves one item of a list to `position`, writing at most its own row.
    public func moveItem(_ item: ItemID, to position: Position) throws {
        try moveItems([item], to: position)
    }

    /// Deletes `items` from their lists. Their history copies stay; a deleted current item
    /// leaves its queue with no current item.
    public func removeItems(_ items: [ItemID]) throws {
        try database.transaction(.immediate) {
            let delete = try database.cachedStatement("DELETE FROM items WHERE id = ?1")
            for item in items {
                try delete.bind(item.rawValue)
                try delete.execute()
                guard database.changes == 1 else { throw Self.itemNotFound(item) }
            }
        }
    }

    public func removeItem(_ item: ItemID) throws {
        try removeItems([item])
    }

    /// Deletes every item of the queue's list; its history stays.
    public func removeAllItems(in queue: QueueID) throws {
        try database.transaction(.immediate) {
            try requireQueue(queue)
            let delete = try database.cachedStatement("DELETE FROM items WHERE queue_id = ?1 AND rank IS NOT NULL")
            try delete.bind(queue.rawValue)
            try delete.execute()
        }
    }

    /// Writes every attribute of `item` but its URL, which never changes. When the item has
    /// failed, its history copies are marked failed too, as the queue player marks them, so
    /// that none of them brings it back to play.
    public func updateItem(_ item: Item) throws {
        try item.attributes.validate()
        try database.transaction(.immediate) {
            let update = try database.cachedStatement("""
                UPDATE items SET (\(Self.itemAttributeColumns)) =
                    (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)
                WHERE id = ?1
                """)
            try update.bind(item.id.rawValue)
            try bindAttributes(item.attributes, to: update, from: 2)
            try update.execute()
            guard database.changes == 1 else { throw Self.itemNotFound(item.id) }
            guard case .failed(let failure) = item.status else { return }
            let copies = try database.cachedStatement("""
                UPDATE history SET status = 'failed', error_domain = ?2, error_code = ?3, error_message = ?4
                WHERE item_id = ?1
                """)
            try copies.bind(item.id.rawValue, failure.domain, failure.code, failure.message)
            try copies.execute()
        }
    }

    /// Saves where an item of a list resumes, writing its row only: on pause, seek and
    /// advance, and every few seconds while it plays.
    public func savePlayhead(_ playhead: MediaTime, of item: ItemID) throws {
        let stored = playhead.isStored(like: .zero) ? nil : playhead
        try database.transaction(.immediate) {
            let update = try database.cachedStatement(
                "UPDATE items SET playhead_value = ?2, playhead_timescale = ?3 WHERE id = ?1")
            try update.bind(item.rawValue, stored?.storedValue, stored?.storedTimescale)
            try update.execute()
            guard database.changes == 1 else { throw Self.itemNotFound(item) }
        }
    }

    /// Puts an item that left the list back into its queue's list at `position`, under its
    /// own id: one brought back from the history by `previous()`, or enqueued again by a
    /// queue that repeats. Writes its row only.
    public func reinsertItem(_ item: Item, at position: Position) throws {
        try item.attributes.validate()
        try database.transaction(.immediate) {
            try requireQueue(item.queueID)
            let assigned = try database.cachedStatement("SELECT seq FROM sqlite_sequence WHERE name = 'items'")
            guard item.id.rawValue > 0, item.id.rawValue <= (try assigned.firstRow { $0.int64(0) } ?? 0) else {
                throw StoreError(.invalidValue, "\(item.id) was never assigned by this store")
            }
            let existing = try database.cachedStatement("SELECT 1 FROM items WHERE id = ?1")
            try existing.bind(item.id.rawValue)
            guard try existing.firstRow({ _ in true }) == nil else {
                throw StoreError(.itemAlreadyInList, "\(item.id) is already in a queue's list")
            }
            let gap = try gap(at: position, in: item.queueID, moving: [])
            guard let rank = Rank.between(gap.lower, gap.upper) else { throw Self.unorderedRanks(gap, in: item.queueID) }
            let insert = try database.cachedStatement("""
                INSERT INTO items (id, queue_id, rank, url, \(Self.itemAttributeColumns))
                VALUES (?1, ?2, ?3, ?4, \(Array(repeating: "?", count: Int(Self.itemAttributeCount)).joined(separator: ", ")))
                """)
            try insert.bind(item.id.rawValue, item.queueID.rawValue, rank, item.url)
            try bindAttributes(item.attributes, to: insert, from: 5)
            try insert.execute()
        }
    }

    // MARK: - Reading items

    /// The item `id` of a list.
    public func item(_ id: ItemID) throws -> Item {
        let select = try database.cachedStatement("SELECT \(Self.itemColumns) FROM items WHERE id = ?1")
        try select.bind(id.rawValue)
        guard let item = try select.firstRow(Self.decodeItem) else { throw Self.itemNotFound(id) }
        return item
    }

    /// The queue's list, in order.
    public func items(in queue: QueueID) throws -> [Item] {
        try items(in: queue, listing: { $0 })
    }

    /// The queue's list, in order, each item made into an `Entry` as its row is read.
    func items<Entry>(in queue: QueueID, listing entry: (Item) throws -> Entry) throws -> [Entry] {
        try database.transaction(.deferred) {
            try requireQueue(queue)
            // Counted first (the index answers): growing the array instead would copy a long
            // list several times over into fresh memory.
            let count = try database.cachedStatement("SELECT count(*) FROM items WHERE queue_id = ?1")
            try count.bind(queue.rawValue)
            var entries: [Entry] = []
            entries.reserveCapacity(Int(try count.firstRow { $0.int64(0) } ?? 0))
            let select = try database.cachedStatement("""
                SELECT \(Self.itemColumns) FROM items WHERE queue_id = ?1 ORDER BY rank
                """)
            try select.bind(queue.rawValue)
            try select.forEachRow { entries.append(try entry(try Self.decodeItem($0))) }
            return entries
        }
    }

    // MARK: - Positions

    /// The ranks a new or moved item must fall between, and whose ranks they are.
    struct Gap {
        var lower: Rank?
        var lowerItem: ItemID?
        var upper: Rank?
        var upperItem: ItemID?
    }

    /// Where `position` falls in the queue's list: between an item and the one right next to
    /// it, whether that one is moving or not. Since moving items leave their old places, new
    /// ranks in this gap collide with no rank in the list.
    func gap(at position: Position, in queue: QueueID, moving: Set<ItemID>) throws -> Gap {
        switch position {
        case .first:
            let (item, rank) = try neighbour(of: nil, in: queue, after: true)
            return Gap(lower: nil, lowerItem: nil, upper: rank, upperItem: item)
        case .last:
            let (item, rank) = try neighbour(of: nil, in: queue, after: false)
            return Gap(lower: rank, lowerItem: item, upper: nil, upperItem: nil)
        case .after(let anchor), .before(let anchor):
            guard !moving.contains(anchor) else {
                throw StoreError(.invalidPosition, "\(anchor) cannot be moved next to itself")
            }
            let location = try location(of: anchor)
            guard location.queue == queue else {
                throw StoreError(.itemsInDifferentQueues, "\(anchor) is not in \(queue)")
            }
            let anchorRank = location.rank
            if case .after = position {
                let (item, rank) = try neighbour(of: anchorRank, in: queue, after: true)
                return Gap(lower: anchorRank, lowerItem: anchor, upper: rank, upperItem: item)
            }
            let (item, rank) = try neighbour(of: anchorRank, in: queue, after: false)
            return Gap(lower: rank, lowerItem: item, upper: anchorRank, upperItem: anchor)
        }
    }

    /// The item right after (or before) `rank` in the list, or the list's first (last) item
    /// when `rank` is nil; nil at the end of the list.
    private func neighbour(of rank: Rank?, in queue: QueueID, after: Bool) throws -> (ItemID?, Rank?) {
        let sql = switch (rank == nil, after) {
        case (true, true): "SELECT id, rank FROM items WHERE queue_id = ?1 ORDER BY rank LIMIT 1"
        case (true, false): "SELECT id, rank FROM items WHERE queue_id = ?1 ORDER BY rank DESC LIMIT 1"
        case (false, true): "SELECT id, rank FROM items WHERE queue_id = ?1 AND rank > ?2 ORDER BY rank LIMIT 1"
        case (false, false): "SELECT id, rank FROM items WHERE queue_id = ?1 AND rank < ?2 ORDER BY rank DESC LIMIT 1"
        }
        let select = try database.cachedStatement(sql)
        if let rank {
            try select.bind(queue.rawValue, rank)
        } else {
            try select.bind(queue.rawValue)
        }
        let found = try select.firstRow { row in (ItemID(rawValue: row.int64(0)), row.blob(1)) }
        guard let (item, bytes) = found else { return (nil, nil) }
        guard let rank = Rank(bytes: bytes) else {
            throw StoreError(.unreadableValue, "the order key of \(item) is not one this store writes")
        }
        return (item, rank)
    }

    /// Where an item of a list is: its queue and its rank.
    struct Location {
        var queue: QueueID
        var rank: Rank
    }

    func location(of item: ItemID) throws -> Location {
        let select = try database.cachedStatement("SELECT queue_id, rank FROM items WHERE id = ?1")
        try select.bind(item.rawValue)
        guard let (queue, bytes) = try select.firstRow({ row in (row.int64(0), row.blob(1)) })
        else { throw Self.itemNotFound(item) }
        guard let rank = Rank(bytes: bytes) else {
            throw StoreError(.unreadableValue, "the order key of \(item) is not one this store writes")
        }
        return Location(queue: QueueID(rawValue: queue), rank: rank)
    }

    func requireQueue(_ queue: QueueID) throws {
        let select = try database.cachedStatement("SELECT 1 FROM queues WHERE id = ?1")
        try select.bind(queue.rawValue)
        guard try select.firstRow({ _ in true }) != nil else { throw Self.queueNotFound(queue) }
    }

    // MARK: - Columns

    /// The columns of an item after its URL, in `items` and `history` alike: `updateItem`
    /// writes them, and `bindAttributes` binds them, in this order.
    static let itemAttributeColumns = """
        title, kind, status, error_domain, error_code, error_message, media_selections, playhead_value,
        playhead_timescale, has_preferences, preferred_forward_buffer_duration_value,
        preferred_forward_buffer_duration_timescale, preferred_peak_bit_rate, forward_playback_end_time_value,
        forward_playback_end_time_timescale, reverse_playback_end_time_value, reverse_playback_end_time_timescale,
        has_loop, loop_plays, loop_start_value, loop_start_timescale, loop_end_value, loop_end_timescale
        """
    static let itemAttributeCount: Int32 = 23

    /// The columns `decodeItem` reads from `items`.
    static let itemColumns = "id, queue_id, url, \(itemAttributeColumns)"

    func bindAttributes(_ item: ItemAttributes, to statement: Statement, from index: Int32) throws {
        let (status, failure): (String, ItemFailure?) = switch item.status {
        case .unknown: ("unknown", nil)
        case .loading: ("loading", nil)
        case .readyToPlay: ("readyToPlay", nil)
        case .failed(let failure): ("failed", failure)
        }
        let playhead = item.playhead.isStored(like: .zero) ? nil : item.playhead
        let preferences = item.preferences.isDefault ? nil : item.preferences
        let range = item.loop?.timeRange
        try statement.bind(
            item.title, item.kind.rawValue, status, failure?.domain, failure?.code, failure?.message,
            try Self.encodeSelections(item.mediaSelections), playhead?.storedValue, playhead?.storedTimescale,
            preferences != nil,
            preferences?.preferredForwardBufferDuration.storedValue,
            preferences?.preferredForwardBufferDuration.storedTimescale,
            preferences?.preferredPeakBitRate,
            preferences?.forwardPlaybackEndTime?.storedValue, preferences?.forwardPlaybackEndTime?.storedTimescale,
            preferences?.reversePlaybackEndTime?.storedValue, preferences?.reversePlaybackEndTime?.storedTimescale,
            item.loop != nil, item.loop?.plays,
            range?.start.storedValue, range?.start.storedTimescale, range?.end.storedValue, range?.end.storedTimescale,
            from: index)
    }

    /// Decodes an item whose id, queue id, URL and attributes are the row's first columns, in
    /// the order of ``itemColumns``.
    static func decodeItem(_ row: Row) throws -> Item {
        let id = ItemID(rawValue: row.int64(0))
        // Kind and status are compared in place: a restore reads them from every row.
        guard let kind = ItemKind.allCases.first(where: { row.text(4, is: $0.rawValue) }) else {
            throw unreadable("kind", row.text(4), of: id)
        }
        let status: ItemStatus
        if row.text(5, is: "unknown") {
            status = .unknown
        } else if row.text(5, is: "loading") {
            status = .loading
        } else if row.text(5, is: "readyToPlay") {
            status = .readyToPlay
        } else if row.text(5, is: "failed") {
            status = .failed(ItemFailure(domain: row.text(6), code: Int(row.int64(7)), message: row.text(8)))
        } else {
            throw unreadable("status", row.text(5), of: id)
        }
        let playhead = try row.optionalMediaTime(10, "playhead of \(id)") ?? .zero
        let preferences = row.int64(12) == 0 ? ItemPreferences() : ItemPreferences(
            preferredForwardBufferDuration: try row.mediaTime(13, "forward buffer duration of \(id)"),
            preferredPeakBitRate: row.double(15),
            forwardPlaybackEndTime: try row.optionalMediaTime(16, "forward playback end time of \(id)"),
            reversePlaybackEndTime: try row.optionalMediaTime(18, "reverse playback end time of \(id)"))
        let loop = row.int64(20) == 0 ? nil : ItemLoop(plays: row.optionalInt64(21).map { Int($0) },
                                                       timeRange: try row.optionalTimeRange(22, "loop range of \(id)"))
        let attributes = ItemAttributes(url: row.text(2), title: row.optionalText(3), kind: kind, status: status,
                                        playhead: playhead, preferences: preferences,
                                        mediaSelections: try decodeSelections(row.optionalText(9), of: id),
                                        loop: loop)
        return Item(id: id, queueID: QueueID(rawValue: row.int64(1)), attributes: attributes)
    }

    /// The selections as a JSON object with sorted keys, a name for an option and null for
    /// off; NULL when every group is automatic.
    private static func encodeSelections(_ selections: [String: MediaSelection]) throws -> String? {
        guard !selections.isEmpty else { return nil }
        let names: [String: String?] = selections.mapValues { selection in
            switch selection {
            case .off: nil
            case .option(let name): name
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(names), as: UTF8.self)
    }

    private static func decodeSelections(_ text: String?, of item: ItemID) throws -> [String: MediaSelection] {
        guard let text else { return [:] }
        guard let names = try? JSONDecoder().decode([String: String?].self, from: Data(text.utf8)) else {
            throw unreadable("media selections", text, of: item)
        }
        return names.mapValues { name in name.map(MediaSelection.option) ?? .off }
    }

    static func itemNotFound(_ item: ItemID) -> StoreError {
        StoreError(.itemNotFound, "there is no \(item)")
    }

    static func unorderedRanks(_ gap: Gap, in queue: QueueID) -> StoreError {
        StoreError(.unreadableValue, "the order keys around the insertion point in \(queue) are out of order "
            + "(\(gap.lower?.description ?? "start") ≥ \(gap.upper?.description ?? "end"))")
    }
}
