import MediaTime

/// What libavformat found in a media file: its container, duration, streams, metadata and
/// chapters. Produced by ``MediaProbe``.
///
/// Times are exact: the duration is in microseconds (libavformat's `AV_TIME_BASE`), and
/// chapter and stream times keep their own time base as the timescale. A duration that the
/// container does not state is ``MediaTime/indefinite``.
public struct MediaInfo: Sendable, Hashable {
    /// The path or URL that was probed.
    public var location: String
    /// libavformat's short name for the container, such as `mov,mp4,m4a,3gp,3g2,mj2`.
    public var formatName: String
    /// The human-readable name of the container format.
    public var formatDescription: String?
    public var duration: MediaTime
    /// The container's overall bit rate in bits per second, when stated or estimated.
    public var bitRate: Int?
    /// The container's `title` tag.
    public var title: String? { metadata["title"] }
    /// Every container tag (title, artist, encoder, …), keys lowercased as libavformat gives
    /// them.
    public var metadata: [String: String]
    public var streams: [MediaStream]
    /// Chapters in start order.
    public var chapters: [MediaChapter]

    public init(
        location: String, formatName: String, formatDescription: String?, duration: MediaTime,
        bitRate: Int?, metadata: [String: String], streams: [MediaStream], chapters: [MediaChapter]
    ) {
        self.location = location
        self.formatName = formatName
        self.formatDescription = formatDescription
        self.duration = duration
        self.bitRate = bitRate
        self.metadata = metadata
        self.streams = streams
        self.chapters = chapters
    }
}

/// One elementary stream of a media file. Fields that do not apply to the stream's kind,
/// or that the file does not state, are nil.
public struct MediaStream: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case video, audio, subtitle, data, attachment, unknown
    }

    /// The stream's index in the container.
    public var index: Int
    public var kind: Kind
    /// libavcodec's codec name: `h264`, `aac`, `webvtt`, …
    public var codec: String
    /// The codec profile, such as `High` or `LC`.
    public var profile: String?
    /// The ISO 639 language tag, such as `eng`.
    public var language: String?
    public var title: String?
    /// Bits per second.
    public var bitRate: Int?
    public var width: Int?
    public var height: Int?
    /// Average frames per second.
    public var frameRate: Double?
    /// Samples per second.
    public var sampleRate: Int?
    public var channels: Int?
    public var duration: MediaTime?
    /// Whether the container marks the stream as the default of its kind.
    public var isDefault: Bool

    public init(
        index: Int, kind: Kind, codec: String, profile: String? = nil, language: String? = nil,
        title: String? = nil, bitRate: Int? = nil, width: Int? = nil, height: Int? = nil,
        frameRate: Double? = nil, sampleRate: Int? = nil, channels: Int? = nil,
        duration: MediaTime? = nil, isDefault: Bool = false
    ) {
        self.index = index
        self.kind = kind
        self.codec = codec
        self.profile = profile
        self.language = language
        self.title = title
        self.bitRate = bitRate
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.sampleRate = sampleRate
        self.channels = channels
        self.duration = duration
        self.isDefault = isDefault
    }
}

/// A chapter: `[start, end)` on the media timeline, with its title when it has one.
public struct MediaChapter: Sendable, Hashable {
    public var start: MediaTime
    public var end: MediaTime
    public var title: String?

    public init(start: MediaTime, end: MediaTime, title: String?) {
        self.start = start
        self.end = end
        self.title = title
    }

    public var timeRange: TimeRange {
        TimeRange(start: start, end: end)
    }
}
