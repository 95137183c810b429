import MediaTime

// timeControlStatus and reasonForWaitingToPlay, the rate, stalls, and the access log's
// playback periods.

extension QueuePlayer {
    enum Assessment: Equatable {
        case paused
        case waiting(WaitingReason)
        case playing
        /// Playing ran out of media.
        case stalled
    }

    /// What the status should be now, following `AVPlayer`'s rules:
    /// - rate 0: paused;
    /// - no current item: waiting, `noItemToPlay`;
    /// - the item not ready, a seek pending, or not enough media to start: waiting, with
    ///   `evaluatingBufferingRate` until the item first plays and `toMinimizeStalls` after;
    /// - to start (or resume after waiting), forward playback needs the buffer likely to keep
    ///   up or full when `automaticallyWaitsToMinimizeStalling`, and only some media ahead
    ///   otherwise; reverse playback needs some media behind;
    /// - once playing, it goes on while there is media, and stalls when there is none.
    func assess() -> Assessment {
        guard rate != 0 else { return .paused }
        guard let slot = currentSlot else { return .waiting(.noItemToPlay) }
        if session.timePastEnd != nil { return .playing }
        guard list[slot].status == .readyToPlay else { return .waiting(.evaluatingBufferingRate) }
        let reason: WaitingReason = session.hasStartedPlayback ? .toMinimizeStalls : .evaluatingBufferingRate
        if pendingSeek != nil { return .waiting(reason) }
        let forward = rate > 0
        let hasMedia = canMove(slot, forward: forward)
        if timeControlStatus == .playing && session.hasStartedPlayback {
            return hasMedia ? .playing : .stalled
        }
        guard hasMedia else { return .waiting(reason) }
        if !settings.automaticallyWaitsToMinimizeStalling || !forward { return .playing }
        let buffer = list[slot].bufferStatus(policy: configuration.bufferPolicy)
        return buffer.isPlaybackLikelyToKeepUp || buffer.isPlaybackBufferFull ? .playing : .waiting(reason)
    }

    mutating func refreshTimeControlStatus(at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        switch assess() {
        case .paused:
            setStatus(.paused, nil, at: instant, &out)
        case .waiting(let reason):
            setStatus(.waitingToPlayAtSpecifiedRate, reason, at: instant, &out)
        case .playing:
            setStatus(.playing, nil, at: instant, &out)
            if session.awaitsPlaybackStart { beginPlaybackPeriod(at: instant, &out) }
        case .stalled:
            stall(at: instant, &out)
        }
    }

    mutating func setStatus(
        _ status: TimeControlStatus, _ reason: WaitingReason?, at instant: MonotonicInstant, _ out: inout QueueOutcome
    ) {
        guard status != timeControlStatus || reason != reasonForWaitingToPlay else { return }
        let wasPlaying = timeControlStatus == .playing
        if status != .waitingToPlayAtSpecifiedRate { closeStall(at: instant) }
        timeControlStatus = status
        reasonForWaitingToPlay = reason
        out.post(.timeControlStatusChanged(status, reason))
        if wasPlaying != (status == .playing) {
            observers.timeJumped(item: currentItemID, to: currentTime, &out)
        }
    }

    /// Playing ran out of media: `playbackStalled`, then wait, or pause when the player must
    /// not wait.
    mutating func stall(at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        guard let slot = currentSlot else { return }
        out.post(.playbackStalled(list[slot].id))
        if list[slot].accessLog.isEmpty { openAccessLogEvent(slot, startedNow: true, &out) }
        list[slot].accessLog[list[slot].accessLog.count - 1].numberOfStalls += 1
        if settings.automaticallyWaitsToMinimizeStalling {
            setStatus(.waitingToPlayAtSpecifiedRate, .toMinimizeStalls, at: instant, &out)
            session.stallStartedAt = instant
        } else {
            changeRate(to: 0, at: instant, &out)
            setStatus(.paused, nil, at: instant, &out)
        }
    }

    /// Adds the current stall's length to the open access-log entry.
    mutating func closeStall(at instant: MonotonicInstant) {
        guard let start = session.stallStartedAt else { return }
        session.stallStartedAt = nil
        guard let slot = currentSlot, !list[slot].accessLog.isEmpty else { return }
        let last = list[slot].accessLog.count - 1
        let stalled = instant.elapsed(since: start)
        list[slot].accessLog[last].stallDuration = list[slot].accessLog[last].stallDuration.adding(stalled)
    }

    /// Sets the rate, with its notification and the playhead to persist on pausing.
    mutating func changeRate(to newRate: Double, at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        guard newRate != rate else { return }
        let wasPaused = rate == 0
        rate = newRate
        out.post(.rateChanged(newRate))
        if wasPaused && newRate != 0 && !session.hasStartedPlayback {
            session.playRequestedAt = instant
        }
        if newRate == 0, let item = currentItem {
            out.request(.persistPlayhead(item.id, item.currentTime))
        }
        if newRate < 0 { session.timePastEnd = nil }
    }

    /// Playback begins in the current access-log period: date it, and for the first play
    /// since the item became current, record the startup time.
    mutating func beginPlaybackPeriod(at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        guard let slot = currentSlot else { return }
        let firstPlay = !session.hasStartedPlayback
        session.hasStartedPlayback = true
        if list[slot].accessLog.isEmpty || (firstPlay && list[slot].accessLog.last?.playbackStartDate != nil) {
            openAccessLogEvent(slot, startedNow: false, &out)
        }
        session.awaitsPlaybackStart = false
        let last = list[slot].accessLog.count - 1
        if list[slot].accessLog[last].playbackStartDate == nil {
            list[slot].accessLog[last].playbackStartDate = clock.wallClockNow()
        }
        if firstPlay, let requested = session.playRequestedAt {
            list[slot].accessLog[last].startupTime = instant.elapsed(since: requested)
        }
        list[slot].startsAtLiveEdge = false
    }

    /// Opens a new access-log entry for `slot`, dated now when playback is under way.
    mutating func openAccessLogEvent(_ slot: Slot, startedNow: Bool, uri: String? = nil, _ out: inout QueueOutcome) {
        let item = list[slot]
        var event = AccessLogEvent(
            uri: uri ?? item.accessLog.last?.uri ?? item.url, playbackType: item.playbackType,
            playbackStartOffset: item.currentTime, indicatedBitrate: item.indicatedBitrate)
        if startedNow {
            event.playbackStartDate = clock.wallClockNow()
        } else if slot == currentSlot {
            session.awaitsPlaybackStart = true
        }
        list[slot].accessLog.append(event)
        if list[slot].accessLog.count > configuration.logLimit { list[slot].accessLog.removeFirst() }
        out.post(.newAccessLogEntry(item.id))
    }
}
