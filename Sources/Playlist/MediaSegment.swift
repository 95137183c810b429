import MediaTime

/// One media segment of a ``MediaPlaylist``: its URI line and the tags that apply to it.
///
/// A parsed segment knows everything a loader needs without looking back at the playlist:
/// - its position: ``mediaSequenceNumber`` and ``discontinuitySequence``;
/// - its timing: ``startTime`` (the exact sum of the durations before it, from the first
///   segment of the playlist) and ``duration``;
/// - the state in force: ``keys``, ``map``, ``bitrate``;
/// - its ``byteRange`` with the offset resolved, and its ``programDateTime``, given by a tag
///   or extrapolated from the nearest segment that has one.
///
/// The derived values (sequence numbers, start time, extrapolated date-time, resolved
/// offsets) are computed by the parser and by ``MediaPlaylist/recomputeTimeline()``; after
/// editing durations or flags in code, call that to bring them up to date. The writer only
/// reads the values a tag carries (duration, title, flags, ranges, keys, map, bitrate, a date
/// given by a tag), never the derived ones.
public struct MediaSegment: Sendable, Hashable {
    /// The URI line, after variable substitution.
    public var uri: String
    /// The `EXTINF` duration, exact.
    public var duration: MediaTime
    /// The `EXTINF` title; empty when there is none.
    public var title: String
    /// Preceded by `EXT-X-DISCONTINUITY`.
    public var isDiscontinuity: Bool
    /// `EXT-X-GAP`: the segment is missing and must not be loaded.
    public var isGap: Bool
    /// The byte range, offset resolved; nil for the whole resource.
    public var byteRange: ByteRange?
    /// The `EXT-X-KEY` tags in force, one per key format; empty when unencrypted
    /// (`METHOD=NONE` clears them).
    public var keys: [EncryptionKey]
    /// The `EXT-X-BITRATE` in force, in kilobits per second.
    public var bitrate: Int?
    /// The date-time of the segment's first sample.
    public var programDateTime: DateTime?
    /// Whether ``programDateTime`` was given by a tag on this segment (otherwise extrapolated).
    public var hasExplicitProgramDateTime: Bool
    /// `EXT-X-PART` tags of the segment, in order (Low-Latency HLS).
    public var parts: [PartialSegment]
    /// Unknown tags and comments written just before this segment's tags, in order.
    public var precedingLines: [PreservedLine]

    public internal(set) var mediaSequenceNumber: Int
    public internal(set) var discontinuitySequence: Int
    public internal(set) var startTime: MediaTime
    /// Where the segment's first line is in the source.
    public var position: SourcePosition

    var mapStorage: SharedValue<MediaInitializationSection>?
    var base: BaseURL?

    /// A segment with the given URI and duration; sequence numbers and times are set when it
    /// is placed in a playlist (``MediaPlaylist/recomputeTimeline()``).
    public init(uri: String, duration: MediaTime, title: String = "") {
        self.uri = uri
        self.duration = duration
        self.title = title
        isDiscontinuity = false
        isGap = false
        keys = []
        hasExplicitProgramDateTime = false
        parts = []
        precedingLines = []
        mediaSequenceNumber = 0
        discontinuitySequence = 0
        startTime = .zero
        position = .none
    }

    /// The `EXT-X-MAP` in force.
    public var map: MediaInitializationSection? {
        get { mapStorage?.value }
        set { mapStorage = newValue.map(SharedValue.init) }
    }

    /// The URI resolved against the playlist URL.
    public var url: String { BaseURL.resolve(uri, against: base) }

    /// `[startTime, startTime + duration)`.
    public var timeRange: TimeRange { TimeRange(start: startTime, duration: duration) }

    /// The typed ad markers among ``precedingLines``.
    public var adMarkers: [AdMarker] { precedingLines.compactMap(\.adMarker) }
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
