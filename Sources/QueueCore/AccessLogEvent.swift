import MediaTime

/// How an item is played, as AVFoundation's access log names it.
public enum PlaybackType: String, Hashable, Sendable {
    /// HLS without an end: the duration is indefinite.
    case live = "LIVE"
    /// HLS with an end.
    case vod = "VOD"
    /// A plain media file.
    case file = "FILE"
}

/// One entry of an item's access log: one uninterrupted period of playback, like
/// `AVPlayerItemAccessLogEvent`.
///
/// A new entry opens when the item becomes current again after another item, after every
/// seek, and after every variant switch. Downloads made before playback starts (preloading)
/// count in the entry that is open then. Pauses and stalls do not open a new entry: stalls are
/// counted in it.
public struct AccessLogEvent: Hashable, Sendable {
    /// The URI of the playlist or file playing: the variant's after a switch.
    public var uri: String
    public var playbackType: PlaybackType?
    /// The wall-clock date at which playback started in this entry; nil until it does.
    public var playbackStartDate: WallClockDate?
    /// The item time at which the entry opened.
    public var playbackStartOffset: MediaTime
    /// For the first entry of an item, how long playback took to start after it was asked
    /// for; nil until it starts and in later entries.
    public var startupTime: MediaTime?
    public var numberOfMediaRequests: Int
    public var numberOfBytesTransferred: Int64
    /// The time spent transferring those bytes.
    public var transferDuration: MediaTime
    /// The media duration of the segments downloaded.
    public var segmentsDownloadedDuration: MediaTime
    /// Real time spent playing (not paused, not waiting).
    public var durationWatched: MediaTime
    public var numberOfStalls: Int
    /// Real time spent waiting after stalls (not an AVFoundation field; hlsq counts it).
    public var stallDuration: MediaTime
    /// The bandwidth of the variant playing, in bits per second, when known.
    public var indicatedBitrate: Double?

    public init(
        uri: String, playbackType: PlaybackType?, playbackStartOffset: MediaTime,
        indicatedBitrate: Double?
    ) {
        self.uri = uri
        self.playbackType = playbackType
        self.playbackStartDate = nil
        self.playbackStartOffset = playbackStartOffset
        self.startupTime = nil
        self.numberOfMediaRequests = 0
        self.numberOfBytesTransferred = 0
        self.transferDuration = .zero
        self.segmentsDownloadedDuration = .zero
        self.durationWatched = .zero
        self.numberOfStalls = 0
        self.stallDuration = .zero
        self.indicatedBitrate = indicatedBitrate
    }

    /// Bits transferred per second of transfer; nil before any transfer time was reported.
    public var observedBitrate: Double? {
        guard let seconds = transferDuration.seconds, seconds > 0 else { return nil }
        return Double(numberOfBytesTransferred) * 8 / seconds
    }
}

/// One entry of an item's error log, like `AVPlayerItemErrorLogEvent`.
public struct ErrorLogEvent: Hashable, Sendable {
    /// When the core received the report, from the injected clock.
    public var date: WallClockDate
    public var uri: String?
    /// An HTTP status code, or another code meaningful in `domain`.
    public var statusCode: Int
    public var domain: String
    public var comment: String

    public init(date: WallClockDate, uri: String?, statusCode: Int, domain: String, comment: String) {
        self.date = date
        self.uri = uri
        self.statusCode = statusCode
        self.domain = domain
        self.comment = comment
    }
}
