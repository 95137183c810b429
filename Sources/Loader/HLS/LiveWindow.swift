import MediaTime
import Playlist

/// How a media playlist behaves over time.
public enum PlaylistBehavior: String, Sendable, Hashable {
    /// `EXT-X-ENDLIST` or `EXT-X-PLAYLIST-TYPE:VOD`: the playlist never changes.
    case vod
    /// `EXT-X-PLAYLIST-TYPE:EVENT` without `EXT-X-ENDLIST`: segments are only added.
    case event
    /// No type and no end: segments are added at the end and removed from the start.
    case live

    public init(_ playlist: MediaPlaylist) {
        if playlist.hasEndList || playlist.playlistType == .vod {
            self = .vod
        } else if playlist.playlistType == .event {
            self = .event
        } else {
            self = .live
        }
    }

    /// Whether the playlist must be reloaded.
    public var isLive: Bool { self != .vod }
}

/// Where a media playlist's segments lie on the item's timeline, and where a seek may land
/// (RFC 8216bis §6.3.3 and §4.4.3.8).
///
/// Times are item times: a playlist's own time zero (its first segment's start) sits at
/// `offset` on the item's timeline (see ``PlaylistTimeline``).
/// - The **live edge** is the end of the last segment.
/// - The **hold-back** is `EXT-X-SERVER-CONTROL`'s `HOLD-BACK`, else three target
///   durations: playback should not start closer to the edge than that.
/// - The **live sync point** is the edge minus the hold-back, but never before the start.
/// - The **seekable range** is `[start, edge]` for VOD; for a live playlist it is
///   `[first segment's start, sync point]`, a window that slides; an EVENT playlist keeps its
///   start at the item's zero while its end grows.
///
/// Invariant: `start <= syncPoint <= liveEdge`.
public struct LiveWindow: Sendable, Hashable {
    public let behavior: PlaylistBehavior
    /// The start of the first listed segment (zero for EVENT).
    public let start: MediaTime
    /// The end of the last listed segment.
    public let liveEdge: MediaTime
    public let holdBack: MediaTime
    public let targetDuration: MediaTime

    /// The window of `playlist` placed at `offset` on the item's timeline.
    public init(playlist: MediaPlaylist, offset: MediaTime) {
        behavior = PlaylistBehavior(playlist)
        targetDuration = MediaTime(seconds: Int64(playlist.targetDuration))
        holdBack = playlist.serverControl?.holdBack ?? targetDuration * 3
        let first = offset + (playlist.segments.first?.startTime ?? .zero)
        start = behavior == .event ? .zero : first
        liveEdge = offset + playlist.duration
        assert(checkInvariants())
    }

    /// Where a live player should sit: the edge minus the hold-back, not before the start.
    public var syncPoint: MediaTime {
        max(start, liveEdge - holdBack)
    }

    /// The time the listed segments cover.
    public var length: MediaTime {
        liveEdge - start
    }

    /// Where a seek may land: the whole playlist for VOD, up to the sync point otherwise.
    public var seekableRange: TimeRange {
        TimeRange(start: start, end: behavior == .vod ? liveEdge : syncPoint)
    }

    /// The item's duration: the edge for VOD, indefinite while the playlist can grow.
    public var duration: MediaTime {
        behavior == .vod ? liveEdge : .indefinite
    }

    public func checkInvariants() -> Bool {
        start <= syncPoint && syncPoint <= liveEdge
    }
}

/// Places each new version of a media playlist on the item's timeline.
///
/// The item's timeline starts at zero at the start of the first playlist the loader saw, and
/// keeps growing while a live window slides. A reloaded (or another variant's) playlist is
/// placed by what it shares with the previous one:
/// 1. **Overlap.** When its first media sequence number is listed in the previous playlist,
///    that segment keeps its time.
/// 2. **Dates.** Otherwise, when both have `EXT-X-PROGRAM-DATE-TIME`, the time between the
///    two first segments' dates separates them, as long as that places the new playlist
///    after the previous edge.
/// 3. **Sequence.** Otherwise, when the sequence moved forward past the previous playlist,
///    each missing segment counts one target duration after the previous edge.
/// 4. **Regression.** When the media sequence went backwards (an encoder restarted), the new
///    playlist starts at the previous edge: the timeline never goes back.
public enum PlaylistTimeline {
    /// The item time of `playlist`'s time zero, given the previous playlist and its offset
    /// (nil for the first playlist, which starts at zero).
    public static func offset(of playlist: MediaPlaylist, after previous: (playlist: MediaPlaylist, offset: MediaTime)?)
        -> MediaTime {
        guard let (old, oldOffset) = previous else { return .zero }
        let oldEdge = oldOffset + old.duration
        let shift = playlist.mediaSequence - old.mediaSequence
        if shift >= 0, shift < old.segments.count {
            return oldOffset + old.segments[shift].startTime
        }
        if let date = playlist.segments.first?.programDateTime, let oldDate = old.segments.first?.programDateTime,
           let oldStart = old.segments.first?.startTime {
            let placed = oldOffset + oldStart + (date.secondsSince1970 - oldDate.secondsSince1970)
            if placed >= oldEdge { return placed }
        }
        if shift >= old.segments.count {
            let missing = Int64(shift - old.segments.count)
            return oldEdge + MediaTime(seconds: Int64(old.targetDuration)) * missing
        }
        return oldEdge
    }

    /// The item time of a rendition's first playlist, placed against the main track's
    /// playlist: by program date-times when both have them, else by media sequence numbers
    /// when the main playlist lists the rendition's first one, else at the main playlist's
    /// time zero.
    public static func offset(
        ofRendition playlist: MediaPlaylist, alignedWith main: (playlist: MediaPlaylist, offset: MediaTime)
    ) -> MediaTime {
        if let date = playlist.segments.first?.programDateTime, let mainFirst = main.playlist.segments.first,
           let mainDate = mainFirst.programDateTime {
            return main.offset + mainFirst.startTime + (date.secondsSince1970 - mainDate.secondsSince1970)
        }
        let shift = playlist.mediaSequence - main.playlist.mediaSequence
        if shift >= 0, shift < main.playlist.segments.count {
            return main.offset + main.playlist.segments[shift].startTime
        }
        return main.offset
    }
}
