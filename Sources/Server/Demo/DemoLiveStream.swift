import MediaTime
import Playlist

/// The demo live stream: a sliding-window HLS media playlist made from the wall clock over a
/// loop of VOD segments, so that live monitoring can be shown with no network and no encoder.
///
/// ## The timeline
/// The stream has run since ``epoch``, playing the loop's segments over and over: segment
/// number `k` (counted from the epoch) is loop segment `k mod n`, and starts at
/// `epoch + (k div n) × loopDuration + offset(k mod n)`. Because the timeline depends only on
/// the clock, every request, every restart of the server and every client see the same
/// stream, and its media sequence only ever rises.
///
/// ## One playlist
/// At instant `now`, the segments that have ended by `now` are published; the playlist lists
/// the last ``windowSegmentCount`` of them:
/// - `EXT-X-MEDIA-SEQUENCE` is the number of the first listed segment;
/// - each segment has its `EXT-X-PROGRAM-DATE-TIME` (its start on the timeline);
/// - each return to the loop's first segment is an `EXT-X-DISCONTINUITY` (timestamps restart
///   there), and `EXT-X-DISCONTINUITY-SEQUENCE` counts those that slid out of the window;
/// - there is no `EXT-X-ENDLIST`: the stream never ends.
///
/// It is pure: the clock is an argument.
public struct DemoLiveStream: Sendable {
    /// One segment of the loop.
    public struct Segment: Sendable, Hashable {
        public var uri: String
        public var duration: MediaTime

        public init(uri: String, duration: MediaTime) {
            self.uri = uri
            self.duration = duration
        }
    }

    public let loop: [Segment]
    public let windowSegmentCount: Int
    /// When the stream started (segment 0).
    public let epoch: DateTime
    /// Where each loop segment starts within the loop, in nanoseconds, with the loop's
    /// duration last: `offsets[i]` for `i` in `0...loop.count`.
    private let offsets: [Int64]
    private let targetDuration: Int

    /// A stream over `loop`; nil when the loop is empty or a duration is not a positive
    /// number of nanoseconds.
    public init?(loop: [Segment], windowSegmentCount: Int = 6, epoch: DateTime = DateTime(secondsSince1970: .zero)) {
        guard !loop.isEmpty, windowSegmentCount > 0 else { return nil }
        var offsets: [Int64] = [0]
        var longest = MediaTime.zero
        for segment in loop {
            guard segment.duration > .zero,
                  let nanoseconds = segment.duration.converted(toTimescale: 1_000_000_000).value,
                  let last = offsets.last
            else { return nil }
            let (sum, overflow) = last.addingReportingOverflow(nanoseconds)
            guard !overflow else { return nil }
            offsets.append(sum)
            longest = max(longest, segment.duration)
        }
        self.loop = loop
        self.windowSegmentCount = windowSegmentCount
        self.epoch = epoch
        self.offsets = offsets
        // EXTINF durations rounded to the nearest integer must not exceed the target.
        let rounded = longest.converted(toTimescale: 1, rounding: .toNearestOrAwayFromZero).value ?? 1
        targetDuration = Int(max(1, rounded))
    }

    /// A stream over the segments of a VOD media playlist, each named `uriPrefix` followed by
    /// its URI as the playlist writes it (`/media/vod-ts/` + `segment0.ts`).
    public init?(vod playlist: MediaPlaylist, uriPrefix: String, windowSegmentCount: Int = 6) {
        self.init(
            loop: playlist.segments.map { Segment(uri: uriPrefix + $0.uri, duration: $0.duration) },
            windowSegmentCount: windowSegmentCount)
    }

    private var loopNanoseconds: Int64 { offsets[loop.count] }

    /// The number of the segment playing at `nanoseconds` after the epoch (not negative).
    func segmentNumber(at nanoseconds: Int64) -> Int64 {
        let cycle = nanoseconds / loopNanoseconds
        let within = nanoseconds % loopNanoseconds
        // The last offset not after `within`; loops are short, a linear scan is enough.
        var index = 0
        while index + 1 < loop.count, offsets[index + 1] <= within { index += 1 }
        return cycle * Int64(loop.count) + Int64(index)
    }

    /// When segment `number` starts, in nanoseconds after the epoch.
    func start(ofSegment number: Int64) -> Int64 {
        let count = Int64(loop.count)
        return (number / count) * loopNanoseconds + offsets[Int(number % count)]
    }

    /// The playlist as it is at `now`. Before the epoch plus one window, the window is
    /// shorter; before the first segment ends it is empty.
    public func playlist(at now: DateTime) -> MediaPlaylist {
        var playlist = MediaPlaylist(targetDuration: targetDuration, version: 3)
        let elapsed = (now.secondsSince1970 - epoch.secondsSince1970).converted(
            toTimescale: 1_000_000_000, rounding: .down).value ?? 0
        guard elapsed > 0 else { return playlist }
        // The segment playing now is still being "recorded": the last published one is the
        // one before it.
        let lastPublished = segmentNumber(at: elapsed) - 1
        guard lastPublished >= 0 else { return playlist }
        let first = max(0, lastPublished - Int64(windowSegmentCount) + 1)
        let count = Int64(loop.count)
        playlist.mediaSequence = Int(first)
        // Discontinuities sit before segments n, 2n, 3n, …; those before `first` slid out.
        playlist.discontinuitySequence = Int(first > 0 ? (first - 1) / count : 0)
        for number in first...lastPublished {
            let source = loop[Int(number % count)]
            var segment = MediaSegment(uri: source.uri, duration: source.duration)
            segment.isDiscontinuity = number > 0 && number % count == 0
            segment.programDateTime = epoch + MediaTime(value: start(ofSegment: number), timescale: 1_000_000_000)
            segment.hasExplicitProgramDateTime = true
            playlist.segments.append(segment)
        }
        playlist.recomputeTimeline()
        return playlist
    }

    /// The playlist's text at `now`.
    public func text(at now: DateTime) -> String {
        PlaylistWriter.text(of: playlist(at: now), style: .canonical)
    }
}
