import Foundation
import Loader
import MediaTime
import Playlist
import Testing

/// Parses a media playlist written inline; records an issue when it is not one.
func mediaPlaylist(_ text: String, url: String = "http://origin.test/live/index.m3u8",
                   sourceLocation: SourceLocation = #_sourceLocation) -> MediaPlaylist {
    guard case .media(let playlist) = Playlist.parse(text, options: ParseOptions(baseURL: url)).playlist else {
        Issue.record("not a media playlist:\n\(text)", sourceLocation: sourceLocation)
        return MediaPlaylist(targetDuration: 1)
    }
    return playlist
}

/// The text of a live media playlist of `count` segments named `segment<N>.ts` after their
/// media sequence numbers.
struct LivePlaylistText {
    var sequence = 0
    var count = 6
    var targetDuration = 2
    /// The duration of every segment, as written.
    var segmentDuration = "2.000"
    /// Media sequence numbers of the segments preceded by `EXT-X-DISCONTINUITY`.
    var discontinuities: Set<Int> = []
    var discontinuitySequence: Int?
    /// The program date-time of the segment numbered 0; each later one is `segmentDuration` later.
    var firstDate: Date?
    var type: String?
    var endList = false
    var holdBack: String?
    /// Overrides the URI of one segment.
    var renamed: [Int: String] = [:]
    /// Overrides the duration of one segment.
    var durations: [Int: String] = [:]

    var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:\(targetDuration)",
                     "#EXT-X-MEDIA-SEQUENCE:\(sequence)"]
        if let discontinuitySequence { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        if let type { lines.append("#EXT-X-PLAYLIST-TYPE:\(type)") }
        if let holdBack { lines.append("#EXT-X-SERVER-CONTROL:HOLD-BACK=\(holdBack)") }
        let seconds = Double(segmentDuration) ?? 0
        for number in sequence..<(sequence + count) {
            if discontinuities.contains(number) { lines.append("#EXT-X-DISCONTINUITY") }
            if let firstDate {
                let date = firstDate.addingTimeInterval(Double(number) * seconds)
                lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Self.iso8601(date))")
            }
            lines.append("#EXTINF:\(durations[number] ?? segmentDuration),")
            lines.append(renamed[number] ?? "segment\(number).ts")
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    var playlist: MediaPlaylist { mediaPlaylist(text) }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension MediaTime {
    /// Exact seconds and milliseconds, for expectations.
    static func ms(_ milliseconds: Int64) -> MediaTime { MediaTime(value: milliseconds, timescale: 1000) }
}

/// `[start, end)` in milliseconds.
func msRange(_ start: Int64, _ end: Int64) -> TimeRange {
    TimeRange(start: .ms(start), end: .ms(end))
}

/// A set of ranges given in milliseconds.
func msRanges(_ spans: (Int64, Int64)...) -> TimeRangeSet {
    TimeRangeSet(spans.map { msRange($0.0, $0.1) })
}
