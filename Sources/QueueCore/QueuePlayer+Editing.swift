import MediaTime

// Editing the list: insert, remove, removeAll, move, shuffle.

extension QueuePlayer {
    // MARK: Insert

    /// Why `item` cannot be inserted after `anchor` (nil: appended), or nil when it can. As of
    /// the last transition.
    public func canInsert(_ item: PlayerItem, after anchor: ItemID?) -> QueueRefusal? {
        if case .failure(let refusal) = insertionPoint(for: item, after: anchor) { return refusal }
        return nil
    }

    /// Why `item` cannot be inserted at `index`, or nil when it can.
    public func canInsert(_ item: PlayerItem, at index: Int) -> QueueRefusal? {
        if case .failure(let refusal) = insertionPoint(for: item, at: index) { return refusal }
        return nil
    }

    /// Inserts `item` after `anchor`, or at the end when `anchor` is nil. Into an empty
    /// list, the item becomes current. O(log n).
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/alreadyInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/itemFailed``,
    /// ``QueueRefusal/Reason-swift.struct/anchorNotInQueue``.
    public mutating func insert(_ item: PlayerItem, after anchor: ItemID?) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let point = try accept(insertionPoint(for: item, after: anchor), out)
        performInsert(item, at: point, &out)
        return finishTransition(&out)
    }

    /// Inserts `item` so that it ends at `index` (`0...count`). O(log n).
    ///
    /// Refused as ``insert(_:after:)``, and with
    /// ``QueueRefusal/Reason-swift.struct/indexOutOfRange``, or
    /// ``QueueRefusal/Reason-swift.struct/positionBeforeCurrentItem`` for index 0 when
    /// consume is on and there is a current item.
    public mutating func insert(_ item: PlayerItem, at index: Int) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let point = try accept(insertionPoint(for: item, at: index), out)
        performInsert(item, at: point, &out)
        return finishTransition(&out)
    }

    /// Where an insertion or a move puts the entry.
    enum Placement {
        /// Right after this entry, or at the end when nil.
        case after(Slot?)
        case index(Int)
    }

    func insertionPoint(for item: PlayerItem, after anchor: ItemID?) -> Result<Placement, QueueRefusal> {
        if list.contains(item.id) {
            return .failure(QueueRefusal(.alreadyInQueue, "\(item.id) is already in the queue"))
        }
        if let failure = item.failure {
            return .failure(QueueRefusal(.itemFailed, "\(item.id) failed and cannot play again (\(failure))"))
        }
        guard let anchor else { return .success(.after(nil)) }
        guard let slot = list.slot(of: anchor) else {
            return .failure(QueueRefusal(.anchorNotInQueue, "\(anchor) is not in the queue"))
        }
        return .success(.after(slot))
    }

    func insertionPoint(for item: PlayerItem, at index: Int) -> Result<Placement, QueueRefusal> {
        if case .failure(let refusal) = insertionPoint(for: item, after: nil) { return .failure(refusal) }
        guard index >= 0, index <= list.count else {
            return .failure(QueueRefusal(.indexOutOfRange, "index \(index) is not in 0...\(list.count)"))
        }
        if index == 0 && settings.consume && currentSlot != nil {
            return .failure(QueueRefusal(.positionBeforeCurrentItem, "with consume on, nothing can go before the current item"))
        }
        return .success(.index(index))
    }

    mutating func performInsert(_ item: PlayerItem, at placement: Placement, _ out: inout QueueOutcome) {
        let slot: Slot
        switch placement {
        case .after(let anchor): slot = list.insert(item.atRest(), after: anchor)
        case .index(let index): slot = list.insert(item.atRest(), at: index)
        }
        let anchor = list.predecessor(of: slot).map { list[$0].id }
        out.request(.persist(.inserted(item.id, after: anchor)))
        out.postOnce(.itemsChanged)
        loadingWindowIsStale = true
        if currentSlot == nil {
            makeCurrent(slot, replacing: nil, at: lastInstant, &out)
        }
    }

    // MARK: Remove

    /// Removes the entry. Removing the current entry moves on as
    /// ``advanceToNextItem()`` does, except that the removed item is deleted rather than
    /// kept in history; with consume off and nothing after it, the pointer falls back to the
    /// entry before it and playback pauses. O(log n).
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``.
    public mutating func remove(_ id: ItemID) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let slot = try accept(slotInQueue(id), out)
        if slot == currentSlot {
            removeCurrent(at: lastInstant, &out)
        } else {
            list.remove(slot)
            out.request(.persist(.removed(id)))
            out.postOnce(.itemsChanged)
            loadingWindowIsStale = true
        }
        return finishTransition(&out)
    }

    func slotInQueue(_ id: ItemID) -> Result<Slot, QueueRefusal> {
        guard let slot = list.slot(of: id) else {
            return .failure(QueueRefusal(.notInQueue, "\(id) is not in the queue"))
        }
        return .success(slot)
    }

    /// Empties the list and stops playback (rate 0). History stays. Never refused.
    public mutating func removeAll() -> QueueOutcome {
        var out = beginTransition()
        let oldID = leaveCurrent(at: lastInstant, &out)
        changeRate(to: 0, at: lastInstant, &out)
        if !list.isEmpty {
            list.removeAll()
            out.request(.persist(.removedAll))
            out.postOnce(.itemsChanged)
        }
        currentSlot = nil
        if oldID != nil { makeCurrent(nil, replacing: oldID, at: lastInstant, &out) }
        loadingWindowIsStale = true
        return finishTransition(&out)
    }

    // MARK: Move

    /// Moves the entry so that it follows `anchor`, or to the end when `anchor` is nil.
    /// Moving an entry after itself changes nothing. O(log n), except as said below.
    ///
    /// Every entry may move, the current one included: it stays current with its playhead,
    /// and whatever follows it in its new place plays next. With consume on, the entries it
    /// moves past are passed into history (under queue loop they go round to the end), so
    /// that the current entry stays first; that costs O(k log n) for k entries passed.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/anchorNotInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/positionBeforeCurrentItem``.
    public mutating func move(_ id: ItemID, after anchor: ItemID?) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let (slot, placement) = try accept(movePlacement(for: id, after: anchor), out)
        performMove(slot, to: placement, &out)
        return finishTransition(&out)
    }

    /// Moves the entry so that it ends at `index` (`0..<count`).
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/indexOutOfRange``,
    /// ``QueueRefusal/Reason-swift.struct/positionBeforeCurrentItem``.
    public mutating func move(_ id: ItemID, to index: Int) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let (slot, placement) = try accept(movePlacement(for: id, to: index), out)
        performMove(slot, to: placement, &out)
        return finishTransition(&out)
    }

    func movePlacement(for id: ItemID, after anchor: ItemID?) -> Result<(Slot, Placement), QueueRefusal> {
        guard let slot = list.slot(of: id) else {
            return .failure(QueueRefusal(.notInQueue, "\(id) is not in the queue"))
        }
        guard let anchor else { return .success((slot, .after(nil))) }
        guard let anchorSlot = list.slot(of: anchor) else {
            return .failure(QueueRefusal(.anchorNotInQueue, "\(anchor) is not in the queue"))
        }
        // After itself: it stays where it is.
        return .success((slot, anchorSlot == slot ? .index(list.position(of: slot)) : .after(anchorSlot)))
    }

    func movePlacement(for id: ItemID, to index: Int) -> Result<(Slot, Placement), QueueRefusal> {
        guard let slot = list.slot(of: id) else {
            return .failure(QueueRefusal(.notInQueue, "\(id) is not in the queue"))
        }
        guard index >= 0, index < list.count else {
            return .failure(QueueRefusal(.indexOutOfRange, "index \(index) is not in 0..<\(list.count)"))
        }
        if index == 0 && settings.consume && slot != currentSlot {
            return .failure(QueueRefusal(.positionBeforeCurrentItem, "with consume on, nothing can go before the current item"))
        }
        return .success((slot, .index(index)))
    }

    mutating func performMove(_ slot: Slot, to placement: Placement, _ out: inout QueueOutcome) {
        if settings.consume && slot == currentSlot {
            // The current entry stays first; the entries it moves past are passed.
            let passed: Int
            switch placement {
            case .after(nil): passed = list.count - 1
            case .after(let anchor?): passed = list.position(of: anchor)
            case .index(let index): passed = index
            }
            for _ in 0..<passed {
                guard let next = list.successor(of: slot) else { break }
                pass(next, &out)
            }
            return
        }
        switch placement {
        case .after(let anchor):
            if anchor == nil ? list.last == slot : list.predecessor(of: slot) == anchor { return }
            list.move(slot, after: anchor)
        case .index(let index):
            guard list.position(of: slot) != index else { return }
            list.move(slot, to: index)
        }
        let anchor = list.predecessor(of: slot).map { list[$0].id }
        out.request(.persist(.moved(list[slot].id, after: anchor)))
        out.postOnce(.itemsChanged)
        loadingWindowIsStale = true
    }

    // MARK: Shuffle

    /// Shuffles the entries after the current one with a generator seeded by `seed`, so the
    /// engine can persist and replay the decision. Entries before the current one (consume
    /// off) stay. O(k) for k upcoming entries. Never refused.
    public mutating func shuffle(seed: UInt64) -> QueueOutcome {
        var out = beginTransition()
        if let slot = currentSlot, let first = list.successor(of: slot) {
            var upcoming = Array(list.slots(from: first))
            if upcoming.count > 1 {
                var generator = SplitMix64(seed: seed)
                upcoming.shuffle(using: &generator)
                list.reorderSuffix(from: list.position(of: slot) + 1, as: upcoming)
                out.request(.persist(.reordered(after: list[slot].id, upcoming.map { list[$0].id })))
                out.postOnce(.itemsChanged)
                loadingWindowIsStale = true
            }
        }
        return finishTransition(&out)
    }
}
