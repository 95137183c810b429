import MediaTime

// Queue settings and per-item preferences.

extension QueuePlayer {
    /// Sets what happens at an item's end. Leaving `.none` while playing past the end acts at
    /// once: the new action applies as if the item had just ended.
    public mutating func setActionAtItemEnd(_ action: ActionAtItemEnd) -> QueueOutcome {
        var out = beginTransition()
        var changed = settings
        changed.actionAtItemEnd = action
        commitSettings(changed, &out)
        if action != .none, session.timePastEnd != nil {
            session.timePastEnd = nil
            applyEndAction(at: lastInstant, &out)
        }
        return finishTransition(&out)
    }

    /// Turns consume on or off. Turning it on removes the entries before the current one
    /// (they were passed already, and history recorded them then): O(k log n) for k entries.
    public mutating func setConsume(_ consume: Bool) -> QueueOutcome {
        var out = beginTransition()
        var changed = settings
        changed.consume = consume
        commitSettings(changed, &out)
        if consume, let slot = currentSlot {
            while let first = list.first, first != slot {
                let id = list[first].id
                list.remove(first)
                out.request(.persist(.removed(id)))
                out.postOnce(.itemsChanged)
            }
        }
        loadingWindowIsStale = true
        return finishTransition(&out)
    }

    /// Sets the loop mode. A new item loop bounds the current play at once.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/invalidLoop``.
    public mutating func setLoopMode(_ mode: LoopMode) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        var changed = settings
        changed.loopMode = mode
        try accept(Self.validateSettings(changed), out)
        commitSettings(changed, &out)
        loadingWindowIsStale = true
        return finishTransition(&out)
    }

    /// Sets the rate that ``play()`` uses.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/invalidRate`` outside `(0, 2]`.
    public mutating func setDefaultRate(_ defaultRate: Double) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        var changed = settings
        changed.defaultRate = defaultRate
        try accept(Self.validateSettings(changed), out)
        commitSettings(changed, &out)
        return finishTransition(&out)
    }

    /// When false, running out of media pauses (rate 0) instead of waiting, and playback
    /// starts as soon as there is any media.
    public mutating func setAutomaticallyWaitsToMinimizeStalling(_ waits: Bool) -> QueueOutcome {
        var out = beginTransition()
        var changed = settings
        changed.automaticallyWaitsToMinimizeStalling = waits
        commitSettings(changed, &out)
        return finishTransition(&out)
    }

    mutating func commitSettings(_ changed: QueueSettings, _ out: inout QueueOutcome) {
        guard changed != settings else { return }
        settings = changed
        out.request(.persist(.settings))
        out.post(.settingsChanged(changed))
    }

    static func validateSettings(_ settings: QueueSettings) -> Result<Void, QueueRefusal> {
        guard settings.defaultRate.isFinite, settings.defaultRate > 0, settings.defaultRate <= 2 else {
            return .failure(QueueRefusal(.invalidRate, "the default rate must lie in (0, 2], not \(settings.defaultRate)"))
        }
        if case .item(let loop) = settings.loopMode { return validateLoop(loop) }
        return .success(())
    }

    static func validateLoop(_ loop: ItemLoop) -> Result<Void, QueueRefusal> {
        if let plays = loop.plays, plays < 1 {
            return .failure(QueueRefusal(.invalidLoop, "a loop plays at least once, not \(plays) times"))
        }
        if let range = loop.timeRange {
            guard range.start.isNumeric, range.end.isNumeric, range.start >= .zero, range.start < range.end else {
                return .failure(QueueRefusal(.invalidLoop, "a loop's time range must be numeric, not negative and not empty: \(range)"))
            }
        }
        return .success(())
    }

    // MARK: Item settings

    /// Sets an item's preferences. The loader is told to follow
    /// (``QueueEffect/applyLoadingPreferences(_:)``); a forward end time earlier than the
    /// playhead ends the item at once if it is playing.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/invalidPreference``.
    public mutating func setPreferences(_ preferences: PlayerItem.Preferences, of id: ItemID) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let slot = try accept(slotInQueue(id), out)
        try accept(Self.validatePreferences(preferences), out)
        if list[slot].preferences != preferences {
            list[slot].preferences = preferences
            out.request(.applyLoadingPreferences(id))
            out.request(.persist(.item(id)))
            out.post(.itemStateChanged(id))
        }
        return finishTransition(&out)
    }

    static func validatePreferences(_ preferences: PlayerItem.Preferences) -> Result<Void, QueueRefusal> {
        let buffer = preferences.preferredForwardBufferDuration
        guard buffer.isNumeric, buffer >= .zero else {
            return .failure(QueueRefusal(.invalidPreference, "the preferred forward buffer duration must be numeric and not negative"))
        }
        guard preferences.preferredPeakBitRate.isFinite, preferences.preferredPeakBitRate >= 0 else {
            return .failure(QueueRefusal(.invalidPreference, "the preferred peak bit rate must be a number, not negative"))
        }
        for end in [preferences.forwardPlaybackEndTime, preferences.reversePlaybackEndTime].compactMap({ $0 }) {
            guard end.isNumeric, end >= .zero else {
                return .failure(QueueRefusal(.invalidPreference, "playback end times must be numeric and not negative"))
            }
        }
        if let forward = preferences.forwardPlaybackEndTime, let reverse = preferences.reversePlaybackEndTime, reverse >= forward {
            return .failure(QueueRefusal(.invalidPreference, "the reverse playback end time must come before the forward one"))
        }
        return .success(())
    }

    /// Sets or clears an item's own loop, which takes precedence over the player's item loop
    /// mode.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/invalidLoop``.
    public mutating func setLoop(_ loop: ItemLoop?, of id: ItemID) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let slot = try accept(slotInQueue(id), out)
        if let loop { try accept(Self.validateLoop(loop), out) }
        if list[slot].loop != loop {
            list[slot].loop = loop
            out.request(.persist(.item(id)))
            out.post(.itemStateChanged(id))
        }
        return finishTransition(&out)
    }

    /// Sets an item's title.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``.
    public mutating func setTitle(_ title: String?, of id: ItemID) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let slot = try accept(slotInQueue(id), out)
        if list[slot].title != title {
            list[slot].title = title
            out.request(.persist(.item(id)))
            out.post(.itemStateChanged(id))
        }
        return finishTransition(&out)
    }

    /// Chooses the rendition of one characteristic. Before the item's media information is
    /// known any name is kept, and one the media turns out not to have falls back to
    /// automatic selection; once it is known, the name must exist.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue``,
    /// ``QueueRefusal/Reason-swift.struct/unknownMediaSelectionGroup``,
    /// ``QueueRefusal/Reason-swift.struct/unknownMediaSelectionOption``,
    /// ``QueueRefusal/Reason-swift.struct/emptySelectionNotAllowed``.
    public mutating func selectMediaOption(
        _ selection: MediaSelection, for characteristic: MediaCharacteristic, of id: ItemID
    ) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let slot = try accept(slotInQueue(id), out)
        try accept(Self.validateSelection(selection, for: characteristic, in: list[slot]), out)
        if list[slot].mediaSelections[characteristic] ?? .automatic != selection {
            list[slot].mediaSelections[characteristic] = selection == .automatic ? nil : selection
            out.request(.applyLoadingPreferences(id))
            out.request(.persist(.item(id)))
            out.post(.itemStateChanged(id))
        }
        return finishTransition(&out)
    }

    static func validateSelection(_ selection: MediaSelection, for characteristic: MediaCharacteristic, in item: PlayerItem) -> Result<Void, QueueRefusal> {
        if selection == .off && characteristic == .audible {
            return .failure(QueueRefusal(.emptySelectionNotAllowed, "audio cannot be turned off"))
        }
        let groups = item.mediaInformation.mediaSelectionGroups
        guard item.status == .readyToPlay || !groups.isEmpty else { return .success(()) }
        guard let group = item.mediaInformation.group(for: characteristic) else {
            return .failure(QueueRefusal(.unknownMediaSelectionGroup, "\(item.id) has no \(characteristic) renditions"))
        }
        if case .option(let name) = selection, group.option(named: name) == nil {
            return .failure(QueueRefusal(.unknownMediaSelectionOption, "\(item.id) has no \(characteristic) rendition named \(name)"))
        }
        return .success(())
    }
}
