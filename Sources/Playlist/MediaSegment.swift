import MediaTime

/// One media segment of a ``MediaPlaylist``: its URI line and the tags that apply to it.
///
/// A parsed segment knows everything a loader needs without looking back at the playlist:
/// - its position: ``mediaSequenceNumber`` and ``discontinuitySequence``;
/// - its timing: ``startTime`` (the exact sum of the durations before it, from the first
///   segment of the playlist) and ``duration``;
/// - the state in force: ``keys``, ``map``, ``bitrate``, held in one reference shared by
///   the consecutive segments they apply to, so a segment stays small;
/// - its ``byteRange`` with the offset resolved, and its ``programDateTime``, given by a tag
///   or extrapolated from the nearest segment that has one.
///
/// The derived values (sequence numbers, start time, extrapolated date-time, resolved
/// offsets) are computed by the parser and by ``MediaPlaylist/recomputeTimeline()``; after
/// editing durations or flags in code, call that to bring them up to date. The writer only
/// reads the values a tag carries (duration, title, flags, ranges, keys, map, bitrate, a date
/// given by a tag), never the derived ones.
public struct MediaSegment: Sendable, Hashable {
    // Stored properties are ordered so that the flags fill the padding after `duration`:
    // 100,000 segments must stay within a few times the playlist's size.

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
    /// The keys, map, bitrate and base URL in force, shared with the neighbouring segments.
    var context: SegmentContext
    /// What most segments do not have: a byte range, parts, preserved lines, a title, a URI
    /// that is not a span of the source.
    var extras: SegmentExtras?
    /// The URI line as a span of the source text, so that parsing a segment builds no
    /// string; ``TextSpan/owned`` when the URI is in ``extras``.
    var uriSpan: TextSpan

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
        extras = SegmentExtras.make(SegmentExtras.Fields(title: title.isEmpty ? nil : .owned(title), uri: uri))
    }

    /// Every stored property, for the parser.
    init(uri: TextSpan, duration: MediaTime, isDiscontinuity: Bool, isGap: Bool,
         programDateTime: DateTime?, hasExplicitProgramDateTime: Bool, mediaSequenceNumber: Int,
         discontinuitySequence: Int, startTime: MediaTime, context: SegmentContext, extras: SegmentExtras?) {
        self.duration = duration
        self.isDiscontinuity = isDiscontinuity
        self.isGap = isGap
        self.hasExplicitProgramDateTime = hasExplicitProgramDateTime
        self.startTime = startTime
        self.programDateTime = programDateTime
        self.mediaSequenceNumber = mediaSequenceNumber
        self.discontinuitySequence = discontinuitySequence
        self.context = context
        self.extras = extras
        uriSpan = uri
    }

    /// The byte range, offset resolved; nil for the whole resource.
    public var byteRange: ByteRange? {
        get { extras?.fields.byteRange }
        set { updateExtras { $0.byteRange = newValue } }
    }

    /// Replaces ``extras`` with a copy changed by `change` (nil when nothing is left).
    private mutating func updateExtras(_ change: (inout SegmentExtras.Fields) -> Void) {
        var fields = extras?.fields ?? SegmentExtras.Fields()
        change(&fields)
        extras = SegmentExtras.make(fields)
    }

    /// The URI line, after variable substitution.
    public var uri: String {
        get { uriSpan.isOwned ? extras?.fields.uri ?? "" : context.string(.source(uriSpan)) }
        set {
            uriSpan = .owned
            updateExtras { $0.uri = newValue }
        }
    }

    /// The `EXTINF` title; empty when there is none.
    public var title: String {
        get { extras?.fields.title.map(context.string) ?? "" }
        set { updateExtras { $0.title = newValue.isEmpty ? nil : .owned(newValue) } }
    }

    /// Appends the URI's bytes without building a string.
    func appendURI(to output: inout [UInt8]) {
        context.append(uriSpan.isOwned ? .owned(extras?.fields.uri ?? "") : .source(uriSpan), to: &output)
    }

    /// Appends the title's bytes without building a string.
    func appendTitle(to output: inout [UInt8]) {
        if let title = extras?.fields.title { context.append(title, to: &output) }
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

/// A span of the playlist's source text, in bytes.
struct TextSpan: Sendable, Hashable {
    var offset: UInt32
    var length: UInt32

    /// The marker for text kept as a string elsewhere.
    static let owned = TextSpan(offset: 0, length: .max)

    var isOwned: Bool { length == .max }
}

/// A segment's text: a span of the playlist's source, or a string set in code or produced by
/// variable substitution.
enum SegmentText: Sendable, Hashable {
    case source(TextSpan)
    case owned(String)
}

/// The bytes a playlist was parsed from, shared by the segments that keep spans of it.
final class SourceText: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// The state a segment inherits from the tags before it. Immutable and shared: a change makes
/// a new instance, so 100,000 segments under one key hold one reference.
final class SegmentContext: Sendable, Hashable {
    let keys: [EncryptionKey]
    let map: MediaInitializationSection?
    let bitrate: Int?
    let base: BaseURL?
    /// The text the segments' spans point into. Not part of equality: only the strings are.
    let source: SourceText?

    static let empty = SegmentContext(keys: [], map: nil, bitrate: nil, base: nil, source: nil)

    init(keys: [EncryptionKey], map: MediaInitializationSection?, bitrate: Int?, base: BaseURL?, source: SourceText?) {
        self.keys = keys
        self.map = map
        self.bitrate = bitrate
        self.base = base
        self.source = source
    }

    func with(keys: [EncryptionKey]) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    func with(map: MediaInitializationSection?) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    func with(bitrate: Int?) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    func with(base: BaseURL?) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    func string(_ text: SegmentText) -> String {
        switch text {
        case .owned(let string):
            return string
        case .source(let span):
            guard let source, span.length > 0 else { return "" }
            return source.bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[Int(span.offset)..<Int(span.offset) + Int(span.length)]),
                       as: UTF8.self)
            }
        }
    }

    /// Appends the text's bytes without building a string.
    func append(_ text: SegmentText, to output: inout [UInt8]) {
        switch text {
        case .owned(var string):
            string.withUTF8 { output.append(contentsOf: $0) }
        case .source(let span):
            guard let source, span.length > 0 else { return }
            source.bytes.withUnsafeBufferPointer {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[Int(span.offset)..<Int(span.offset) + Int(span.length)]))
            }
        }
    }

    static func == (lhs: SegmentContext, rhs: SegmentContext) -> Bool {
        lhs === rhs || (lhs.keys == rhs.keys && lhs.map == rhs.map && lhs.bitrate == rhs.bitrate && lhs.base == rhs.base)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(map)
        hasher.combine(bitrate)
    }
}

/// What a segment rarely has, or what would make every segment larger: a byte range, parts,
/// preserved lines, a title, a URI that is not a span of the source. Nil in the segment when it
/// has none of them.
final class SegmentExtras: Sendable, Hashable {
    struct Fields: Sendable {
        var byteRange: ByteRange?
        var parts: [PartialSegment] = []
        var precedingLines: [PreservedLine] = []
        var title: SegmentText?
        var uri: String?

        var isEmpty: Bool {
            byteRange == nil && parts.isEmpty && precedingLines.isEmpty && title == nil && uri == nil
        }
    }

    let fields: Fields

    private init(_ fields: Fields) {
        self.fields = fields
    }

    static func make(_ fields: Fields) -> SegmentExtras? {
        fields.isEmpty ? nil : SegmentExtras(fields)
    }

    // Title and URI take part in equality through the segment's strings.
    static func == (lhs: SegmentExtras, rhs: SegmentExtras) -> Bool {
        lhs === rhs || (lhs.fields.byteRange == rhs.fields.byteRange && lhs.fields.parts == rhs.fields.parts
            && lhs.fields.precedingLines == rhs.fields.precedingLines)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fields.byteRange)
        hasher.combine(fields.parts)
    }
}

/// `EXT-X-PART`: a partial segment (Low-Latency HLS).
public struct PartialSegment: Sendable, Hashable {
    public var uri: String
    public var duration: MediaTime
    public var isIndependent: Bool
    /// The byte range as written; a missing offset follows the previous part of the same
    /// resource and is resolved.
    public var byteRange: ByteRange?
    public var isGap: Bool
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(uri: String, duration: MediaTime, isIndependent: Bool = false, byteRange: ByteRange? = nil,
                isGap: Bool = false, otherAttributes: [Attribute] = []) {
        self.uri = uri
        self.duration = duration
        self.isIndependent = isIndependent
        self.byteRange = byteRange
        self.isGap = isGap
        self.otherAttributes = otherAttributes
    }

    public var url: String { BaseURL.resolve(uri, against: base) }
}

/// `EXT-X-DATERANGE`: a range of time with attributes (ad breaks, chapters, interstitials).
public struct DateRange: Sendable, Hashable {
    public var id: String
    public var classValue: String?
    public var startDate: DateTime
    /// `CUE`: `PRE`, `POST`, `ONCE`.
    public var cue: [String]
    public var endDate: DateTime?
    public var duration: MediaTime?
    public var plannedDuration: MediaTime?
    /// The `SCTE35-CMD`, `SCTE35-OUT`, `SCTE35-IN` hexadecimal sequences as written (`0x…`).
    public var scte35Command: String?
    public var scte35Out: String?
    public var scte35In: String?
    public var endOnNext: Bool
    /// The `X-` client attributes, in order, values as written.
    public var clientAttributes: [Attribute]
    public var otherAttributes: [Attribute]
    /// How many segments precede the tag in the playlist; the writer puts it back there.
    public var segmentIndex: Int
    public var position: SourcePosition

    public init(id: String, startDate: DateTime, segmentIndex: Int = 0) {
        self.id = id
        classValue = nil
        self.startDate = startDate
        cue = []
        endOnNext = false
        clientAttributes = []
        otherAttributes = []
        self.segmentIndex = segmentIndex
        position = .none
    }

    /// The end: `END-DATE`, else `START-DATE + DURATION`, else nil.
    public var effectiveEndDate: DateTime? {
        endDate ?? duration.map { startDate + $0 }
    }
}

/// `EXT-X-PART-INF`.
public struct PartInformation: Sendable, Hashable {
    public var partTarget: MediaTime
    public var otherAttributes: [Attribute]

    public init(partTarget: MediaTime, otherAttributes: [Attribute] = []) {
        self.partTarget = partTarget
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-SERVER-CONTROL`: what the server supports for live playlists.
public struct ServerControl: Sendable, Hashable {
    public var canSkipUntil: MediaTime?
    public var canSkipDateRanges: Bool
    public var holdBack: MediaTime?
    public var partHoldBack: MediaTime?
    public var canBlockReload: Bool
    public var otherAttributes: [Attribute]

    public init(canSkipUntil: MediaTime? = nil, canSkipDateRanges: Bool = false, holdBack: MediaTime? = nil,
                partHoldBack: MediaTime? = nil, canBlockReload: Bool = false, otherAttributes: [Attribute] = []) {
        self.canSkipUntil = canSkipUntil
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBack = holdBack
        self.partHoldBack = partHoldBack
        self.canBlockReload = canBlockReload
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-SKIP`: segments left out of a playlist delta update.
public struct Skip: Sendable, Hashable {
    public var skippedSegments: Int
    public var recentlyRemovedDateRanges: [String]
    public var otherAttributes: [Attribute]

    public init(skippedSegments: Int, recentlyRemovedDateRanges: [String] = [], otherAttributes: [Attribute] = []) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-PRELOAD-HINT`: a resource the client may request before it is listed.
public struct PreloadHint: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case part, map
        case other(String)
    }

    public var kind: Kind
    public var uri: String
    public var byteRangeStart: Int?
    public var byteRangeLength: Int?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(kind: Kind, uri: String, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil,
                otherAttributes: [Attribute] = []) {
        self.kind = kind
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
        self.otherAttributes = otherAttributes
    }

    public var url: String { BaseURL.resolve(uri, against: base) }
}

/// `EXT-X-RENDITION-REPORT`: the state of another rendition's playlist.
public struct RenditionReport: Sendable, Hashable {
    public var uri: String
    public var lastMediaSequenceNumber: Int?
    public var lastPart: Int?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(uri: String, lastMediaSequenceNumber: Int? = nil, lastPart: Int? = nil, otherAttributes: [Attribute] = []) {
        self.uri = uri
        self.lastMediaSequenceNumber = lastMediaSequenceNumber
        self.lastPart = lastPart
        self.otherAttributes = otherAttributes
    }

    public var url: String { BaseURL.resolve(uri, against: base) }
}
