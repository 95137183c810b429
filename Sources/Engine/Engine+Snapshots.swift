import Foundation
import MediaTime
import QueueCore

// The values the API returns, built from a queue's present state.

extension Engine {
    /// The most item snapshots a queue keeps between transitions. The snapshots a long
    /// queue's events and answers list (its first items) stay kept, so that a change to it
    /// costs as much as to a short one, while its memory per item stays within budget; the
    /// rest are built when asked.
    static let stateCacheLimit = 10_000

    /// The queue's snapshot, listing at most `itemLimit` items. `lastEventID` is the last
    /// event it includes: the last one published, or the event about to carry it.
    func queueState(_ id: QueueID, itemLimit: Int = .max, lastEventID: EventID? = nil) -> QueueState? {
        assert(stateCacheIsFresh(id))
        guard let (state, built, history) = buildQueueState(id, itemLimit: itemLimit, lastEventID: lastEventID) else {
            return nil
        }
        // Kept once the snapshot no longer shares the cache's storage.
        if !built.isEmpty { running[id]?.itemStates.merge(built) { _, new in new } }
        if let history { running[id]?.historyStates = history }
        return state
    }

    /// The snapshot, the item snapshots it built that may be kept, and the history's when
    /// it was built.
    private func buildQueueState(
        _ id: QueueID, itemLimit: Int, lastEventID: EventID?
    ) -> (QueueState, [ItemID: ItemState], [ItemState]?)? {
        guard let queue = running[id] else { return nil }
        let player = queue.player
        let policy = player.configuration.bufferPolicy
        let current = player.currentItemID
        var built: [ItemID: ItemState] = [:]
        let items = player.itemIDs(limit: itemLimit).compactMap { itemID -> ItemState? in
            if itemID != current, let cached = queue.itemStates[itemID] { return cached }
            guard let item = player.item(itemID) else { return nil }
            let state = Self.itemState(item, side: queue.sides[itemID], policy: policy)
            if itemID != current, queue.itemStates.count + built.count < Self.stateCacheLimit { built[itemID] = state }
            return state
        }
        let history: [ItemState]
        var builtHistory: [ItemState]?
        if let cached = queue.historyStates {
            history = cached
        } else {
            // The history is bounded by the player's history limit.
            history = player.history.map { Self.itemState($0.item, side: nil, policy: policy) }
            builtHistory = history
        }
        let state = QueueState(
            id: id, name: queue.name, settings: player.settings, rate: player.rate,
            timeControlStatus: player.timeControlStatus, reasonForWaitingToPlay: player.reasonForWaitingToPlay,
            currentItemID: current, currentIndex: player.currentIndex, currentTime: player.currentTime,
            serverTime: clock.wallClockNow(), items: items, itemCount: player.count, history: history,
            lastEventID: lastEventID ?? events.lastEventID)
        return (state, built, builtHistory)
    }

    /// Drops the kept snapshots of every item `outcomes` mention.
    func invalidateStates(for outcomes: [QueueOutcome], in id: QueueID) {
        guard running[id].map({ !$0.itemStates.isEmpty || $0.historyStates != nil }) == true else { return }
        var stale: [ItemID] = []
        var everything = false
        var history = false
        for outcome in outcomes {
            for notification in outcome.notifications {
                switch notification {
                case .currentItemChanged(let from, let to):
                    stale += [from, to].compactMap { $0 }
                case .statusChanged(let item, let status):
                    stale.append(item)
                    if case .failed = status { history = true }
                case .didPlayToEndTime(let item), .failedToPlayToEndTime(let item, _), .playbackStalled(let item),
                     .timeJumped(let item, _), .newAccessLogEntry(let item), .newErrorLogEntry(let item),
                     .itemLooped(let item, _), .boundaryTimeCrossed(_, let item, _), .itemStateChanged(let item):
                    stale.append(item)
                case .periodicTime(_, let item, _):
                    if let item { stale.append(item) }
                case .historyChanged:
                    history = true
                case .settingsChanged:
                    everything = true
                case .itemsChanged, .rateChanged, .timeControlStatusChanged, .seekCompleted:
                    break
                }
            }
            for effect in outcome.effects {
                switch effect {
                case .startLoading(let item), .stopLoading(let item), .loadFrom(let item, _),
                     .applyLoadingPreferences(let item), .persistPlayhead(let item, _):
                    stale.append(item)
                case .persist(let edit):
                    switch edit {
                    case .inserted(let item, _), .moved(let item, _), .removed(let item), .item(let item):
                        stale.append(item)
                    case .reordered(_, let items):
                        stale += items
                    case .currentItem(let item):
                        if let item { stale.append(item) }
                    case .historyAppended, .historyRemoved:
                        history = true
                    case .removedAll, .settings:
                        everything = true
                    }
                }
            }
        }
        if everything {
            running[id]?.itemStates = [:]
            running[id]?.historyStates = nil
            return
        }
        for item in stale { running[id]?.itemStates[item] = nil }
        if history { running[id]?.historyStates = nil }
    }

    /// Whether every kept item snapshot still shows its item as the player has it: checked in
    /// debug builds, it catches a transition that changed an item without saying so.
    func stateCacheIsFresh(_ id: QueueID) -> Bool {
        guard let queue = running[id] else { return true }
        for (itemID, state) in queue.itemStates {
            guard queue.player.item(itemID) == state.item,
                  state.live?.status == queue.sides[itemID]?.live,
                  state.cacheHits == (queue.sides[itemID]?.cacheHits ?? []) else { return false }
        }
        if let history = queue.historyStates, history.map(\.item) != queue.player.history.map(\.item) { return false }
        return true
    }

    func queueSummary(_ id: QueueID) -> QueueSummary? {
        guard let queue = running[id] else { return nil }
        return QueueSummary(
            id: id, name: queue.name, itemCount: queue.player.count, currentItemID: queue.player.currentItemID,
            timeControlStatus: queue.player.timeControlStatus, rate: queue.player.rate)
    }

    /// The item `item` of queue `id`'s list, else its most recent history entry.
    func itemState(_ item: ItemID, in id: QueueID) -> ItemState? {
        guard let queue = running[id] else { return nil }
        let policy = queue.player.configuration.bufferPolicy
        if let listed = queue.player.item(item) {
            return Self.itemState(listed, side: queue.sides[item], policy: policy)
        }
        return queue.player.history.last { $0.item.id == item }.map { Self.itemState($0.item, side: nil, policy: policy) }
    }

    static func itemState(_ item: PlayerItem, side: ItemSide?, policy: BufferPolicy) -> ItemState {
        let live = side?.live.map { status in
            LiveState(
                status: status, latency: status.liveEdge.distance(from: item.currentTime),
                health: (side?.health.values).map { $0.sorted { $0.since < $1.since } } ?? [])
        }
        return ItemState(
            item: item, buffer: item.bufferStatus(policy: policy), currentVariantURI: side?.variantURI, live: live,
            cacheHits: side?.cacheHits ?? [])
    }
}

extension MediaTime {
    /// `self − earlier`, rounded to the nanosecond when the exact difference does not fit.
    func distance(from earlier: MediaTime) -> MediaTime {
        let exact = self - earlier
        if exact.isValid { return exact }
        guard let end = seconds, let start = earlier.seconds else { return exact }
        return MediaTime(seconds: end - start)
    }
}
