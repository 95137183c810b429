import Foundation
import MediaTime

/// What an HLS loader learned about a presentation: its duration, variants, renditions,
/// chapters and linear-playback ranges. Sent with ``LoaderReport/streamDescribed(_:)``.
///
/// An empty array means "none" (a media playlist has no variants; a stream without
/// `EXT-X-DATERANGE` has no chapters).
public struct StreamDescription: Sendable, Hashable {
    /// The presentation's duration: the sum of the segment durations with `EXT-X-ENDLIST`,
    /// ``MediaTime/indefinite`` for live and growing EVENT playlists.
    public var duration: MediaTime
    /// The variants of a multivariant playlist, in playlist order.
    public var variants: [StreamVariant]
    /// The audio and subtitle rendition groups (`EXT-X-MEDIA`), merged by name across
    /// GROUP-IDs.
    public var renditionGroups: [RenditionGroup]
    public var chapters: [MediaChapter]
    /// Ranges that must play linearly (ads): seeks may not leave or jump over them.
    public var linearPlaybackRanges: [LinearPlaybackSpan]

    public init(
        duration: MediaTime, variants: [StreamVariant] = [], renditionGroups: [RenditionGroup] = [],
        chapters: [MediaChapter] = [], linearPlaybackRanges: [LinearPlaybackSpan] = []
    ) {
        self.duration = duration
        self.variants = variants
        self.renditionGroups = renditionGroups
        self.chapters = chapters
        self.linearPlaybackRanges = linearPlaybackRanges
    }
}

/// One `EXT-X-STREAM-INF` entry.
public struct StreamVariant: Sendable, Hashable {
    /// The variant's media playlist, resolved to an absolute URL.
    public var uri: String
    /// `BANDWIDTH`, in bits per second.
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var codecs: String?
    public var width: Int?
    public var height: Int?
    public var frameRate: Double?

    public init(
        uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: String? = nil, width: Int? = nil,
        height: Int? = nil, frameRate: Double? = nil
    ) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// The renditions of one kind (`EXT-X-MEDIA` of `TYPE=AUDIO` or `TYPE=SUBTITLES`).
public struct RenditionGroup: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case audio
        case subtitles
    }

    public var kind: Kind
    public var renditions: [Rendition]

    public init(kind: Kind, renditions: [Rendition]) {
        self.kind = kind
        self.renditions = renditions
    }
}

/// One `EXT-X-MEDIA` rendition.
public struct Rendition: Sendable, Hashable {
    public var name: String
    public var language: String?
    public var isDefault: Bool
    public var isAutoselect: Bool
    public var isForced: Bool
    /// Its media playlist, resolved; nil when the rendition is muxed into the variants.
    public var uri: String?

    public init(
        name: String, language: String? = nil, isDefault: Bool = false, isAutoselect: Bool = false,
        isForced: Bool = false, uri: String? = nil
    ) {
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.isAutoselect = isAutoselect
        self.isForced = isForced
        self.uri = uri
    }
}

/// A range that plays linearly, with a label saying where it came from (a DATERANGE's ID or
/// CLASS, a cue-out).
public struct LinearPlaybackSpan: Sendable, Hashable {
    public var timeRange: TimeRange
    public var label: String

    public init(timeRange: TimeRange, label: String) {
        self.timeRange = timeRange
        self.label = label
    }
}

/// The figures of a live stream after one playlist reload. Media times are on the item's
/// timeline (the first segment the loader saw starts at zero, and times keep growing as
/// the window slides); durations of real time are `Duration`s.
public struct LiveStatus: Sendable, Hashable {
    /// The end of the last segment of the playlist.
    public var liveEdge: MediaTime
    /// How far behind the live edge playback should sit: `EXT-X-SERVER-CONTROL`'s
    /// `HOLD-BACK`, else three target durations.
    public var targetLatency: MediaTime
    /// The wall-clock delay of the playhead (now minus the `PROGRAM-DATE-TIME` at the
    /// playhead), when the playlist has dates.
    public var wallClockLatency: Duration?
    /// `EXT-X-MEDIA-SEQUENCE` of the last reload.
    public var mediaSequence: Int
    /// The duration the playlist's segments cover.
    public var windowLength: MediaTime
    /// `EXT-X-TARGETDURATION`.
    public var targetDuration: MediaTime
    /// How long the loader waits between reloads now (the target duration, or half of it
    /// after a reload that brought nothing new).
    public var reloadInterval: Duration
    /// When the last reload started (wall clock).
    public var lastReloadAt: Date
    /// Whether the last reload found the playlist changed.
    public var playlistChanged: Bool
    /// How old the playlist's content was at the last reload: the time since it last
    /// changed.
    public var playlistAge: Duration
    /// Whether the playlist has not changed for longer than the loader tolerates: the stale
    /// health check (``LiveHealthMonitor/Check/stale``, 3.5 target durations by default).
    public var isStale: Bool

    public init(
        liveEdge: MediaTime, targetLatency: MediaTime, wallClockLatency: Duration?, mediaSequence: Int,
        windowLength: MediaTime, targetDuration: MediaTime, reloadInterval: Duration, lastReloadAt: Date,
        playlistAge: Duration, isStale: Bool, playlistChanged: Bool = true
    ) {
        self.liveEdge = liveEdge
        self.targetLatency = targetLatency
        self.wallClockLatency = wallClockLatency
        self.mediaSequence = mediaSequence
        self.windowLength = windowLength
        self.targetDuration = targetDuration
        self.reloadInterval = reloadInterval
        self.lastReloadAt = lastReloadAt
        self.playlistAge = playlistAge
        self.isStale = isStale
        self.playlistChanged = playlistChanged
    }
}

/// A live health check that started failing or recovered: `stale` (the playlist stopped
/// changing), `reload` (reloads fail), `sequence` (the media sequence went backwards or
/// jumped), … The check names are the loader's; the Engine passes them on.
public struct LiveHealthChange: Sendable, Hashable {
    public var check: String
    /// True when the check starts failing, false when it recovers.
    public var isFailing: Bool
    public var message: String
    /// When the change was seen (wall clock).
    public var date: Date

    public init(check: String, isFailing: Bool, message: String, date: Date) {
        self.check = check
        self.isFailing = isFailing
        self.message = message
        self.date = date
    }
}
