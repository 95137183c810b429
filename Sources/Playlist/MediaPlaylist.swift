import MediaTime

/// An HLS media playlist: a list of media segments and the tags that describe them.
///
/// Semantics and invariants (checked by ``checkInvariants()`` after parsing and after
/// ``recomputeTimeline()``):
/// - segment `i` has media sequence number ``mediaSequence`` `+ i`;
/// - its discontinuity sequence is ``discontinuitySequence`` plus the number of segments up
///   to and including it that carry `EXT-X-DISCONTINUITY`;
/// - its start time is the exact sum of the durations before it, so the first segment starts
///   at zero and ``duration`` is the exact sum of all durations;
/// - when any segment has a program date-time, every segment has one: given, or extrapolated
///   from the nearest segment with a given one by the exact time between them.
///
/// Equality compares the playlist's content, not where it was read from: line numbers and
/// the retained source text do not take part.
///
/// A parsed playlist keeps its source text, so ``PlaylistWriter`` writes an unedited playlist
/// back byte for byte; an edited one is written in canonical form.
public struct MediaPlaylist: Sendable, Hashable {
    /// `EXT-X-VERSION`, or nil when absent (version 1).
    public var version: Int?
    /// `EXT-X-TARGETDURATION`, in whole seconds. When the tag is missing the parser reports
    /// it and uses the longest rounded segment duration, as lenient players do.
    public var targetDuration: Int
    /// `EXT-X-MEDIA-SEQUENCE`: the media sequence number of the first segment.
    public var mediaSequence: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE`.
    public var discontinuitySequence: Int
    /// `EXT-X-PLAYLIST-TYPE`: `EVENT`, `VOD`, or nil for a live playlist.
    public var playlistType: PlaylistType?
    /// `EXT-X-ENDLIST`: no segment will be added.
    public var hasEndList: Bool
    /// `EXT-X-I-FRAMES-ONLY`.
    public var isIFramesOnly: Bool
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var hasIndependentSegments: Bool
    /// `EXT-X-START`: where playback should begin by default.
    public var start: StartOffset?
    /// `EXT-X-SERVER-CONTROL`: hold-backs, skips and blocking reloads (live playlists).
    public var serverControl: ServerControl?
    /// `EXT-X-PART-INF`: the part target duration (Low-Latency HLS).
    public var partInformation: PartInformation?
    /// `EXT-X-DEFINE` tags, in order; references are already substituted in the model.
    public var definitions: [VariableDefinition]
    /// The media segments, in playlist order.
    public var segments: MediaSegmentList
    /// `EXT-X-DATERANGE` tags in playlist order.
    public var dateRanges: [DateRange]
    /// `EXT-X-SKIP`: segments left out of a delta update.
    public var skip: Skip?
    /// Parts after the last complete segment: the segment being produced (Low-Latency HLS).
    public var trailingParts: [PartialSegment]
    /// `EXT-X-PRELOAD-HINT` tags.
    public var preloadHints: [PreloadHint]
    /// `EXT-X-RENDITION-REPORT` tags.
    public var renditionReports: [RenditionReport]
    /// Unknown tags and comments before the first segment (written after the header tags).
    public var leadingLines: [PreservedLine]
    /// Unknown tags and comments after the last segment.
    public var trailingLines: [PreservedLine]

    var base: BaseURL?
    var source = RetainedSource()

    /// An empty playlist with the given target duration; add segments, then call
    /// ``recomputeTimeline()``.
    public init(targetDuration: Int, version: Int? = nil) {
        self.version = version
        self.targetDuration = targetDuration
        mediaSequence = 0
        discontinuitySequence = 0
        hasEndList = false
        isIFramesOnly = false
        hasIndependentSegments = false
        definitions = []
        segments = []
        dateRanges = []
        trailingParts = []
        preloadHints = []
        renditionReports = []
        leadingLines = []
        trailingLines = []
    }

    /// The URL the playlist was read from, against which its URIs resolve.
    public var baseURL: String? {
        get { base?.text }
        set { base = newValue.map(BaseURL.init) }
    }

    /// The exact sum of the segment durations.
    public var duration: MediaTime {
        guard let last = segments.indices.last else { return .zero }
        return segments.startTime(at: last) + segments.duration(at: last)
    }

    /// Every typed ad marker with the index of the segment it precedes (`segments.count` for
    /// markers after the last segment).
    public var adMarkers: [(segmentIndex: Int, marker: AdMarker)] {
        var markers: [(Int, AdMarker)] = []
        for (index, segment) in segments.enumerated() {
            for marker in segment.adMarkers { markers.append((index, marker)) }
        }
        for line in trailingLines { if let marker = line.adMarker { markers.append((segments.count, marker)) } }
        return markers
    }

    /// The index of the segment whose time range contains `time`, or nil (binary search).
    public func segmentIndex(containing time: MediaTime) -> Int? {
        var (low, high) = (0, segments.count)
        while low < high {
            let middle = (low + high) / 2
            if segments.startTime(at: middle) + segments.duration(at: middle) <= time { low = middle + 1 } else { high = middle }
        }
        guard low < segments.count else { return nil }
        return TimeRange(start: segments.startTime(at: low), duration: segments.duration(at: low)).contains(time) ? low : nil
    }

    /// Recomputes what the segments derive from their order: media sequence numbers,
    /// discontinuity sequences, start times, resolved byte-range offsets are kept as they are,
    /// and extrapolated program date-times are filled in from the given ones.
    public mutating func recomputeTimeline() {
        segments.recomputeTimeline(mediaSequence: mediaSequence, discontinuitySequence: discontinuitySequence)
        assert(checkInvariants())
    }

    /// Whether the invariants in the type's documentation hold.
    public func checkInvariants() -> Bool {
        guard segments.checkInvariants() else { return false }
        var start = MediaTime.zero
        var discontinuity = discontinuitySequence
        let dated = segments.contains(where: \.hasExplicitProgramDateTime)
        for (index, segment) in segments.enumerated() {
            if segment.isDiscontinuity { discontinuity += 1 }
            guard segment.mediaSequenceNumber == mediaSequence + index,
                  segment.discontinuitySequence == discontinuity,
                  segment.startTime == start,
                  !dated || segment.programDateTime != nil else { return false }
            start += segment.duration
        }
        return true
    }
}

/// `EXT-X-PLAYLIST-TYPE`.
public enum PlaylistType: Sendable, Hashable {
    /// Segments are only added at the end.
    case event
    /// The playlist never changes.
    case vod
    /// A value the RFC does not list, kept as written.
    case other(String)

    public init(_ text: String) {
        switch text {
        case "EVENT": self = .event
        case "VOD": self = .vod
        default: self = .other(text)
        }
    }

    public var text: String {
        switch self {
        case .event: "EVENT"
        case .vod: "VOD"
        case .other(let text): text
        }
    }
}

/// The text a playlist was parsed from and the model as parsed, so that an unedited model is
/// written back byte for byte. It never takes part in equality.
struct RetainedSource: Sendable, Hashable {
    var box: SourceBox?

    static func == (lhs: RetainedSource, rhs: RetainedSource) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// A reference, so that a model can hold the model it was parsed as.
final class SourceBox: Sendable {
    let bytes: [UInt8]
    let parsed: Playlist

    init(bytes: [UInt8], parsed: Playlist) {
        self.bytes = bytes
        self.parsed = parsed
    }
}
