/// A half-open span of a media timeline, `[start, end)`, like CoreMedia's `CMTimeRange`.
///
/// A range is *valid* when its start is numeric and its end is numeric and not before the
/// start, or indefinite (a range that has not ended yet, as a live stream's). A valid range
/// with `start == end` is empty and contains no time. Invalid ranges contain nothing and are
/// ignored by ``TimeRangeSet``.
public struct TimeRange: Sendable, Hashable {
    public let start: MediaTime
    public let end: MediaTime

    /// The range `[start, end)`.
    @inlinable
    public init(start: MediaTime, end: MediaTime) {
        self.start = start
        self.end = end
    }

    /// The range `[start, start + duration)`.
    @inlinable
    public init(start: MediaTime, duration: MediaTime) {
        self.init(start: start, end: start + duration)
    }

    /// `end - start`: numeric, indefinite, or invalid for an invalid range.
    @inlinable
    public var duration: MediaTime {
        isValid ? end - start : .invalid
    }

    @inlinable
    public var isValid: Bool {
        start.isNumeric && (end.isIndefinite || (end.isNumeric && start <= end))
    }

    @inlinable
    public var isEmpty: Bool {
        !isValid || start == end
    }

    /// Whether `time` lies in `[start, end)`.
    @inlinable
    public func contains(_ time: MediaTime) -> Bool {
        isValid && time.isNumeric && start <= time && time < end
    }

    /// Whether every time of `other` lies in this range. Every range contains an empty one
    /// that starts inside it or at its end.
    @inlinable
    public func contains(_ other: TimeRange) -> Bool {
        isValid && other.isValid && start <= other.start && other.end <= end
    }

    /// The times both ranges contain, or nil when they share none.
    @inlinable
    public func intersection(_ other: TimeRange) -> TimeRange? {
        guard isValid, other.isValid else { return nil }
        let range = TimeRange(start: max(start, other.start), end: min(end, other.end))
        return range.start < range.end ? range : nil
    }

    /// The time nearest to `time` inside the range: `start` before it, just `end` after it.
    @inlinable
    public func clamp(_ time: MediaTime) -> MediaTime {
        min(max(time, start), end)
    }
}

extension TimeRange: CustomStringConvertible {
    public var description: String {
        "[\(start), \(end))"
    }
}
