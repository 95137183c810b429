import MediaTime

/// The player's periodic and boundary time observers, like `AVPlayer`'s.
///
/// - A periodic observer fires when the playhead crosses a multiple of its interval during
///   playback, at most once per clock step (one notification carries the time reached, so a
///   long step does not flood the engine); it also fires when time jumps, when the current
///   item changes, and when playback starts or stops.
/// - A boundary observer fires once for each of its times that normal playback crosses, in
///   either direction: forward when `old < time <= new`, backward when `new <= time < old`.
///   Seeks and jumps do not fire it.
struct TimeObservers: Sendable {
    struct Periodic: Sendable {
        let id: TimeObserverID
        let intervalNanoseconds: Int64
    }

    struct Boundary: Sendable {
        let id: TimeObserverID
        /// Sorted, numeric.
        let times: [MediaTime]
    }

    private(set) var periodic: [Periodic] = []
    private(set) var boundary: [Boundary] = []
    private var nextNumber = 1

    var isEmpty: Bool {
        periodic.isEmpty && boundary.isEmpty
    }

    mutating func addPeriodic(intervalNanoseconds: Int64) -> TimeObserverID {
        let id = makeID()
        periodic.append(Periodic(id: id, intervalNanoseconds: intervalNanoseconds))
        return id
    }

    mutating func addBoundary(times: [MediaTime]) -> TimeObserverID {
        let id = makeID()
        boundary.append(Boundary(id: id, times: times.filter(\.isNumeric).sorted()))
        return id
    }

    /// Whether an observer with that id existed.
    mutating func remove(_ id: TimeObserverID) -> Bool {
        let count = periodic.count + boundary.count
        periodic.removeAll { $0.id == id }
        boundary.removeAll { $0.id == id }
        return periodic.count + boundary.count < count
    }

    private mutating func makeID() -> TimeObserverID {
        defer { nextNumber += 1 }
        return TimeObserverID(rawValue: nextNumber)
    }

    /// The playhead of `item` moved by playing from `old` to `new`.
    func playheadMoved(from old: MediaTime, to new: MediaTime, item: ItemID, _ out: inout QueueOutcome) {
        if !periodic.isEmpty, let from = old.nanoseconds(rounding: .down), let to = new.nanoseconds(rounding: .down) {
            for observer in periodic {
                if floorDivide(from, observer.intervalNanoseconds) != floorDivide(to, observer.intervalNanoseconds) {
                    out.post(.periodicTime(observer.id, item, new))
                }
            }
        }
        for observer in boundary {
            let times = observer.times
            if old < new {
                // Times in (old, new], in order.
                var index = firstIndex(in: times) { $0 > old }
                while index < times.count, times[index] <= new {
                    out.post(.boundaryTimeCrossed(observer.id, item, times[index]))
                    index += 1
                }
            } else if new < old {
                // Times in [new, old), in the order playback meets them: descending.
                var index = firstIndex(in: times) { $0 >= old } - 1
                while index >= 0, times[index] >= new {
                    out.post(.boundaryTimeCrossed(observer.id, item, times[index]))
                    index -= 1
                }
            }
        }
    }

    /// Time jumped, the current item changed, or playback started or stopped.
    func timeJumped(item: ItemID?, to time: MediaTime, _ out: inout QueueOutcome) {
        for observer in periodic {
            out.post(.periodicTime(observer.id, item, time))
        }
    }

    /// The first index whose time satisfies `isPast`, which holds for a suffix.
    private func firstIndex(in times: [MediaTime], where isPast: (MediaTime) -> Bool) -> Int {
        var (low, high) = (0, times.count)
        while low < high {
            let middle = (low + high) / 2
            if isPast(times[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension QueuePlayer {
    /// Adds a periodic observer; its notifications carry the returned id.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/invalidTimeObserver`` unless the interval
    /// is at least a nanosecond.
    public mutating func addPeriodicTimeObserver(interval: MediaTime) throws(QueueRefusal) -> TimeObserverID {
        guard let nanoseconds = interval.nanoseconds(rounding: .toNearestOrAwayFromZero), nanoseconds >= 1 else {
            throw QueueRefusal(.invalidTimeObserver, "a periodic interval must be at least a nanosecond, not \(interval)")
        }
        return observers.addPeriodic(intervalNanoseconds: nanoseconds)
    }

    /// Adds a boundary observer for `times` (non-numeric times are ignored).
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/invalidTimeObserver`` without a numeric time.
    public mutating func addBoundaryTimeObserver(times: [MediaTime]) throws(QueueRefusal) -> TimeObserverID {
        guard times.contains(where: \.isNumeric) else {
            throw QueueRefusal(.invalidTimeObserver, "a boundary observer needs at least one numeric time")
        }
        return observers.addBoundary(times: times)
    }

    /// Refused: ``QueueRefusal/Reason-swift.struct/unknownTimeObserver``.
    public mutating func removeTimeObserver(_ id: TimeObserverID) throws(QueueRefusal) {
        guard observers.remove(id) else {
            throw QueueRefusal(.unknownTimeObserver, "no time observer \(id)")
        }
    }
}
