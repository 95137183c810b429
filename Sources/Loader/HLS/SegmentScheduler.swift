import MediaTime
import Playlist

/// Chooses the next segment of one track to download: the first segment, in playlist order,
/// that ends after the anchor (the playhead, or where a seek asked to load from), is not
/// loaded, is not an `EXT-X-GAP`, has not failed, and starts before the forward buffer's
/// limit.
///
/// It keeps a cursor, the media sequence number where the last search stopped, so that
/// loading segment after segment costs O(1) each: the cursor stays valid while the anchor
/// does not move back and has not passed the cursor's segment, and across reloads of a live
/// playlist (numbers, not indices). Otherwise, or after ``reset()``, the search starts
/// again from the anchor by binary search. A run of loaded segments is skipped in one step,
/// through the loaded range that contains it.
public struct SegmentScheduler: Sendable, Hashable {
    private var cursor: Int?
    private var cursorAnchor: MediaTime?

    public init() {}

    /// Forgets the cursor: the next search starts from the anchor.
    public mutating func reset() {
        cursor = nil
        cursorAnchor = nil
    }

    /// The index in `playlist.segments` of the next segment to load, or nil when none is due.
    ///
    /// - Parameters:
    ///   - offset: the item time of the playlist's time zero.
    ///   - anchor: the item time to load from.
    ///   - limit: segments that start at or after this item time are not due yet.
    ///   - failed: media sequence numbers of segments not to try again.
    public mutating func nextSegment(
        in playlist: MediaPlaylist, offset: MediaTime, anchor: MediaTime, limit: MediaTime,
        loaded: LoadedSegments, failed: Set<Int>
    ) -> Int? {
        let segments = playlist.segments
        // Compared in the playlist's own time, so that a segment costs no addition across
        // timescales; only the loaded-range check needs item time.
        let relativeAnchor = anchor - offset
        let relativeLimit = limit - offset
        let placesAtZero = offset.value == 0
        var index = validCursorIndex(in: playlist, relativeAnchor: relativeAnchor, anchor: anchor)
            ?? Self.firstIndex(in: segments, endingAfter: relativeAnchor)
        defer {
            cursor = playlist.mediaSequence + index
            cursorAnchor = anchor
        }
        // Fields are read one by one from their columns: building whole segments here would
        // cost more than the rest of the search.
        while index < segments.count {
            let startTime = segments.startTime(at: index)
            if startTime >= relativeLimit { return nil }
            if segments.isGap(at: index) || (!failed.isEmpty && failed.contains(segments.mediaSequenceNumber(at: index))) {
                index += 1
                continue
            }
            let start = placesAtZero ? startTime : offset + startTime
            if let run = loaded.ranges.range(containing: start), run.end >= start + segments.duration(at: index) {
                index = Self.firstIndex(in: segments, after: index, endingAfter: run.end - offset)
                continue
            }
            return index
        }
        return nil
    }

    /// The cursor's index when it may be used for `anchor` (`relativeAnchor` in playlist time).
    private func validCursorIndex(in playlist: MediaPlaylist, relativeAnchor: MediaTime, anchor: MediaTime) -> Int? {
        guard let cursor, let cursorAnchor, anchor >= cursorAnchor else { return nil }
        let index = cursor - playlist.mediaSequence
        let segments = playlist.segments
        guard index >= 0, index <= segments.count else { return nil }
        if index < segments.count {
            guard relativeAnchor < segments.startTime(at: index) + segments.duration(at: index) else { return nil }
        }
        return index
    }

    /// The first index after `index` whose segment ends after `time`: the next one, in the
    /// common case of a run that ends with the segment at `index`, else by binary search.
    static func firstIndex(in segments: MediaSegmentList, after index: Int, endingAfter time: MediaTime) -> Int {
        let next = index + 1
        guard next < segments.count else { return segments.count }
        if segments.startTime(at: next) + segments.duration(at: next) > time { return next }
        return max(next, firstIndex(in: segments, endingAfter: time))
    }

    /// The index of the first segment whose end (in playlist time) is after `time`, or the
    /// number of segments.
    static func firstIndex(in segments: MediaSegmentList, endingAfter time: MediaTime) -> Int {
        var (low, high) = (0, segments.count)
        while low < high {
            let middle = (low + high) / 2
            if segments.startTime(at: middle) + segments.duration(at: middle) > time { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
