import MediaTime

/// What one track of an HLS item has loaded: the exact time ranges of its finished segments,
/// and the bytes of those that still lie ahead of the playhead.
///
/// - ``ranges`` is the union of the finished segments' `[start, start + duration)` on the
///   item's timeline, in exact ``MediaTime``: segments added in playback order merge into
///   the last range in O(1).
/// - ``bytesAhead`` sums the bytes of the loaded segments that end after the playhead, the
///   figure the forward buffer's byte limit bounds. ``advance(playhead:)`` drops the
///   segments the playhead has passed.
/// - ``trim(before:)`` forgets what slid out of a live window, so a live item's ranges stay
///   inside its window and its memory stays bounded.
///
/// Invariants (``checkInvariants()``): `bytesAhead` is the sum of the recorded segments'
/// bytes, each recorded segment ends after the playhead, and `ranges` is normalized.
public struct LoadedSegments: Sendable, Hashable {
    public private(set) var ranges = TimeRangeSet()
    public private(set) var bytesAhead: Int64 = 0
    private var playhead: MediaTime = .zero
    /// The loaded segments that end after the playhead, in the order they were loaded.
    private var ahead: [BufferedSegment] = []

    private struct BufferedSegment: Sendable, Hashable {
        var end: MediaTime
        var bytes: Int64
    }

    public init() {}

    /// A segment of `bytes` bytes covering `range` finished loading.
    public mutating func add(_ range: TimeRange, bytes: Int64) {
        ranges.formUnion(range)
        if range.end > playhead {
            ahead.append(BufferedSegment(end: range.end, bytes: bytes))
            bytesAhead += bytes
        }
        assert(checkInvariants())
    }

    /// Whether the whole of `range` is loaded.
    public func contains(_ range: TimeRange) -> Bool {
        ranges.contains(range)
    }

    /// The playhead moved: segments that end at or before it no longer count as ahead.
    public mutating func advance(playhead newPlayhead: MediaTime) {
        guard newPlayhead != playhead else { return }
        playhead = newPlayhead
        guard ahead.contains(where: { $0.end <= newPlayhead }) else { return }
        ahead.removeAll { $0.end <= newPlayhead }
        bytesAhead = ahead.reduce(0) { $0 + $1.bytes }
        assert(checkInvariants())
    }

    /// Forgets everything before `start` (the start of a live window).
    public mutating func trim(before start: MediaTime) {
        guard let first = ranges.start, first < start else { return }
        ranges = ranges.intersection(TimeRange(start: start, end: .indefinite))
        assert(checkInvariants())
    }

    public func checkInvariants() -> Bool {
        ranges.checkInvariants() && bytesAhead == ahead.reduce(0) { $0 + $1.bytes }
            && ahead.allSatisfy { $0.end > playhead }
    }
}
