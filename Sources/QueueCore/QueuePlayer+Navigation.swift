import MediaTime

// Moving the current pointer on command: advance, previous, jump.

extension QueuePlayer {
    /// Goes on with the next playable entry, from its start.
    ///
    /// With consume on the current entry is passed into history (under queue loop it goes to
    /// the end of the list); past the last entry the list empties and, if the rate is not 0,
    /// the player waits with `noItemToPlay`, as `AVQueuePlayer` does. With consume off the
    /// pointer moves on and the entry left is recorded in history; past the last entry it
    /// wraps under queue loop and is refused otherwise. Failed entries are skipped.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/noCurrentItem``,
    /// ``QueueRefusal/Reason-swift.struct/noNextItem``.
    public mutating func advanceToNextItem() throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        try accept(validateAdvance(), out)
        _ = advanceEntry(at: lastInstant, &out)
        return finishTransition(&out)
    }

    func validateAdvance() -> Result<Void, QueueRefusal> {
        guard let slot = currentSlot else {
            return .failure(QueueRefusal(.noCurrentItem, "the queue is empty"))
        }
        if !settings.consume && nextPlayableSlot(after: slot) == nil {
            return .failure(QueueRefusal(.noNextItem, "the current entry is the last one that can play"))
        }
        return .success(())
    }

    /// Goes back one entry, playing it from its start.
    ///
    /// With consume on, the most recent playable history entry comes back as the current
    /// item (taken out of history) and the old current one plays next; if that item is in the
    /// list again (queue loop, or inserted anew) it is moved to the front instead of copied.
    /// With consume off, the pointer moves to the previous playable entry, wrapping under
    /// queue loop; history is not involved.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/noPreviousItem``.
    public mutating func previous() throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let target = try accept(previousTarget(), out)
        let oldID = leaveCurrent(at: lastInstant, &out)
        switch target {
        case .entry(let slot):
            makeCurrent(slot, replacing: oldID, at: lastInstant, &out)
        case .history(let index):
            let entry = historyLog.remove(at: index)
            out.request(.persist(.historyRemoved(serial: entry.serial)))
            out.postOnce(.historyChanged)
            let slot: Slot
            if let existing = list.slot(of: entry.item.id) {
                slot = existing
                if list.position(of: existing) != 0 {
                    list.move(existing, to: 0)
                    out.request(.persist(.moved(entry.item.id, after: nil)))
                }
            } else {
                slot = list.insert(entry.item.atRest(), at: 0)
                out.request(.persist(.inserted(entry.item.id, after: nil)))
            }
            out.postOnce(.itemsChanged)
            makeCurrent(slot, replacing: oldID, at: lastInstant, &out)
        }
        return finishTransition(&out)
    }

    enum PreviousTarget {
        case entry(Slot)
        case history(Int)
    }

    func previousTarget() -> Result<PreviousTarget, QueueRefusal> {
        if settings.consume {
            let index = historyLog.entries.lastIndex { entry in
                !entry.item.isFailed && !(list.slot(of: entry.item.id).map { list[$0].isFailed } ?? false)
            }
            guard let index else {
                return .failure(QueueRefusal(.noPreviousItem, "history holds no item that can play"))
            }
            return .success(.history(index))
        }
        guard let slot = currentSlot else {
            return .failure(QueueRefusal(.noPreviousItem, "the queue is empty"))
        }
        guard let previous = previousPlayableSlot(before: slot), previous != slot else {
            return .failure(QueueRefusal(.noPreviousItem, "the current entry is the first one that can play"))
        }
        return .success(.entry(previous))
    }

    /// Plays the entry `id` from its start. Jumping to the current entry restarts it.
    ///
    /// With consume on, every entry before the target — the current one included — is
    /// passed into history in order, as if advanced past (under queue loop they go round to
    /// the end); that costs O(k log n) for k entries. With consume off, only the pointer
    /// moves; when it moves forward, the entry left is recorded in history.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/itemFailed``.
    public mutating func jump(to id: ItemID) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let target = try accept(jumpTarget(id), out)
        let oldID = leaveCurrent(at: lastInstant, &out)
        if target != currentSlot {
            if settings.consume {
                while let first = list.first, first != target {
                    pass(first, &out)
                }
            } else if let slot = currentSlot, list.position(of: target) > list.position(of: slot) {
                appendHistory(list[slot], &out)
            }
        }
        makeCurrent(target, replacing: oldID, at: lastInstant, &out)
        return finishTransition(&out)
    }

    func jumpTarget(_ id: ItemID) -> Result<Slot, QueueRefusal> {
        guard let slot = list.slot(of: id) else {
            return .failure(QueueRefusal(.notInQueue, "\(id) is not in the queue"))
        }
        if let failure = list[slot].failure {
            return .failure(QueueRefusal(.itemFailed, "\(id) failed and cannot play (\(failure))"))
        }
        return .success(slot)
    }
}
