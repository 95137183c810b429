/// A normalized union of time ranges, such as an item's loaded or seekable time ranges.
///
/// Invariants, checked by ``checkInvariants()`` after every mutation in debug builds:
/// - every stored range is valid and non-empty;
/// - ranges are sorted by start;
/// - ranges neither overlap nor touch: each ends strictly before the next one starts, so
///   `[0, 2)` and `[2, 4)` are stored as `[0, 4)`.
///
/// Because the form is normalized, two sets that cover the same times are equal.
///
/// Adding a range costs O(log n) to find its place, plus the ranges it merges. Adding
/// segments in playback order, the common case, merges into the last range in O(1).
public struct TimeRangeSet: Sendable, Hashable {
    public private(set) var ranges: [TimeRange]

    /// The empty set.
    public init() {
        ranges = []
    }

    /// The union of `ranges`; invalid and empty ranges are ignored.
    public init(_ ranges: some Sequence<TimeRange>) {
        self.init()
        for range in ranges { formUnion(range) }
    }

    public var isEmpty: Bool {
        ranges.isEmpty
    }

    /// The earliest time covered, or nil when empty.
    public var start: MediaTime? {
        ranges.first?.start
    }

    /// The end of the last range, or nil when empty.
    public var end: MediaTime? {
        ranges.last?.end
    }

    /// The sum of the ranges' durations: indefinite when the last range has not ended.
    public var totalDuration: MediaTime {
        MediaTime.sum(ranges.lazy.map(\.duration))
    }

    // MARK: Union

    /// Adds `range`, merging it with the ranges it overlaps or touches. Invalid and empty
    /// ranges are ignored.
    public mutating func formUnion(_ range: TimeRange) {
        defer { assert(checkInvariants()) }
        guard !range.isEmpty else { return }
        guard let last = ranges.last else {
            ranges.append(range)
            return
        }
        if last.end < range.start {
            ranges.append(range)
            return
        }
        if last.start <= range.start {
            ranges[ranges.count - 1] = TimeRange(start: last.start, end: Swift.max(last.end, range.end))
            return
        }
        // The first range that ends at or after the new start may merge with it, and so may
        // every following range that starts at or before the new end.
        let first = partitionIndex { $0.end >= range.start }
        let afterLast = partitionIndex { $0.start > range.end }
        guard first < afterLast else {
            ranges.insert(range, at: first)
            return
        }
        let merged = TimeRange(
            start: Swift.min(ranges[first].start, range.start),
            end: Swift.max(ranges[afterLast - 1].end, range.end)
        )
        ranges[first] = merged
        ranges.removeSubrange((first + 1)..<afterLast)
    }

    public mutating func formUnion(_ other: TimeRangeSet) {
        for range in other.ranges { formUnion(range) }
    }

    public func union(_ range: TimeRange) -> TimeRangeSet {
        var copy = self
        copy.formUnion(range)
        return copy
    }

    public func union(_ other: TimeRangeSet) -> TimeRangeSet {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    // MARK: Intersection

    /// The times covered by both sets, in one linear pass over each.
    public func intersection(_ other: TimeRangeSet) -> TimeRangeSet {
        var result = TimeRangeSet()
        var (i, j) = (0, 0)
        while i < ranges.count && j < other.ranges.count {
            let (a, b) = (ranges[i], other.ranges[j])
            if let shared = a.intersection(b) { result.ranges.append(shared) }
            if a.end < b.end { i += 1 } else { j += 1 }
        }
        assert(result.checkInvariants())
        return result
    }

    /// The times of this set that lie in `range`: for example, the loaded ranges that are
    /// still inside a live window.
    public func intersection(_ range: TimeRange) -> TimeRangeSet {
        intersection(TimeRangeSet([range]))
    }

    // MARK: Queries

    /// Whether some range contains `time`.
    public func contains(_ time: MediaTime) -> Bool {
        range(containing: time) != nil
    }

    /// Whether a single range of the set covers all of `range`.
    public func contains(_ range: TimeRange) -> Bool {
        guard range.isValid else { return false }
        let index = partitionIndex { $0.end >= range.end }
        return index < ranges.count && ranges[index].contains(range)
    }

    /// The contiguous range that contains `time`, or nil when `time` is in a hole. At the very
    /// end of a range, `time` is not contained: nothing is buffered ahead of it.
    public func range(containing time: MediaTime) -> TimeRange? {
        guard time.isNumeric else { return nil }
        let index = partitionIndex { $0.end > time }
        guard index < ranges.count, ranges[index].start <= time else { return nil }
        return ranges[index]
    }

    /// The index of the first range for which `isPast` holds, or `ranges.count`. `isPast`
    /// must be false for a prefix of the ranges and true for the rest.
    private func partitionIndex(where isPast: (TimeRange) -> Bool) -> Int {
        var (low, high) = (0, ranges.count)
        while low < high {
            let middle = (low + high) / 2
            if isPast(ranges[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Whether the invariants in the type's documentation hold.
    public func checkInvariants() -> Bool {
        for (index, range) in ranges.enumerated() {
            guard range.isValid, !range.isEmpty else { return false }
            if index > 0 && !(ranges[index - 1].end < range.start) { return false }
        }
        return true
    }
}

extension TimeRangeSet: RandomAccessCollection {
    public var startIndex: Int { ranges.startIndex }
    public var endIndex: Int { ranges.endIndex }
    public subscript(position: Int) -> TimeRange { ranges[position] }
}

extension TimeRangeSet: CustomStringConvertible {
    public var description: String {
        ranges.isEmpty ? "∅" : ranges.map(\.description).joined(separator: " ∪ ")
    }
}
