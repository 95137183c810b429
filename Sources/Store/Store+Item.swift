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

        public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ItemAttributes, Value>) -> Value {
            get { attributes[keyPath: keyPath] }
            set { attributes[keyPath: keyPath] = newValue }
        }
    }

    /// What the store keeps of an item, apart from its identity and position.
    ///
    /// `url` is fixed when the item is inserted (re-adding a URL makes a new item); the other
    /// attributes change with ``updateItem(_:)``.
    public struct ItemAttributes: Hashable, Sendable {
        public var url: String
        public var title: String?
        public var kind: ItemKind
        public var preferences: ItemPreferences
        /// The chosen rendition in each media-selection group: the group's key (such as
        /// "audible" or "legible") to the rendition's name.
        public var selectedRenditions: [String: String]
        /// How this item repeats on its own; nil when it follows its queue's loop mode.
        public var loop: ItemLoop?
        /// The last status known before the store wrote the item.
        public var status: ItemStatus

        public init(url: String, title: String? = nil, kind: ItemKind = .unknown,
                    preferences: ItemPreferences = ItemPreferences(), selectedRenditions: [String: String] = [:],
                    loop: ItemLoop? = nil, status: ItemStatus = .unknown) {
            self.url = url
            self.title = title
            self.kind = kind
            self.preferences = preferences
            self.selectedRenditions = selectedRenditions
            self.loop = loop
            self.status = status
        }

        func validate() throws {
            try preferences.validate()
            try loop?.validate()
        }
    }

    public enum ItemKind: String, Hashable, Sendable {
        case hls, mediaFile, unknown
    }

    /// AVPlayerItem's playback preferences. The defaults are AVFoundation's.
    public struct ItemPreferences: Hashable, Sendable {
        /// The forward buffer to aim for; zero lets the player choose.
        public var preferredForwardBufferDuration: MediaTime
        /// The highest bit rate to pick, in bits per second; zero for no limit.
        public var preferredPeakBitRate: Double
        /// Where playback ends going forward; invalid for the item's end.
        public var forwardPlaybackEndTime: MediaTime
        /// Where playback ends going backward; invalid for the item's start.
        public var reversePlaybackEndTime: MediaTime

        public init(preferredForwardBufferDuration: MediaTime = .zero, preferredPeakBitRate: Double = 0,
                    forwardPlaybackEndTime: MediaTime = .invalid, reversePlaybackEndTime: MediaTime = .invalid) {
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
                && forwardPlaybackEndTime.isStored(like: defaults.forwardPlaybackEndTime)
                && reversePlaybackEndTime.isStored(like: defaults.reversePlaybackEndTime)
        }

        func validate() throws {
            guard preferredPeakBitRate.isFinite, preferredPeakBitRate >= 0 else {
                throw StoreError(.invalidValue, "a peak bit rate must be a finite number of at least 0, "
                    + "not \(preferredPeakBitRate)")
            }
        }
    }

    /// AVPlayerItem's status, as last known.
    public enum ItemStatus: Hashable, Sendable {
        case unknown, loading, readyToPlay
        case failed(ItemFailure)
    }

    /// Why an item failed: a code that programs branch on, and a message for people.
    public struct ItemFailure: Hashable, Sendable {
        public var code: String
        public var message: String

        public init(code: String, message: String) {
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
    private static let insertParameterCount = 23
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
            let queue = try listedQueue(of: first)
            for item in items.dropFirst() {
                guard try listedQueue(of: item) == queue else {
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

    /// Deletes `items`, from a list or a history. A deleted current item leaves its queue
    /// with no current item.
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

    /// Writes every attribute of `item` but its URL, which never changes.
    public func updateItem(_ item: Item) throws {
        try item.attributes.validate()
        try database.transaction(.immediate) {
            let update = try database.cachedStatement("""
                UPDATE items SET (\(Self.itemAttributeColumns)) =
                    (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)
                WHERE id = ?1
                """)
            try update.bind(item.id.rawValue)
            try bindAttributes(item.attributes, to: update, from: 2)
            try update.execute()
            guard database.changes == 1 else { throw Self.itemNotFound(item.id) }
        }
    }

    // MARK: - Reading items

    /// The item `id`, in a list or a history.
    public func item(_ id: ItemID) throws -> Item {
        let select = try database.cachedStatement("SELECT \(Self.itemColumns) FROM items WHERE id = ?1")
        try select.bind(id.rawValue)
        guard let item = try select.firstRow(Self.decodeItem) else { throw Self.itemNotFound(id) }
        return item
    }

    /// The queue's list, in order.
    public func items(in queue: QueueID) throws -> [Item] {
        try database.transaction(.deferred) {
            try requireQueue(queue)
            let select = try database.cachedStatement("""
                SELECT \(Self.itemColumns) FROM items WHERE queue_id = ?1 AND rank IS NOT NULL ORDER BY rank
                """)
            try select.bind(queue.rawValue)
            var items: [Item] = []
            try select.forEachRow { items.append(try Self.decodeItem($0)) }
            return items
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
            guard let anchorRank = location.rank else { throw Self.itemNotInList(anchor) }
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
        case (true, true): "SELECT id, rank FROM items WHERE queue_id = ?1 AND rank IS NOT NULL ORDER BY rank LIMIT 1"
        case (true, false):
            "SELECT id, rank FROM items WHERE queue_id = ?1 AND rank IS NOT NULL ORDER BY rank DESC LIMIT 1"
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

    /// Where an item is: its queue, and its rank when it is in the list.
    struct Location {
        var queue: QueueID
        var rank: Rank?
    }

    func location(of item: ItemID) throws -> Location {
        let select = try database.cachedStatement("SELECT queue_id, rank FROM items WHERE id = ?1")
        try select.bind(item.rawValue)
        guard let (queue, bytes) = try select.firstRow({ row in (row.int64(0), row.isNull(1) ? nil : row.blob(1)) })
        else { throw Self.itemNotFound(item) }
        guard let bytes else { return Location(queue: QueueID(rawValue: queue), rank: nil) }
        guard let rank = Rank(bytes: bytes) else {
            throw StoreError(.unreadableValue, "the order key of \(item) is not one this store writes")
        }
        return Location(queue: QueueID(rawValue: queue), rank: rank)
    }

    /// The queue whose list holds `item`; throws when the item is missing or in a history.
    private func listedQueue(of item: ItemID) throws -> QueueID {
        let location = try location(of: item)
        guard location.rank != nil else { throw Self.itemNotInList(item) }
        return location.queue
    }

    func requireQueue(_ queue: QueueID) throws {
        let select = try database.cachedStatement("SELECT 1 FROM queues WHERE id = ?1")
        try select.bind(queue.rawValue)
        guard try select.firstRow({ _ in true }) != nil else { throw Self.queueNotFound(queue) }
    }

    // MARK: - Columns

    /// The columns `updateItem` writes, bound by `bindAttributes` in this order.
    static let itemAttributeColumns = """
        title, kind, status, error_code, error_message, selected_renditions, has_preferences,
        preferred_forward_buffer_duration_value, preferred_forward_buffer_duration_timescale, preferred_peak_bit_rate,
        forward_playback_end_time_value, forward_playback_end_time_timescale, reverse_playback_end_time_value,
        reverse_playback_end_time_timescale, has_loop, loop_count, loop_start_value, loop_start_timescale,
        loop_end_value, loop_end_timescale
        """

    /// The columns `decodeItem` reads.
    static let itemColumns = "id, queue_id, url, \(itemAttributeColumns)"

    private func bindAttributes(_ item: ItemAttributes, to statement: Statement, from index: Int32) throws {
        let (status, failure): (String, ItemFailure?) = switch item.status {
        case .unknown: ("unknown", nil)
        case .loading: ("loading", nil)
        case .readyToPlay: ("readyToPlay", nil)
        case .failed(let failure): ("failed", failure)
        }
        let preferences = item.preferences.isDefault ? nil : item.preferences
        let range = item.loop?.timeRange
        try statement.bind(
            item.title, item.kind.rawValue, status, failure?.code, failure?.message,
            try Self.encodeRenditions(item.selectedRenditions), preferences != nil,
            preferences?.preferredForwardBufferDuration.storedValue,
            preferences?.preferredForwardBufferDuration.storedTimescale,
            preferences?.preferredPeakBitRate,
            preferences?.forwardPlaybackEndTime.storedValue, preferences?.forwardPlaybackEndTime.storedTimescale,
            preferences?.reversePlaybackEndTime.storedValue, preferences?.reversePlaybackEndTime.storedTimescale,
            item.loop != nil, item.loop?.count.storedCount,
            range?.start.storedValue, range?.start.storedTimescale, range?.end.storedValue, range?.end.storedTimescale,
            from: index)
    }

    static func decodeItem(_ row: Row) throws -> Item {
        let id = ItemID(rawValue: row.int64(0))
        guard let kind = ItemKind(rawValue: row.text(4)) else { throw unreadable("kind", row.text(4), of: id) }
        let status: ItemStatus
        switch row.text(5) {
        case "unknown": status = .unknown
        case "loading": status = .loading
        case "readyToPlay": status = .readyToPlay
        case "failed": status = .failed(ItemFailure(code: row.text(6), message: row.text(7)))
        case let other: throw unreadable("status", other, of: id)
        }
        let preferences = row.int64(9) == 0 ? ItemPreferences() : ItemPreferences(
            preferredForwardBufferDuration: try row.mediaTime(10, "forward buffer duration of \(id)"),
            preferredPeakBitRate: row.double(12),
            forwardPlaybackEndTime: try row.mediaTime(13, "forward playback end time of \(id)"),
            reversePlaybackEndTime: try row.mediaTime(15, "reverse playback end time of \(id)"))
        let loop = row.int64(17) == 0 ? nil : ItemLoop(count: LoopCount(storedCount: row.optionalInt64(18)),
                                                       timeRange: try row.optionalTimeRange(19, "loop range of \(id)"))
        let attributes = ItemAttributes(url: row.text(2), title: row.optionalText(3), kind: kind,
                                        preferences: preferences,
                                        selectedRenditions: try decodeRenditions(row.optionalText(8), of: id),
                                        loop: loop, status: status)
        return Item(id: id, queueID: QueueID(rawValue: row.int64(1)), attributes: attributes)
    }

    /// The renditions as a JSON object with sorted keys, or NULL when none is chosen.
    private static func encodeRenditions(_ renditions: [String: String]) throws -> String? {
        guard !renditions.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(renditions), as: UTF8.self)
    }

    private static func decodeRenditions(_ text: String?, of item: ItemID) throws -> [String: String] {
        guard let text else { return [:] }
        guard let renditions = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else {
            throw unreadable("selected renditions", text, of: item)
        }
        return renditions
    }

    static func itemNotFound(_ item: ItemID) -> StoreError {
        StoreError(.itemNotFound, "there is no \(item)")
    }

    static func itemNotInList(_ item: ItemID) -> StoreError {
        StoreError(.itemNotInList, "\(item) is in its queue's history, not in its list")
    }

    static func unorderedRanks(_ gap: Gap, in queue: QueueID) -> StoreError {
        StoreError(.unreadableValue, "the order keys around the insertion point in \(queue) are out of order "
            + "(\(gap.lower?.description ?? "start") ≥ \(gap.upper?.description ?? "end"))")
    }
}
