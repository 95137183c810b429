import MediaTime

// Playback commands: play, pause, rate, seek, skip.

extension QueuePlayer {
    /// Plays at ``QueueSettings/defaultRate``. At the current item's end (forward playback
    /// that stopped there), the item restarts from its start first.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/itemFailed`` when the current item failed.
    public mutating func play() throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        try accept(validateRate(settings.defaultRate), out)
        if let slot = currentSlot, session.timePastEnd == nil, rate <= 0 {
            let end = effectiveForwardEnd(of: slot)
            if end.isNumeric && list[slot].currentTime >= end {
                jumpPlayhead(slot, to: startTime(of: list[slot]), &out)
                list[slot].loopCount = 0
                out.request(.persistPlayhead(list[slot].id, list[slot].currentTime))
            }
        }
        changeRate(to: settings.defaultRate, at: lastInstant, &out)
        return finishTransition(&out)
    }

    /// Sets the rate to 0. Never refused.
    public mutating func pause() -> QueueOutcome {
        var out = beginTransition()
        changeRate(to: 0, at: lastInstant, &out)
        return finishTransition(&out)
    }

    /// Sets the rate. Rates in `(0, 2]` are always allowed, and 0 pauses. A rate above 2
    /// needs a current item that is ready and not live; a negative rate needs a ready item
    /// that is not live with media loaded just behind the playhead.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/invalidRate`` (not finite),
    /// ``QueueRefusal/Reason-swift.struct/rateNotSupported``,
    /// ``QueueRefusal/Reason-swift.struct/itemFailed``.
    public mutating func setRate(_ newRate: Double) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        try accept(validateRate(newRate), out)
        changeRate(to: newRate, at: lastInstant, &out)
        return finishTransition(&out)
    }

    func validateRate(_ newRate: Double) -> Result<Void, QueueRefusal> {
        guard newRate.isFinite else {
            return .failure(QueueRefusal(.invalidRate, "the rate must be a finite number"))
        }
        if newRate == 0 { return .success(()) }
        if let item = currentItem, let failure = item.failure {
            return .failure(QueueRefusal(.itemFailed, "\(item.id) failed and cannot play (\(failure))"))
        }
        if newRate > 0 && newRate <= 2 { return .success(()) }
        guard let item = currentItem, item.status == .readyToPlay, !item.isLive else {
            return .failure(QueueRefusal(.rateNotSupported, "rate \(newRate) needs a current item that is ready and not live"))
        }
        if newRate < 0 && item.currentTime > item.reverseEnd && loadedRange(behind: item.currentTime, in: item.loadedTimeRanges) == nil {
            return .failure(QueueRefusal(.rateNotSupported, "reverse playback needs media loaded behind the playhead"))
        }
        return .success(())
    }

    // MARK: Seek

    /// Moves the playhead of the current item to `target`. The seek completes (notification
    /// ``QueueNotification/seekCompleted(_:finished:)``) with `finished: true` as soon as
    /// media is loaded at the new time — at once if it already is — and with
    /// `finished: false` if a newer seek, ``cancelPendingSeeks()``, an item change or a
    /// failure comes first. The tolerances widen what counts as seekable: a target outside
    /// the seekable ranges but within tolerance of one lands on its nearest seekable time.
    /// The ends of seekable ranges are seekable.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/noCurrentItem``,
    /// ``QueueRefusal/Reason-swift.struct/itemNotReadyToPlay``,
    /// ``QueueRefusal/Reason-swift.struct/invalidTime``,
    /// ``QueueRefusal/Reason-swift.struct/outsideSeekableRanges``,
    /// ``QueueRefusal/Reason-swift.struct/leavesLinearPlaybackRange``,
    /// ``QueueRefusal/Reason-swift.struct/jumpsOverLinearPlaybackRange``.
    public mutating func seek(
        to target: MediaTime, toleranceBefore: MediaTime = .zero, toleranceAfter: MediaTime = .zero
    ) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let (slot, landing) = try accept(seekLanding(target, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter), out)
        performSeek(slot, to: landing, &out)
        return finishTransition(&out)
    }

    /// Seeks by `offset` from the playhead, clamped into the seekable ranges.
    ///
    /// Refused as ``seek(to:toleranceBefore:toleranceAfter:)``; a clamped target is never
    /// outside the seekable ranges unless there are none.
    public mutating func skip(by offset: MediaTime) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let (slot, landing) = try accept(skipLanding(offset), out)
        performSeek(slot, to: landing, &out)
        return finishTransition(&out)
    }

    /// Completes the pending seek with `finished: false`; the playhead stays where it went.
    /// Never refused.
    public mutating func cancelPendingSeeks() -> QueueOutcome {
        var out = beginTransition()
        completePendingSeek(finished: false, &out)
        return finishTransition(&out)
    }

    func seekableCurrentItem() -> Result<Slot, QueueRefusal> {
        guard let slot = currentSlot else {
            return .failure(QueueRefusal(.noCurrentItem, "the queue is empty"))
        }
        guard list[slot].status == .readyToPlay else {
            return .failure(QueueRefusal(.itemNotReadyToPlay, "\(list[slot].id) is not ready to play"))
        }
        return .success(slot)
    }

    func seekLanding(_ target: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) -> Result<(Slot, MediaTime), QueueRefusal> {
        let slot: Slot
        switch seekableCurrentItem() {
        case .success(let found): slot = found
        case .failure(let refusal): return .failure(refusal)
        }
        guard target.isNumeric, toleranceBefore.isNumeric, toleranceAfter.isNumeric,
              toleranceBefore >= .zero, toleranceAfter >= .zero else {
            return .failure(QueueRefusal(.invalidTime, "the target and tolerances must be numeric, the tolerances not negative"))
        }
        let item = list[slot]
        let earliest = target.distance(from: toleranceBefore)
        let latest = target.adding(toleranceAfter)
        var landing: MediaTime?
        for range in item.seekableTimeRanges {
            let candidate = range.clamp(target)
            guard candidate >= earliest, candidate <= latest else { continue }
            if let best = landing, best.gap(to: target) <= candidate.gap(to: target) { continue }
            landing = candidate
        }
        guard let landing else {
            return .failure(QueueRefusal(.outsideSeekableRanges, "\(target) is outside the seekable ranges \(item.seekableTimeRanges)"))
        }
        if let refusal = linearPlaybackRefusal(in: item, to: landing) { return .failure(refusal) }
        return .success((slot, landing))
    }

    func skipLanding(_ offset: MediaTime) -> Result<(Slot, MediaTime), QueueRefusal> {
        let slot: Slot
        switch seekableCurrentItem() {
        case .success(let found): slot = found
        case .failure(let refusal): return .failure(refusal)
        }
        guard offset.isNumeric else {
            return .failure(QueueRefusal(.invalidTime, "the offset must be numeric"))
        }
        let item = list[slot]
        let target = item.currentTime.adding(offset)
        var landing: MediaTime?
        for range in item.seekableTimeRanges {
            let candidate = range.clamp(target)
            if let best = landing, best.gap(to: target) <= candidate.gap(to: target) { continue }
            landing = candidate
        }
        guard let landing, landing.isNumeric else {
            return .failure(QueueRefusal(.outsideSeekableRanges, "\(item.id) has no seekable range"))
        }
        if let refusal = linearPlaybackRefusal(in: item, to: landing) { return .failure(refusal) }
        return .success((slot, landing))
    }

    /// A seek from the playhead to `target` may not leave the linear-playback range the
    /// playhead is in, nor jump forward over one that starts after the playhead. Jumping
    /// into a range, and backward over one, are allowed.
    func linearPlaybackRefusal(in item: PlayerItem, to target: MediaTime) -> QueueRefusal? {
        let position = item.currentTime
        for linear in item.mediaInformation.linearPlaybackRanges {
            let range = linear.timeRange
            if range.contains(position) && !range.contains(target) {
                return QueueRefusal(.leavesLinearPlaybackRange, "the playhead is in \(linear.label) \(range), which plays linearly")
            }
            if position < range.start && target >= range.end {
                return QueueRefusal(.jumpsOverLinearPlaybackRange, "\(target) lies past \(linear.label) \(range), which plays linearly")
            }
        }
        return nil
    }

    mutating func performSeek(_ slot: Slot, to landing: MediaTime, _ out: inout QueueOutcome) {
        completePendingSeek(finished: false, &out)
        let id = list[slot].id
        jumpPlayhead(slot, to: landing, &out)
        openAccessLogEvent(slot, startedNow: timeControlStatus == .playing, &out)
        out.request(.persistPlayhead(id, landing))
        let seek = SeekID(rawValue: nextSeekNumber)
        nextSeekNumber += 1
        out.seek = seek
        if list[slot].loadedTimeRanges.contains(landing) || landing >= effectiveForwardEnd(of: slot) {
            out.post(.seekCompleted(seek, finished: true))
        } else {
            pendingSeek = PendingSeek(id: seek, item: id, target: landing)
            out.request(.loadFrom(id, landing))
        }
    }
}
