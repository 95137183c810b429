import MediaTime
import QueueCore
import Store

/// The Store calls that make one transition of a queue durable, worked out from the
/// transition's outcome and the queue player's state after it.
///
/// The queue player lists each durable change as a `QueueEdit` (docs/STORAGE.md maps each to
/// its call). The plan keeps the structural edits in their order — the list and the history
/// change exactly as in memory — and writes the values that only get overwritten (an item's
/// attributes and playhead, the settings, the current item and rate) once each, at the end,
/// from the final state. That also skips writes for items that left the list within the same
/// transition.
///
/// A plan is a value: a transition's plan can wait (when a write failed) and run before the
/// next one, and it means the same then.
struct StorePlan: Equatable {
    enum Operation: Equatable {
        case reinsert(Store.Item, at: Store.Position)
        case move([Store.ItemID], to: Store.Position)
        case remove(Store.ItemID)
        case removeAll
        case appendHistory(Store.HistoryEntry)
        case removeHistory(serial: Int64)
        case update(Store.Item)
        case playhead(MediaTime, of: Store.ItemID)
        case settings(Store.QueueSettings)
        case playback(Store.Playback)
    }

    private(set) var operations: [Operation] = []

    var isEmpty: Bool { operations.isEmpty }

    /// Whether the plan saves the current item's playhead or the playback row.
    var savesPlayback: Bool {
        operations.contains { if case .playback = $0 { true } else { false } }
    }

    init() {}

    /// The plan for `outcomes`, in order, of the queue whose player is now `player`. Items in
    /// `newItems` were inserted into the Store already (an add gets its id from the Store
    /// before the player inserts it).
    init(
        _ outcomes: [QueueOutcome], player: QueuePlayer, queue: Store.QueueID, newItems: Set<ItemID> = [],
        savingPlayback: Bool = false
    ) {
        var touchedItems: [ItemID] = []
        var playheads: [ItemID] = []
        var settingsChanged = false
        var playbackChanged = savingPlayback
        var historyBySerial: [Int64: QueueCore.HistoryEntry]?
        // Items that came back and left again within the transition: never written.
        var skipped: Set<ItemID> = []

        func stored(_ id: ItemID) -> Store.ItemID? { id.stored }
        func position(after anchor: ItemID?) -> Store.Position? {
            guard let anchor else { return .first }
            return stored(anchor).map(Store.Position.after)
        }

        for outcome in outcomes {
            for notification in outcome.notifications {
                if case .rateChanged = notification { playbackChanged = true }
            }
            for effect in outcome.effects {
                switch effect {
                case .persist(let edit):
                    switch edit {
                    case .inserted(let id, let anchor):
                        guard !newItems.contains(id) else { continue }
                        guard let item = player.item(id), let record = Self.record(item, queue: queue),
                              let at = position(after: anchor) else {
                            skipped.insert(id)
                            continue
                        }
                        operations.append(.reinsert(record, at: at))
                    case .moved(let id, let anchor):
                        guard let itemID = stored(id), let at = position(after: anchor) else { continue }
                        operations.append(.move([itemID], to: at))
                    case .reordered(let anchor, let ids):
                        guard let at = position(after: anchor) else { continue }
                        operations.append(.move(ids.compactMap(stored), to: at))
                    case .removed(let id):
                        guard let itemID = stored(id), skipped.remove(id) == nil else { continue }
                        operations.append(.remove(itemID))
                    case .removedAll:
                        operations.append(.removeAll)
                    case .historyAppended(let serial):
                        if historyBySerial == nil {
                            historyBySerial = Dictionary(player.history.map { ($0.serial, $0) }) { first, _ in first }
                        }
                        // An entry that fell out again within the transition is not written.
                        guard let entry = historyBySerial?[serial], let record = Self.record(entry.item, queue: queue) else { continue }
                        operations.append(.appendHistory(Store.HistoryEntry(serial: serial, item: record)))
                    case .historyRemoved(let serial):
                        operations.append(.removeHistory(serial: serial))
                    case .item(let id):
                        touchedItems.append(id)
                    case .currentItem:
                        playbackChanged = true
                    case .settings:
                        settingsChanged = true
                    }
                case .persistPlayhead(let id, _):
                    playheads.append(id)
                case .startLoading, .stopLoading, .loadFrom, .applyLoadingPreferences:
                    break
                }
            }
        }
        var written: Set<ItemID> = []
        for id in touchedItems where !newItems.contains(id) && written.insert(id).inserted {
            guard let item = player.item(id), let record = Self.record(item, queue: queue) else { continue }
            operations.append(.update(record))
        }
        for id in playheads where !written.contains(id) && written.insert(id).inserted {
            guard let item = player.item(id), let itemID = stored(id) else { continue }
            operations.append(.playhead(item.currentTime, of: itemID))
        }
        if settingsChanged { operations.append(.settings(StoreRecords.settings(player.settings))) }
        if playbackChanged {
            let current = player.currentItemID.flatMap(stored)
            operations.append(.playback(Store.Playback(currentItemID: current, rate: player.rate)))
            if let id = player.currentItemID, !written.contains(id), let itemID = stored(id), let item = player.currentItem {
                operations.append(.playhead(item.currentTime, of: itemID))
            }
        }
    }

    /// This plan followed by `later`.
    mutating func append(_ later: StorePlan) {
        operations += later.operations
    }

    /// Runs the plan's calls on `store`, inside the caller's transaction.
    func execute(on store: Store, queue: Store.QueueID) throws {
        for operation in operations {
            switch operation {
            case .reinsert(let item, let position): try store.reinsertItem(item, at: position)
            case .move(let items, let position): try store.moveItems(items, to: position)
            case .remove(let item): try store.removeItem(item)
            case .removeAll: try store.removeAllItems(in: queue)
            case .appendHistory(let entry): try store.appendHistoryEntry(entry)
            case .removeHistory(let serial): try store.removeHistoryEntry(serial: serial, of: queue)
            case .update(let item): try store.updateItem(item)
            case .playhead(let time, let item): try store.savePlayhead(time, of: item)
            case .settings(let settings): try store.updateQueueSettings(queue, settings)
            case .playback(let playback): try store.savePlayback(playback, of: queue)
            }
        }
    }

    static func record(_ item: PlayerItem, queue: Store.QueueID) -> Store.Item? {
        item.id.stored.map { Store.Item(id: $0, queueID: queue, attributes: StoreRecords.attributes(item)) }
    }
}
