import MediaTime

// When the engine's timer must call `tick()` next.

extension QueuePlayer {
    /// The next instant at which playback, left alone, reaches something that changes the
    /// player's state or produces a notification: the end of the current item (its duration,
    /// its forward or reverse end, its loop range's end), the end of the contiguous loaded
    /// media (a stall), a boundary observer's time, or a multiple of a periodic observer's
    /// interval.
    ///
    /// Nil when nothing can happen until a command or a loader report arrives: paused,
    /// waiting, or playing past the end under `actionAtItemEnd == .none`. The engine sleeps
    /// until this instant and then calls ``tick()``; an early tick only moves the playhead,
    /// and the deadline after it is correspondingly nearer. The instant is at or after the
    /// last transition's clock reading; it equals it only when something is due at once.
    public var nextDeadline: MonotonicInstant? {
        guard timeControlStatus == .playing, rate != 0, let slot = currentSlot, session.timePastEnd == nil else {
            return nil
        }
        let forward = rate > 0
        let position = list[slot].currentTime
        let (limit, _) = playbackLimit(of: slot, forward: forward)
        var distance = mediaDistance(from: position, to: limit, forward: forward)
        if !observers.isEmpty, let start = position.nanoseconds(rounding: forward ? .down : .up) {
            distance = min(distance, observers.mediaDistanceToNextFiring(from: position, nanoseconds: start, forward: forward))
        }
        let elapsed = elapsedNanoseconds(toCover: distance)
        guard elapsed < .max else { return nil }
        return lastInstant.advanced(by: elapsed)
    }
}

extension TimeObservers {
    /// Media nanoseconds from `position` (`start` in whole nanoseconds, rounded toward the
    /// direction of play) until playback in that direction fires an observer; `Int64.max`
    /// when none would.
    func mediaDistanceToNextFiring(from position: MediaTime, nanoseconds start: Int64, forward: Bool) -> Int64 {
        var distance = Int64.max
        for observer in periodic {
            let interval = observer.intervalNanoseconds
            // A periodic observer fires when the playhead's interval number changes.
            let number = start >= 0 ? start / interval : (start - interval + 1) / interval
            let crossing = forward ? (number + 1) * interval : number * interval - 1
            distance = min(distance, forward ? crossing - start : start - crossing)
        }
        for observer in boundary {
            // Forward, a time fires when `old < time <= new`; backward when `new <= time < old`.
            let next = forward ? observer.times.first { $0 > position } : observer.times.last { $0 < position }
            guard let next, let target = next.nanoseconds(rounding: forward ? .up : .down) else { continue }
            distance = min(distance, max(0, forward ? target - start : start - target))
        }
        return distance
    }
}
