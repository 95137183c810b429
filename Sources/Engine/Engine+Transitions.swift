import Foundation
import Loader
import MediaTime
import QueueCore
import Store

// How every change to a queue goes through the Engine: commands commit (validate → persist →
// apply → publish); ticks and loader reports apply, then persist; both then publish and
// carry out their effects.

/// How a refusal of the queue core maps onto the contract's errors for one request.
struct RefusalContext {
    /// An insertion: position refusals are `cannotInsert`.
    var isInsertion = false
    /// The request field that a refused value came from, for `validationFailed`.
    var field = "command"
}

extension EngineError {
    init(_ refusal: QueueRefusal, _ context: RefusalContext) {
        let message = refusal.message
        switch refusal.reason {
        case .alreadyInQueue:
            self.init(.cannotInsert, reason: "alreadyQueued", message)
        case .itemFailed:
            self.init(context.isInsertion ? .cannotInsert : .commandRefused, reason: "itemFailed", message)
        case .anchorNotInQueue:
            self.init(context.isInsertion ? .cannotInsert : .commandRefused, reason: "anchorNotInQueue", message)
        case .indexOutOfRange, .positionBeforeCurrentItem:
            self.init(context.isInsertion ? .cannotInsert : .commandRefused, reason: "indexOutOfRange", message)
        case .notInQueue:
            self.init(.notFound, message)
        case .noCurrentItem:
            self.init(.commandRefused, reason: "noItem", message)
        case .noNextItem:
            self.init(.commandRefused, reason: "noNextItem", message)
        case .noPreviousItem:
            self.init(.commandRefused, reason: "noHistory", message)
        case .itemNotReadyToPlay:
            self.init(.commandRefused, reason: "itemNotReady", message)
        case .outsideSeekableRanges:
            self.init(.commandRefused, reason: "outsideSeekableRange", message)
        case .leavesLinearPlaybackRange, .jumpsOverLinearPlaybackRange:
            self.init(.commandRefused, reason: "linearPlayback", message)
        case .rateNotSupported:
            self.init(.commandRefused, reason: "rateNotAllowed", message)
        case .invalidTime, .invalidRate, .invalidPreference, .invalidLoop, .unknownMediaSelectionGroup,
             .unknownMediaSelectionOption, .emptySelectionNotAllowed:
            self.init(.validationFailed, field: context.field, message)
        default:
            self.init(.commandRefused, reason: refusal.reason.description, message)
        }
    }
}

extension Engine {
    // MARK: - Commands

    /// What a committed command gives back.
    struct Committed {
        /// One outcome per command, in order.
        var outcomes: [QueueOutcome]
        /// The snapshot the `queueUpdated` event carried, if one was published: the answer
        /// to the request, without building it twice.
        var published: QueueState?
    }

    /// Runs commands on queue `id`: validate → persist → apply → publish.
    ///
    /// 1. Brings the queue to the present and writes what earlier transitions still owe
    ///    (refusing the request if that fails: nothing of it is applied).
    /// 2. `check` validates the request against the present state.
    /// 3. In one transaction, which first takes SQLite's write lock: `prepare` may write rows
    ///    the commands need (an add's new items, a rename) and returns the commands; they are
    ///    applied to the player and their edits written; then the transaction commits.
    /// 4. The effects are carried out and the events published.
    ///
    /// The commands are applied in place, inside the transaction, so that a mutation costs
    /// O(log n) and not a copy of the queue. Most failures to persist (the lock is held, the
    /// database is read-only) happen when the transaction begins, before anything is
    /// applied. If a write fails after the commands were applied (an I/O error, a full
    /// disk), the transaction rolls back and the queue is rebuilt from the database, which
    /// holds exactly the state before the request, with the playhead and rate it had in
    /// memory; only what loaders learned is learned again.
    @discardableResult
    func commit(
        _ id: QueueID, _ context: RefusalContext = RefusalContext(), renaming: String? = nil,
        check: (QueuePlayer) -> EngineError?,
        _ prepare: (Store, QueuePlayer) throws -> (commands: [QueueCommand], newItems: Set<ItemID>)
    ) throws(EngineError) -> Committed {
        try requireQueue(id)
        tick(id)
        if running[id]?.pending.isEmpty == false {
            flush(id)
            if running[id]?.pending.isEmpty == false {
                throw EngineError(.storageFailed, "earlier changes of queue \(id) cannot be saved yet, so nothing new is applied")
            }
        }
        // No copy of the player may be held while the commands run: it would be copied.
        if let error = running[id].flatMap({ check($0.player) }) { throw error }
        let mark = running[id]?.playheadMark
        let rate = running[id]?.player.rate ?? 0
        var outcomes: [QueueOutcome] = []
        var plan = StorePlan()
        do {
            try store.transaction {
                guard let (commands, newItems) = try running[id].map({ try prepare(store, $0.player) }) else { return }
                for command in commands {
                    guard let outcome = try running[id]?.player.apply(command) else { break }
                    outcomes.append(outcome)
                }
                guard let applied = running[id]?.player else { return }
                plan = StorePlan(outcomes, player: applied, queue: id.stored, newItems: newItems)
                try plan.execute(on: store, queue: id.stored)
            }
        } catch {
            if !outcomes.isEmpty { rebuild(id, playhead: mark, rate: rate) }
            if let refusal = error as? QueueRefusal { throw EngineError(refusal, context) }
            if let error = error as? EngineError { throw error }
            throw Self.storageFailure(error)
        }
        if let renaming { running[id]?.name = renaming }
        if plan.savesPlayback { running[id]?.lastPlaybackSave = clock.monotonicNow() }
        let published = afterTransition(id, outcomes, from: mark, persisted: true, queueChanged: renaming != nil)
        return Committed(outcomes: outcomes, published: published)
    }

    /// Rebuilds queue `id` from the database after a transaction that failed once its
    /// commands were applied, keeping the playhead and rate it had before them.
    func rebuild(_ id: QueueID, playhead: (item: ItemID, time: MediaTime)?, rate: Double) {
        for (item, session) in sessions where session.queueID == id {
            stopLoader(for: item)
        }
        guard let record = try? store.restoreQueue(id.stored, listing: StoreRecords.item),
              let player = try? Self.restorePlayer(
                record, configuration: configuration, clock: clock, rate: rate,
                playhead: playhead.map { [$0.item: $0.time] } ?? [:])
        else {
            // The database cannot even be read: keep the queue as it is in memory.
            return
        }
        running[id]?.player = player
        running[id]?.sides = [:]
        running[id]?.pendingItemUpdates = [:]
        running[id]?.itemStates = [:]
        running[id]?.historyStates = nil
        tick(id)
        publishQueueUpdated(id)
    }

    static func storageFailure(_ error: any Error) -> EngineError {
        if let error = error as? StoreError {
            return EngineError(.storageFailed, "the change was not saved, so it was not applied: \(error.message)")
        }
        return EngineError(.storageFailed, "the change was not saved, so it was not applied: \(error)")
    }

    // MARK: - Ticks and reports

    /// Brings queue `id` up to the clock's present.
    func tick(_ id: QueueID) {
        let mark = running[id]?.playheadMark
        guard let outcome = running[id]?.player.tick() else { return }
        afterTransition(id, [outcome], from: mark, persisted: false)
    }

    /// Applies one queue core report to item `item` of queue `id`; a refused report (the
    /// item left the queue, or failed already) is dropped.
    func apply(_ report: QueueCore.LoaderReport, to item: ItemID, in id: QueueID) {
        guard running[id] != nil else { return }
        let mark = running[id]?.playheadMark
        let outcome: QueueOutcome
        do {
            guard let result = try running[id]?.player.report(report, for: item) else { return }
            outcome = result
        } catch {
            return
        }
        afterTransition(id, [outcome], from: mark, persisted: false)
    }

    // MARK: - After every transition

    /// Persists (unless a commit did), carries out the effects, publishes the events and
    /// re-arms the timer.
    @discardableResult
    func afterTransition(
        _ id: QueueID, _ outcomes: [QueueOutcome], from mark: (item: ItemID, time: MediaTime)?, persisted: Bool,
        queueChanged: Bool = false
    ) -> QueueState? {
        guard let player = running[id]?.player else { return nil }
        running[id]?.lastTransition = clock.monotonicNow()
        if !persisted {
            let plan = StorePlan(outcomes, player: player, queue: id.stored)
            if !plan.isEmpty {
                running[id]?.pending.append(plan)
                // After a failed write, wait for the retry rather than wait on the lock again.
                if running[id]?.retryAt == nil { flush(id) }
            }
        }
        invalidateStates(for: outcomes, in: id)
        for outcome in outcomes {
            for effect in outcome.effects { carryOut(effect, in: id) }
        }
        let published = publishEvents(of: outcomes, in: id, from: mark, queueChanged: queueChanged)
        updatePlayheadDirectives(in: id, outcomes: outcomes)
        rescheduleTimer()
        return published
    }

    /// Writes what queue `id` owes the Store. On failure it stays owed and is retried after
    /// ``EngineConfiguration/persistenceRetryInterval`` (or by the next command).
    func flush(_ id: QueueID) {
        guard let queue = running[id], !queue.pending.isEmpty else { return }
        let now = clock.monotonicNow()
        do {
            try store.transaction { try queue.pending.execute(on: store, queue: id.stored) }
            running[id]?.pending = StorePlan()
            running[id]?.retryAt = nil
            if queue.pending.savesPlayback { running[id]?.lastPlaybackSave = now }
        } catch {
            running[id]?.retryAt = now.advanced(by: Self.nanoseconds(configuration.persistenceRetryInterval))
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }

    // MARK: - Effects

    func carryOut(_ effect: QueueEffect, in id: QueueID) {
        switch effect {
        case .startLoading(let item):
            startLoader(for: item, in: id)
        case .stopLoading(let item):
            stopLoader(for: item)
            running[id]?.sides[item]?.live = nil
            running[id]?.sides[item]?.health = [:]
            running[id]?.sides[item]?.variantURI = nil
        case .loadFrom(let item, let time):
            loadFrom(time, item: item, in: id)
        case .applyLoadingPreferences(let item):
            applyPreferences(of: item, in: id)
        case .persist(.removed(let item)):
            running[id]?.sides[item] = nil
            running[id]?.pendingItemUpdates[item] = nil
        case .persist(.removedAll):
            guard let player = running[id]?.player else { return }
            running[id]?.sides = running[id]?.sides.filter { player.item($0.key) != nil } ?? [:]
            running[id]?.pendingItemUpdates = [:]
        case .persist, .persistPlayhead:
            break
        }
    }

    // MARK: - Events

    /// The contract's events for `outcomes`, in the order things happened, then the paced
    /// `itemUpdated` events, then one `queueUpdated` if the queue changed.
    /// Returns the snapshot `queueUpdated` carried, if it was published.
    func publishEvents(
        of outcomes: [QueueOutcome], in id: QueueID, from mark: (item: ItemID, time: MediaTime)?, queueChanged: Bool
    ) -> QueueState? {
        guard let player = running[id]?.player else { return nil }
        var payloads: [EngineEvent.Payload] = []
        var queueChanged = queueChanged
        var updatedItems: [ItemID] = []
        var lastJump: [ItemID: MediaTime] = [:]
        var ended: Set<ItemID> = []
        for notification in outcomes.flatMap(\.notifications) {
            switch notification {
            case .currentItemChanged(let from, let to):
                payloads.append(.currentItemChanged(itemID: to, previousItemID: from))
                queueChanged = true
            case .itemsChanged, .historyChanged, .settingsChanged:
                queueChanged = true
            case .statusChanged(let item, _), .itemStateChanged(let item), .itemLooped(let item, _):
                updatedItems.append(item)
            case .rateChanged(let rate):
                payloads.append(.rateChanged(PlaybackStatus(
                    timeControlStatus: player.timeControlStatus, reasonForWaitingToPlay: player.reasonForWaitingToPlay,
                    rate: rate, currentTime: player.currentTime)))
                queueChanged = true
            case .timeControlStatusChanged(let status, let reason):
                payloads.append(.timeControlStatusChanged(PlaybackStatus(
                    timeControlStatus: status, reasonForWaitingToPlay: reason, rate: player.rate,
                    currentTime: player.currentTime)))
                queueChanged = true
            case .didPlayToEndTime(let item):
                ended.insert(item)
                payloads.append(.didPlayToEndTime(itemID: item))
            case .failedToPlayToEndTime(let item, let failure):
                payloads.append(.failedToPlayToEndTime(itemID: item, error: failure))
            case .playbackStalled(let item):
                stallCount += 1
                payloads.append(.playbackStalled(itemID: item))
            case .timeJumped(let item, let to):
                let from = lastJump[item]
                    ?? (ended.contains(item) ? Self.playbackEnd(of: item, in: player) : nil)
                    ?? (mark?.item == item ? mark?.time : nil)
                    ?? to
                lastJump[item] = to
                payloads.append(.timeJumped(itemID: item, from: from, to: to))
                updatedItems.append(item)
            case .newAccessLogEntry(let item):
                running[id]?.sides[item, default: ItemSide()].cacheHits.append(0)
                if let entry = player.item(item)?.accessLog.last {
                    payloads.append(.newAccessLogEntry(itemID: item, entry: entry))
                }
                trimCacheHits(of: item, in: id)
            case .newErrorLogEntry(let item):
                if let entry = player.item(item)?.errorLog.last {
                    payloads.append(.newErrorLogEntry(itemID: item, entry: entry))
                }
            case .seekCompleted(let seek, let finished):
                payloads.append(.seekCompleted(seekID: seek, finished: finished))
            case .periodicTime, .boundaryTimeCrossed:
                break
            }
        }
        publish(payloads, about: id)
        var seen: Set<ItemID> = []
        for item in updatedItems where seen.insert(item).inserted {
            requestItemUpdate(item, in: id)
        }
        return queueChanged ? publishQueueUpdated(id) : nil
    }

    /// Publishes `queueUpdated` (or `queueCreated`) with the queue's snapshot, which
    /// includes the event that carries it, and returns that snapshot.
    @discardableResult
    func publishQueueUpdated(_ id: QueueID, created: Bool = false) -> QueueState? {
        let eventID = EventID(events.lastEventID.rawValue + 1)
        guard let state = queueState(id, itemLimit: configuration.eventItemLimit, lastEventID: eventID) else { return nil }
        publish([created ? .queueCreated(state) : .queueUpdated(state)], about: id)
        return state
    }

    /// Where forward playback of `item` ends: its loop range's end, else its end time.
    static func playbackEnd(of id: ItemID, in player: QueuePlayer) -> MediaTime? {
        // An item that ended for good may have left the list for the history meanwhile.
        guard let item = player.item(id) ?? player.history.last(where: { $0.item.id == id })?.item else { return nil }
        let loop: ItemLoop? = if case .item(let loop) = player.settings.loopMode { item.loop ?? loop } else { item.loop }
        if let end = loop?.timeRange?.end, end.isNumeric, !item.forwardEnd.isNumeric || end < item.forwardEnd { return end }
        return item.forwardEnd
    }

    func trimCacheHits(of item: ItemID, in id: QueueID) {
        guard let count = running[id]?.player.item(item)?.accessLog.count,
              let hits = running[id]?.sides[item]?.cacheHits, hits.count > count else { return }
        running[id]?.sides[item]?.cacheHits = Array(hits.suffix(count))
    }

    /// Publishes `itemUpdated` for `item` now, or when its pacing interval is over.
    func requestItemUpdate(_ item: ItemID, in id: QueueID) {
        guard let queue = running[id], queue.player.item(item) != nil else { return }
        let now = clock.monotonicNow()
        let interval = Self.nanoseconds(configuration.itemUpdateInterval)
        if let last = queue.sides[item]?.lastPublished, now.nanoseconds - last.nanoseconds < interval {
            if queue.pendingItemUpdates[item] == nil {
                running[id]?.pendingItemUpdates[item] = last.advanced(by: interval)
            }
            return
        }
        publishItemUpdate(item, in: id, at: now)
    }

    func publishItemUpdate(_ item: ItemID, in id: QueueID, at now: MonotonicInstant) {
        running[id]?.pendingItemUpdates[item] = nil
        guard let state = itemState(item, in: id) else { return }
        running[id]?.sides[item, default: ItemSide()].lastPublished = now
        publish([.itemUpdated(state)], about: id)
    }

    // MARK: - The timer

    /// The earliest instant at which queue `id` needs the Engine: a playback deadline, the
    /// next periodic save, a paced event, a retry.
    func deadline(of queue: RunningQueue) -> MonotonicInstant? {
        var earliest: MonotonicInstant?
        func consider(_ instant: MonotonicInstant?) {
            guard let instant else { return }
            earliest = min(earliest ?? instant, instant)
        }
        // Something due at the instant of the last transition was handled by it; never ask
        // for that instant again, or the timer would spin.
        consider(queue.player.nextDeadline.map { max($0, queue.lastTransition.advanced(by: 1_000_000)) })
        if queue.player.timeControlStatus == .playing {
            consider(queue.lastPlaybackSave.advanced(by: Self.nanoseconds(configuration.playheadSaveInterval)))
        }
        if !queue.pending.isEmpty { consider(queue.retryAt) }
        consider(queue.pendingItemUpdates.values.min())
        return earliest
    }

    /// Arms the timer for the earliest deadline of all queues, or disarms it.
    func rescheduleTimer() {
        guard !isShutDown else { return }
        let deadline = running.values.compactMap(deadline(of:)).min()
        guard deadline != timerDeadline else { return }
        timerTask?.cancel()
        timerDeadline = deadline
        guard let deadline else {
            timerTask = nil
            return
        }
        let clock = clock
        timerTask = Task {
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
            self.timerFired(deadline)
        }
    }

    /// Does what is due in every queue.
    func timerFired(_ deadline: MonotonicInstant) {
        guard deadline == timerDeadline, !isShutDown else { return }
        timerDeadline = nil
        timerTask = nil
        let now = clock.monotonicNow()
        for id in running.keys.sorted() {
            // No copy of the queue may live across the tick: the player would be copied.
            guard let due = running[id].flatMap(deadline(of:)), due <= now else { continue }
            tick(id)
            guard let player = running[id]?.player, let saved = running[id]?.lastPlaybackSave else { continue }
            if player.timeControlStatus == .playing,
               now.nanoseconds - saved.nanoseconds >= Self.nanoseconds(configuration.playheadSaveInterval) {
                running[id]?.pending.append(StorePlan([], player: player, queue: id.stored, savingPlayback: true))
                running[id]?.retryAt = nil
            }
            if let retry = running[id]?.retryAt, retry <= now { running[id]?.retryAt = nil }
            if running[id]?.retryAt == nil { flush(id) }
            for (item, due) in running[id]?.pendingItemUpdates ?? [:] where due <= now {
                publishItemUpdate(item, in: id, at: now)
            }
        }
        rescheduleTimer()
    }
}
