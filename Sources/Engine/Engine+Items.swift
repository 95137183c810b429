import Foundation
import Loader
import MediaTime
import QueueCore
import Store

/// Where an item goes in a queue's list.
public enum ItemPosition: Sendable, Hashable {
    /// After the last entry.
    case end
    /// Right after this entry.
    case after(ItemID)
    /// At this final index (0 is the front).
    case index(Int)
}

/// An item to add: a URL (`http`, `https`, `file:` or an absolute path) and a title.
public struct NewItem: Sendable, Hashable {
    public var url: String
    public var title: String?

    public init(url: String, title: String? = nil) {
        self.url = url
        self.title = title
    }
}

/// What `updateItem` changes; nil fields stay as they are.
public struct ItemChanges: Sendable, Hashable {
    /// `.some(nil)` removes the title.
    public var title: String??
    public var preferences: PlayerItem.Preferences?
    /// The rendition to use per characteristic.
    public var mediaSelections: [MediaCharacteristic: MediaSelection]?
    /// `.some(nil)` removes the item's own loop.
    public var loop: ItemLoop??

    public init(
        title: String?? = nil, preferences: PlayerItem.Preferences? = nil,
        mediaSelections: [MediaCharacteristic: MediaSelection]? = nil, loop: ItemLoop?? = nil
    ) {
        self.title = title
        self.preferences = preferences
        self.mediaSelections = mediaSelections
        self.loop = loop
    }
}

extension Engine {
    static let maximumTitleLength = 1_000
    static let maximumURLLength = 8_192

    /// Adds one item; its id comes from the Store. Returns it.
    ///
    /// Refused: `notFound` (queue); `validationFailed` (`url`, `title`); `cannotInsert` with
    /// `anchorNotInQueue` or `indexOutOfRange` (with consume on, nothing goes before the
    /// current item).
    public func addItem(_ item: NewItem, to queue: QueueID, at position: ItemPosition = .end) throws(EngineError) -> ItemState {
        let states = try insert([item], into: queue, at: position, field: { name, _ in name })
        guard let state = states.first else { throw EngineError.queueNotFound(queue) }
        return state
    }

    /// Adds `items` in order at `position`, in one transaction: all of them or none.
    ///
    /// Refused as ``addItem(_:to:at:)``; `validationFailed` names the entry (`items[3].url`).
    public func importItems(
        _ items: [NewItem], into queue: QueueID, at position: ItemPosition = .end
    ) throws(EngineError) -> [ItemState] {
        guard !items.isEmpty else { throw EngineError(.validationFailed, field: "items", "there is nothing to import") }
        return try insert(items, into: queue, at: position, field: { "items[\($1)].\($0)" })
    }

    private func insert(
        _ items: [NewItem], into id: QueueID, at position: ItemPosition, field: (String, Int) -> String
    ) throws(EngineError) -> [ItemState] {
        var prepared: [PlayerItem] = []
        prepared.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let url = try Self.validURL(item.url, field: field("url", index))
            let title = try Self.validTitle(item.title, field: field("title", index))
            let kind: PlayerItem.Kind = switch MediaKind.detect(url: url) {
            case .hls: .hls
            case .mediaFile: .mediaFile
            case nil: .unknown
            }
            // The id is the Store's, known only once the row is written.
            prepared.append(PlayerItem(id: ItemID("new"), url: url, title: title, kind: kind))
        }
        guard let probe = prepared.first else { return [] }
        var ids: [ItemID] = []
        try commit(id, RefusalContext(isInsertion: true), check: { player in
            let refusal = switch position {
            case .end: player.canInsert(probe, after: nil)
            case .after(let anchor): player.canInsert(probe, after: anchor)
            case .index(let index): player.canInsert(probe, at: index)
            }
            return refusal.map { EngineError($0, RefusalContext(isInsertion: true)) }
        }) { store, player in
            // The rows go in first, at the place the player will put the items: their ids
            // are the Store's.
            let rows = try store.insertItems(
                prepared.map(StoreRecords.attributes), into: id.stored, at: Self.storePosition(position, in: player))
            var commands: [QueueCommand] = []
            var previous: ItemID?
            for (row, item) in zip(rows, prepared) {
                let stored = PlayerItem(id: ItemID(row.id), url: item.url, title: item.title, kind: item.kind)
                if let previous {
                    commands.append(.insert(stored, after: previous))
                } else {
                    switch position {
                    case .end: commands.append(.insert(stored, after: nil))
                    case .after(let anchor): commands.append(.insert(stored, after: anchor))
                    case .index(let index): commands.append(.insertAt(stored, index: index))
                    }
                }
                previous = stored.id
            }
            ids = rows.map { ItemID($0.id) }
            return (commands, Set(ids))
        }
        return ids.compactMap { itemState($0, in: id) }
    }

    /// Where the Store puts rows that the player inserts at `position`.
    static func storePosition(_ position: ItemPosition, in player: QueuePlayer) -> Store.Position {
        switch position {
        case .end:
            return .last
        case .after(let anchor):
            return anchor.stored.map(Store.Position.after) ?? .last
        case .index(let index):
            guard index > 0, let before = player.item(at: index - 1)?.id.stored else { return .first }
            return .after(before)
        }
    }

    /// The item (from the list, else its latest history entry) at this instant.
    public func item(_ item: ItemID, in queue: QueueID) throws(EngineError) -> ItemState {
        try requireQueue(queue)
        tick(queue)
        guard let state = itemState(item, in: queue) else { throw EngineError.itemNotFound(item, in: queue) }
        return state
    }

    /// Changes an item's title, preferences, rendition choices and loop, in one transaction.
    ///
    /// Refused: `notFound`; `validationFailed` with `field` `title`, `preferences`,
    /// `selectedMedia` or `loop`.
    public func updateItem(_ item: ItemID, in queue: QueueID, _ changes: ItemChanges) throws(EngineError) -> ItemState {
        var commands: [(QueueCommand, String)] = []
        if let title = changes.title {
            commands.append((.setTitle(try Self.validTitle(title, field: "title"), of: item), "title"))
        }
        if let preferences = changes.preferences { commands.append((.setPreferences(preferences, of: item), "preferences")) }
        for (characteristic, selection) in (changes.mediaSelections ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            commands.append((.selectMediaOption(selection, for: characteristic, of: item), "selectedMedia"))
        }
        if let loop = changes.loop { commands.append((.setLoop(loop, of: item), "loop")) }
        try commit(queue, check: { player in
            guard player.item(item) != nil else { return EngineError.itemNotFound(item, in: queue) }
            return Self.firstRefusal(of: commands, by: player)
        }) { _, _ in (commands.map(\.0), []) }
        guard let state = itemState(item, in: queue) else { throw EngineError.itemNotFound(item, in: queue) }
        return state
    }

    /// Removes an item from the list (the current one: playback moves on as after an
    /// advance).
    public func removeItem(_ item: ItemID, from queue: QueueID) throws(EngineError) {
        try commit(queue, check: { player in
            player.item(item) == nil ? EngineError.itemNotFound(item, in: queue) : nil
        }) { _, _ in ([.remove(item)], []) }
    }

    /// Moves an item of the list; the current item stays current with its playhead.
    /// Returns the queue's snapshot, which lists at most ``EngineConfiguration/eventItemLimit``
    /// items.
    ///
    /// Refused: `notFound`; `commandRefused` with `anchorNotInQueue` or `indexOutOfRange`.
    public func moveItem(_ item: ItemID, in queue: QueueID, to position: ItemPosition) throws(EngineError) -> QueueState {
        let command: QueueCommand = switch position {
        case .end: .move(item, after: nil)
        case .after(let anchor): .move(item, after: anchor)
        case .index(let index): .moveTo(item, index: index)
        }
        let committed = try commit(queue, check: { player in
            guard player.item(item) != nil else { return EngineError.itemNotFound(item, in: queue) }
            return player.validate(command).map { EngineError($0, RefusalContext(field: "after")) }
        }) { _, _ in ([command], []) }
        return try snapshot(queue, committed)
    }

    // MARK: - Validation

    static func validURL(_ url: String, field: String) throws(EngineError) -> String {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        func refuse(_ why: String) -> EngineError {
            EngineError(.validationFailed, field: field, "\"\(url.prefix(200))\" is not a media URL: \(why)")
        }
        guard !trimmed.isEmpty else { throw refuse("it is empty") }
        guard trimmed.count <= maximumURLLength else { throw refuse("it is longer than \(maximumURLLength) characters") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
            throw refuse("it contains spaces or control characters")
        }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let components = URLComponents(string: trimmed), let host = components.host, !host.isEmpty else {
                throw refuse("it has no host")
            }
            return trimmed
        }
        if lowered.hasPrefix("file://") {
            guard let components = URLComponents(string: trimmed), components.path.hasPrefix("/") else {
                throw refuse("a file URL needs an absolute path")
            }
            return trimmed
        }
        guard trimmed.hasPrefix("/") else { throw refuse("use http, https, file or an absolute path") }
        return trimmed
    }

    static func validTitle(_ title: String?, field: String) throws(EngineError) -> String? {
        guard let title else { return nil }
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= maximumTitleLength else {
            throw EngineError(.validationFailed, field: field, "a title has at most \(maximumTitleLength) characters")
        }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The snapshot a committed request answers with: the one its event carried, else one
    /// as long. Either lists at most ``EngineConfiguration/eventItemLimit`` items, so that
    /// the answer to a change in a queue of 100,000 items is not 100,000 items long.
    func snapshot(_ id: QueueID, _ committed: Committed) throws(EngineError) -> QueueState {
        if let published = committed.published { return published }
        guard let state = queueState(id, itemLimit: configuration.eventItemLimit) else { throw EngineError.queueNotFound(id) }
        return state
    }

    func state(_ id: QueueID) throws(EngineError) -> QueueState {
        guard let state = queueState(id) else { throw EngineError.queueNotFound(id) }
        return state
    }
}
