import MediaTime

// The playback clock: how the playhead moves between two clock readings, and what happens
// when it reaches the end of the item or of the loaded media.

extension QueuePlayer {
    /// Plays from the last reading up to `now`: the playhead advances by rate × elapsed time,
    /// bounded by the contiguous loaded range around it and by the item's end. Reaching the
    /// end applies loops and `actionAtItemEnd`, and playback may go on with the next item in
    /// the same call; reaching the end of the loaded media stalls. With `now` equal to the
    /// last reading it only carries out events due at once (an item already at its end).
    mutating func advancePlayback(to now: MonotonicInstant, _ out: inout QueueOutcome) {
        let target = max(now, lastInstant)
        var instant = lastInstant
        var eventsWithoutProgress = 0
        while timeControlStatus == .playing, let slot = currentSlot {
            let available = target.nanoseconds &- instant.nanoseconds
            if let past = session.timePastEnd {
                if available > 0 {
                    let moved = MediaTime(value: mediaNanoseconds(forElapsed: available), timescale: Self.nanosecondScale)
                    session.timePastEnd = past.adding(moved)
                    recordWatched(available, in: slot)
                }
                break
            }
            let forward = rate > 0
            let position = list[slot].currentTime
            let (limit, isEnd) = playbackLimit(of: slot, forward: forward)
            let needed = elapsedNanoseconds(toCover: mediaDistance(from: position, to: limit, forward: forward))
            if needed > available {
                let moved = mediaNanoseconds(forElapsed: available)
                if moved > 0, let start = position.nanoseconds(rounding: forward ? .down : .up) {
                    let next = forward ? start &+ moved : start &- moved
                    movePlayhead(slot, to: MediaTime(value: next, timescale: Self.nanosecondScale), &out)
                }
                if available > 0 { recordWatched(available, in: slot) }
                break
            }
            if limit != position { movePlayhead(slot, to: limit, &out) }
            if needed > 0 { recordWatched(needed, in: slot) }
            instant = instant.advanced(by: needed)
            eventsWithoutProgress = needed == 0 ? eventsWithoutProgress + 1 : 0
            if eventsWithoutProgress > list.count + 2 {
                // Only empty items are left to play: stop rather than spin.
                changeRate(to: 0, at: instant, &out)
                refreshTimeControlStatus(at: instant, &out)
                break
            }
            if isEnd { reachEnd(at: instant, &out) }
            refreshTimeControlStatus(at: instant, &out)
        }
        lastInstant = target
    }

    static var nanosecondScale: Int32 { 1_000_000_000 }

    /// Where continuous playback of the entry in `slot` must stop, and whether that is the
    /// end of the item (rather than the end of the loaded media). Reads fields in place: the
    /// clock calls it on every tick.
    func playbackLimit(of slot: Slot, forward: Bool) -> (MediaTime, isEnd: Bool) {
        let position = list[slot].currentTime
        if forward {
            let end = effectiveForwardEnd(of: slot)
            if end.isNumeric && position >= end { return (position, true) }
            guard let range = list[slot].loadedTimeRanges.range(containing: position) else { return (position, false) }
            if end.isNumeric && range.end >= end { return (end, true) }
            return (range.end, false)
        } else {
            let end = list[slot].reverseEnd
            if position <= end { return (position, true) }
            guard let range = loadedRange(behind: position, in: list[slot].loadedTimeRanges) else { return (position, false) }
            if range.start <= end { return (end, true) }
            return (range.start, false)
        }
    }

    /// The loaded range that holds the media just before `time`: `start < time <= end`.
    func loadedRange(behind time: MediaTime, in loaded: TimeRangeSet) -> TimeRange? {
        loaded.ranges.first { $0.start < time && time <= $0.end }
    }

    /// Whether playback in the current direction has media to play, or is at its end (where
    /// it ends at once).
    func canMove(_ slot: Slot, forward: Bool) -> Bool {
        let (limit, isEnd) = playbackLimit(of: slot, forward: forward)
        return isEnd || limit != list[slot].currentTime
    }

    /// The end of forward playback: the item's end, or the end of its loop's time range.
    func effectiveForwardEnd(of slot: Slot) -> MediaTime {
        let end = list[slot].forwardEnd
        guard let range = (list[slot].loop ?? settings.loopMode.itemLoop)?.timeRange, range.end.isNumeric else { return end }
        return end.isNumeric ? min(end, range.end) : range.end
    }

    /// The loop that applies to `item`: its own, or the player's item loop mode.
    func activeLoop(for item: PlayerItem) -> ItemLoop? {
        item.loop ?? settings.loopMode.itemLoop
    }

    /// Where a play of `item` starts: its loop range's start, or zero.
    func startTime(of item: PlayerItem) -> MediaTime {
        let start = activeLoop(for: item)?.timeRange?.start ?? .zero
        return item.duration.isNumeric ? min(start, item.duration) : start
    }

    /// Media nanoseconds between two times in the direction of play; 0 when already there,
    /// `Int64.max` when the limit cannot be reached (not numeric).
    func mediaDistance(from position: MediaTime, to limit: MediaTime, forward: Bool) -> Int64 {
        if forward ? position >= limit : position <= limit { return 0 }
        guard let from = position.nanoseconds(rounding: forward ? .down : .up),
              let to = limit.nanoseconds(rounding: forward ? .up : .down) else { return .max }
        return max(0, forward ? to &- from : from &- to)
    }

    /// Media nanoseconds played in `elapsed` nanoseconds at the current rate, rounded down;
    /// exact for whole rates.
    func mediaNanoseconds(forElapsed elapsed: Int64) -> Int64 {
        let speed = abs(rate)
        if speed == speed.rounded(.down) {
            let (product, overflow) = elapsed.multipliedReportingOverflow(by: Int64(speed))
            return overflow ? .max : product
        }
        let moved = (Double(elapsed) * speed).rounded(.down)
        return moved < 9.2e18 ? Int64(moved) : .max
    }

    /// The fewest elapsed nanoseconds that play at least `distance` media nanoseconds.
    func elapsedNanoseconds(toCover distance: Int64) -> Int64 {
        guard distance > 0 else { return 0 }
        guard distance < .max else { return .max }
        let speed = abs(rate)
        if speed == speed.rounded(.down) {
            let whole = Int64(speed)
            return distance / whole + (distance % whole == 0 ? 0 : 1)
        }
        let estimate = (Double(distance) / speed).rounded(.up)
        guard estimate < 9.2e18 else { return .max }
        var elapsed = Int64(estimate)
        while mediaNanoseconds(forElapsed: elapsed) < distance { elapsed += 1 }
        while elapsed > 0 && mediaNanoseconds(forElapsed: elapsed - 1) >= distance { elapsed -= 1 }
        return elapsed
    }

    /// The playhead moved by playing: boundary and periodic observers see the crossing.
    mutating func movePlayhead(_ slot: Slot, to time: MediaTime, _ out: inout QueueOutcome) {
        let old = list[slot].currentTime
        list[slot].currentTime = time
        list[slot].startsAtLiveEdge = false
        if !observers.isEmpty {
            observers.playheadMoved(from: old, to: time, item: list[slot].id, &out)
        }
    }

    /// The playhead moved other than by playing: a seek, a loop restart, a live window that
    /// slid past it.
    mutating func jumpPlayhead(_ slot: Slot, to time: MediaTime, _ out: inout QueueOutcome) {
        list[slot].currentTime = time
        list[slot].startsAtLiveEdge = false
        if slot == currentSlot {
            session.timePastEnd = nil
            if time < effectiveForwardEnd(of: slot) { session.endPosted = false }
        }
        out.post(.timeJumped(list[slot].id, to: time))
        observers.timeJumped(item: list[slot].id, to: time, &out)
    }

    /// The forward or reverse end was reached: loop, or do what `actionAtItemEnd` says.
    mutating func reachEnd(at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        guard let slot = currentSlot else { return }
        let id = list[slot].id
        if !session.endPosted {
            session.endPosted = true
            out.post(.didPlayToEndTime(id))
        }
        if rate < 0 {
            changeRate(to: 0, at: instant, &out)
            return
        }
        let item = list[slot]
        if let loop = activeLoop(for: item), loop.plays.map({ item.loopCount + 1 < $0 }) ?? true {
            let start = startTime(of: item)
            // An empty loop range would restart forever without playing anything.
            if start < item.currentTime {
                list[slot].loopCount += 1
                jumpPlayhead(slot, to: start, &out)
                out.post(.itemLooped(id, loopCount: list[slot].loopCount))
                return
            }
        }
        applyEndAction(at: instant, &out)
    }

    /// `actionAtItemEnd` for the current item, which is at its end.
    mutating func applyEndAction(at instant: MonotonicInstant, _ out: inout QueueOutcome) {
        switch settings.actionAtItemEnd {
        case .advance:
            if !advanceEntry(at: instant, &out) {
                changeRate(to: 0, at: instant, &out)
            }
        case .pause:
            changeRate(to: 0, at: instant, &out)
        case .none:
            session.timePastEnd = .zero
        }
    }

    /// Adds real playing time to the open access-log entry.
    mutating func recordWatched(_ nanoseconds: Int64, in slot: Slot) {
        let count = list[slot].accessLog.count
        guard count > 0 else { return }
        let watched = MediaTime(value: nanoseconds, timescale: Self.nanosecondScale)
        list[slot].accessLog[count - 1].durationWatched = list[slot].accessLog[count - 1].durationWatched.adding(watched)
    }
}
