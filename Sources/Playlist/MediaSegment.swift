import MediaTime

/// One media segment of a ``MediaPlaylist``: its URI line and the tags that apply to it.
///
/// A parsed segment knows everything a loader needs without looking back at the playlist:
/// - its position: ``mediaSequenceNumber`` and ``discontinuitySequence``;
/// - its timing: ``startTime`` (the exact sum of the durations before it, from the first
///   segment of the playlist) and ``duration``;
/// - the state in force: ``keys``, ``map``, ``bitrate``, held in one reference shared by
///   the consecutive segments they apply to;
/// - its ``byteRange`` with the offset resolved, and its ``programDateTime``, given by a tag
///   or extrapolated from the nearest segment that has one.
///
/// In a playlist, segments are not stored as `MediaSegment` values: ``MediaSegmentList``
/// keeps them column by column and builds a value on each access, so that a list of 100,000
/// segments stays a fraction of the playlist's size. A value read from the list is a copy;
/// change it and store it back (`playlist.segments[i].title = "…"` does both).
///
/// The derived values (sequence numbers, start time, extrapolated date-time, resolved
/// offsets) are computed by the parser and by ``MediaPlaylist/recomputeTimeline()``; after
/// editing durations or flags in code, call that to bring them up to date. The writer only
/// reads the values a tag carries (duration, title, flags, ranges, keys, map, bitrate, a date
/// given by a tag), never the derived ones.
public struct MediaSegment: Sendable, Hashable {
    /// The `EXTINF` duration, exact.
    public var duration: MediaTime
    /// Preceded by `EXT-X-DISCONTINUITY`.
    public var isDiscontinuity: Bool
    /// `EXT-X-GAP`: the segment is missing and must not be loaded.
    public var isGap: Bool
    /// Whether ``programDateTime`` was given by a tag on this segment (otherwise extrapolated).
    public var hasExplicitProgramDateTime: Bool
    /// The exact sum of the durations of the segments before this one in the playlist.
    public internal(set) var startTime: MediaTime
    /// The date-time of the segment's first sample.
    public var programDateTime: DateTime?
    /// `EXT-X-MEDIA-SEQUENCE` plus the segment's index.
    public internal(set) var mediaSequenceNumber: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE` plus the discontinuities up to this segment.
    public internal(set) var discontinuitySequence: Int
    /// The byte range, offset resolved; nil for the whole resource.
    public var byteRange: ByteRange?
    /// The keys, map, bitrate and base URL in force, shared with the neighbouring segments.
    var context: SegmentContext
    /// What most segments do not have: parts, preserved lines, a title or a URI that is not a
    /// span of the source.
    var extras: SegmentExtras?
    /// The URI line as a span of the source text, so that parsing a segment builds no
    /// string; ``TextSpan/owned`` when the URI is in ``extras``.
    var uriSpan: TextSpan
    /// The `EXTINF` title as a span of the source text: ``TextSpan/empty`` when there is
    /// none, ``TextSpan/owned`` when it is in ``extras``.
    var titleSpan: TextSpan

    /// A segment with the given URI and duration; sequence numbers and times are set when it
    /// is placed in a playlist (``MediaPlaylist/recomputeTimeline()``).
    public init(uri: String, duration: MediaTime, title: String = "") {
        self.duration = duration
        isDiscontinuity = false
        isGap = false
        hasExplicitProgramDateTime = false
        startTime = .zero
        mediaSequenceNumber = 0
        discontinuitySequence = 0
        context = .empty
        uriSpan = .owned
        titleSpan = title.isEmpty ? .empty : .owned
        extras = SegmentExtras.make(SegmentExtras.Fields(title: title.isEmpty ? nil : title, uri: uri))
    }

    /// Every stored property, for ``MediaSegmentList``.
    init(duration: MediaTime, flags: SegmentFlags, startTime: MediaTime, programDateTime: DateTime?,
         mediaSequenceNumber: Int, discontinuitySequence: Int, byteRange: ByteRange?, context: SegmentContext,
         extras: SegmentExtras?, uriSpan: TextSpan, titleSpan: TextSpan) {
        self.duration = duration
        isDiscontinuity = flags.contains(.discontinuity)
        isGap = flags.contains(.gap)
        hasExplicitProgramDateTime = flags.contains(.explicitProgramDateTime)
        self.startTime = startTime
        self.programDateTime = programDateTime
        self.mediaSequenceNumber = mediaSequenceNumber
        self.discontinuitySequence = discontinuitySequence
        self.byteRange = byteRange
        self.context = context
        self.extras = extras
        self.uriSpan = uriSpan
        self.titleSpan = titleSpan
    }

    /// The three flags as ``MediaSegmentList`` stores them.
    var flags: SegmentFlags {
        var flags: SegmentFlags = []
        if isDiscontinuity { flags.insert(.discontinuity) }
        if isGap { flags.insert(.gap) }
        if hasExplicitProgramDateTime { flags.insert(.explicitProgramDateTime) }
        return flags
    }

    /// Replaces ``extras`` with a copy changed by `change` (nil when nothing is left).
    private mutating func updateExtras(_ change: (inout SegmentExtras.Fields) -> Void) {
        var fields = extras?.fields ?? SegmentExtras.Fields()
        change(&fields)
        extras = SegmentExtras.make(fields)
    }

    /// The URI line, after variable substitution.
    public var uri: String {
        get { uriSpan.isOwned ? extras?.fields.uri ?? "" : context.string(uriSpan) }
        set {
            uriSpan = .owned
            updateExtras { $0.uri = newValue }
        }
    }

    /// The `EXTINF` title; empty when there is none.
    public var title: String {
        get { titleSpan.isOwned ? extras?.fields.title ?? "" : context.string(titleSpan) }
        set {
            titleSpan = newValue.isEmpty ? .empty : .owned
            updateExtras { $0.title = newValue.isEmpty ? nil : newValue }
        }
    }

    /// The `EXT-X-KEY` tags in force, one per key format; empty when unencrypted
    /// (`METHOD=NONE` clears them).
    public var keys: [EncryptionKey] {
        get { context.keys }
        set { context = context.with(keys: newValue) }
    }

    /// The `EXT-X-MAP` in force.
    public var map: MediaInitializationSection? {
        get { context.map }
        set { context = context.with(map: newValue) }
    }

    /// The `EXT-X-BITRATE` in force, in kilobits per second.
    public var bitrate: Int? {
        get { context.bitrate }
        set { context = context.with(bitrate: newValue) }
    }

    /// `EXT-X-PART` tags of the segment, in order (Low-Latency HLS).
    public var parts: [PartialSegment] {
        get { extras?.fields.parts ?? [] }
        set { updateExtras { $0.parts = newValue } }
    }

    /// Unknown tags and comments written just before this segment's tags, in order.
    public var precedingLines: [PreservedLine] {
        get { extras?.fields.precedingLines ?? [] }
        set { updateExtras { $0.precedingLines = newValue } }
    }

    var base: BaseURL? {
        get { context.base }
        set { context = context.with(base: newValue) }
    }

    /// The URI resolved against the playlist URL; computed on each access.
    public var url: String { BaseURL.resolve(uri, against: base) }

    /// `[startTime, startTime + duration)`.
    public var timeRange: TimeRange { TimeRange(start: startTime, duration: duration) }

    /// The typed ad markers among ``precedingLines``.
    public var adMarkers: [AdMarker] { precedingLines.compactMap(\.adMarker) }

    public static func == (lhs: MediaSegment, rhs: MediaSegment) -> Bool {
        lhs.duration == rhs.duration && lhs.isDiscontinuity == rhs.isDiscontinuity && lhs.isGap == rhs.isGap
            && lhs.byteRange == rhs.byteRange && lhs.programDateTime == rhs.programDateTime
            && lhs.hasExplicitProgramDateTime == rhs.hasExplicitProgramDateTime
            && lhs.mediaSequenceNumber == rhs.mediaSequenceNumber
            && lhs.discontinuitySequence == rhs.discontinuitySequence && lhs.startTime == rhs.startTime
            && lhs.context == rhs.context && lhs.parts == rhs.parts && lhs.precedingLines == rhs.precedingLines
            && lhs.uri == rhs.uri && lhs.title == rhs.title
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(duration)
        hasher.combine(title)
        hasher.combine(byteRange)
        hasher.combine(mediaSequenceNumber)
    }
}
