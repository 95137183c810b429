import MediaTime

// Moving the current pointer, passing entries into history, and the loading window: the
// building blocks of the editing and navigation commands.

extension QueuePlayer {
    var loopsQueue: Bool {
        if case .queue = settings.loopMode { return true }
        return false
    }

    /// Ends the current item's stay as current: its stall, its pending seek (completed
    /// unfinished) and its time past the end. Returns its id. The caller then changes the
    /// list and calls ``makeCurrent(_:replacing:at:_:)``.
    mutating func leaveCurrent(at instant: MonotonicInstant, _ out: inout QueueOutcome) -> ItemID? {
        closeStall(at: instant)
        completePendingSeek(finished: false, &out)
        session.timePastEnd = nil
        return currentItemID
    }

    mutating func completePendingSeek(finished: Bool, _ out: inout QueueOutcome) {
        guard let seek = pendingSeek else { return }
        pendingSeek = nil
        out.post(.seekCompleted(seek.id, finished: finished))
    }

    /// Makes `slot` the current entry (nil: none), playing from its start. When it is the
    /// entry that was current, this is a restart.
    mutating func makeCurrent(_ slot: Slot?, replacing oldID: ItemID?, at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        currentSlot = slot
        session = Session()
        if rate != 0 { session.playRequestedAt = instant }
        if let slot {
            list[slot].loopCount = 0
            list[slot].startsAtLiveEdge = true
            list[slot].currentTime = startTime(of: list[slot])
            placeAtLiveEdgeIfUnplaced(slot)
        }
        if rate > 2 || rate < 0 { changeRate(to: settings.defaultRate, at: instant, &out) }
        let newID = slot.map { list[$0].id }
        if newID != oldID {
            out.post(.currentItemChanged(from: oldID, to: newID))
            out.request(.persist(.currentItem(newID)))
        } else if let slot {
            out.post(.timeJumped(list[slot].id, to: list[slot].currentTime))
        }
        if let slot {
            out.request(.persistPlayhead(list[slot].id, list[slot].currentTime))
            observers.timeJumped(item: newID, to: list[slot].currentTime, &out)
        }
        loadingWindowIsStale = true
    }

    /// A live item that was never placed starts at the live edge: the end of its seekable
    /// window, which the loader sets at the edge minus the hold-back.
    mutating func placeAtLiveEdgeIfUnplaced(_ slot: Slot) {
        let item = list[slot]
        guard item.isLive, item.startsAtLiveEdge, let edge = item.seekableTimeRanges.end, edge.isNumeric else { return }
        list[slot].currentTime = max(edge, .zero)
    }

    /// With consume on: `slot` leaves the list for history, or, under queue loop, goes to
    /// the end of the list to play again (failed entries never do).
    mutating func pass(_ slot: Slot, _ out: inout QueueOutcome) {
        let item = list[slot]
        appendHistory(item, &out)
        if loopsQueue && !item.isFailed {
            if let last = list.last, last != slot {
                let lastID = list[last].id
                list.move(slot, to: list.count - 1)
                out.request(.persist(.moved(item.id, after: lastID)))
            }
            list[slot].currentTime = .zero
            list[slot].loopCount = 0
        } else {
            list.remove(slot)
            out.request(.persist(.removed(item.id)))
        }
        out.postOnce(.itemsChanged)
        loadingWindowIsStale = true
    }

    /// With consume on, failed entries that reached the front are passed: they never play.
    mutating func passFailedEntriesAtFront(_ out: inout QueueOutcome) {
        while let first = list.first, list[first].isFailed {
            pass(first, &out)
        }
    }

    mutating func appendHistory(_ item: PlayerItem, _ out: inout QueueOutcome) {
        guard configuration.historyLimit > 0 else { return }
        let entry = HistoryEntry(serial: nextHistorySerial, item: item.atRest())
        nextHistorySerial += 1
        let dropped = historyLog.append(entry)
        out.request(.persist(.historyAppended(serial: entry.serial)))
        if let dropped {
            out.request(.persist(.historyRemoved(serial: dropped.serial)))
        }
        out.postOnce(.historyChanged)
    }

    /// Moves the pointer to the next playable entry, passing the current one (consume on) or
    /// recording it in history (consume off). False, with nothing changed, when consume is
    /// off and there is no next entry.
    mutating func advanceEntry(at instant: MonotonicInstant, _ out: inout QueueOutcome) -> Bool {
        guard let slot = currentSlot else { return false }
        if settings.consume {
            let oldID = leaveCurrent(at: instant, &out)
            pass(slot, &out)
            passFailedEntriesAtFront(&out)
            makeCurrent(list.first, replacing: oldID, at: instant, &out)
            return true
        }
        guard let next = nextPlayableSlot(after: slot) else { return false }
        let oldID = leaveCurrent(at: instant, &out)
        appendHistory(list[slot], &out)
        makeCurrent(next, replacing: oldID, at: instant, &out)
        return true
    }

    /// Deletes the current entry and moves on as ``advanceEntry(at:_:)`` would; with consume
    /// off and nothing after it, the pointer falls back to the entry before it, paused.
    mutating func removeCurrent(at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        guard let slot = currentSlot else { return }
        let oldID = leaveCurrent(at: instant, &out)
        let id = list[slot].id
        if settings.consume {
            list.remove(slot)
            out.request(.persist(.removed(id)))
            out.postOnce(.itemsChanged)
            passFailedEntriesAtFront(&out)
            makeCurrent(list.first, replacing: oldID, at: instant, &out)
            return
        }
        let next = nextPlayableSlot(after: slot).flatMap { $0 == slot ? nil : $0 }
        let fallback = next == nil ? (list.predecessor(of: slot) ?? list.successor(of: slot)) : nil
        list.remove(slot)
        out.request(.persist(.removed(id)))
        out.postOnce(.itemsChanged)
        makeCurrent(next ?? fallback, replacing: oldID, at: instant, &out)
        if next == nil { changeRate(to: 0, at: instant, &out) }
    }

    /// The first playable entry after `slot`, wrapping around under queue loop; `slot`
    /// itself when it is the only playable one and the queue loops.
    func nextPlayableSlot(after slot: Slot) -> Slot? {
        let wraps = loopsQueue
        var candidate = list.successor(of: slot) ?? (wraps ? list.first : nil)
        var steps = 0
        while let entry = candidate, steps <= list.count {
            if entry == slot { return list[entry].isFailed ? nil : entry }
            if !list[entry].isFailed { return entry }
            steps += 1
            candidate = list.successor(of: entry) ?? (wraps ? list.first : nil)
        }
        return nil
    }

    /// The last playable entry before `slot`, wrapping around under queue loop.
    func previousPlayableSlot(before slot: Slot) -> Slot? {
        let wraps = loopsQueue
        var candidate = list.predecessor(of: slot) ?? (wraps ? list.last : nil)
        var steps = 0
        while let entry = candidate, steps <= list.count {
            if entry == slot { return list[entry].isFailed ? nil : entry }
            if !list[entry].isFailed { return entry }
            steps += 1
            candidate = list.predecessor(of: entry) ?? (wraps ? list.last : nil)
        }
        return nil
    }

    // MARK: Loading window

    /// The current entry and the next ``QueueConfiguration/preloadCount`` playable ones
    /// (wrapping around under queue loop with consume off). Failed entries are never loaded.
    func desiredLoadingWindow() -> [ItemID] {
        guard let slot = currentSlot else { return [] }
        var ids: [ItemID] = []
        if !list[slot].isFailed { ids.append(list[slot].id) }
        let wraps = loopsQueue && !settings.consume
        var candidate = list.successor(of: slot) ?? (wraps ? list.first : nil)
        var found = 0
        var steps = 0
        while found < configuration.preloadCount, let entry = candidate, entry != slot, steps < list.count {
            if !list[entry].isFailed {
                ids.append(list[entry].id)
                found += 1
            }
            steps += 1
            candidate = list.successor(of: entry) ?? (wraps ? list.first : nil)
        }
        return ids
    }

    /// Asks the engine to start and stop loaders so that exactly the window is loading.
    /// Items that stop loading are put at rest: nothing loaded, `loading` back to `unknown`.
    mutating func refreshLoadingWindow(_ out: inout QueueOutcome) {
        guard loadingWindowIsStale else { return }
        loadingWindowIsStale = false
        let desired = desiredLoadingWindow()
        guard desired != loadingItemIDs else { return }
        for id in loadingItemIDs where !desired.contains(id) {
            out.request(.stopLoading(id))
            guard let slot = list.slot(of: id) else { continue }
            if list[slot].status == .loading {
                list[slot].status = .unknown
                out.post(.statusChanged(id, .unknown))
            }
            if !list[slot].loadedTimeRanges.isEmpty {
                list[slot].loadedTimeRanges = TimeRangeSet()
                out.post(.itemStateChanged(id))
            }
        }
        for id in desired where !loadingItemIDs.contains(id) {
            out.request(.startLoading(id))
            if let slot = list.slot(of: id), list[slot].status == .unknown {
                list[slot].status = .loading
                out.post(.statusChanged(id, .loading))
            }
        }
        loadingItemIDs = desired
    }
}

extension QueueOutcome {
    /// Posts a notification that says "something changed" at most once per outcome.
    mutating func postOnce(_ notification: QueueNotification) {
        if !notifications.contains(notification) { post(notification) }
    }
}
