import MediaTime
import Playlist

/// How an HLS loader reads a presentation's description out of its playlists.
///
/// - **Variants and renditions** come from the multivariant playlist: each
///   `EXT-X-STREAM-INF`, and the `AUDIO` and `SUBTITLES` renditions merged by `NAME` across
///   groups (the first of each name wins).
/// - **Chapters** are the `EXT-X-DATERANGE`s whose `CLASS` is ``chapterClass``
///   (`com.apple.hls.chapter`). A chapter's title is its `X-TITLE` attribute, else its `ID`;
///   it ends at its `END-DATE` (or `START-DATE + DURATION`), else where the next chapter
///   starts, else at the end of the playlist.
/// - **Linear-playback ranges** (ads a viewer may not skip) are the spans between
///   `#EXT-X-CUE-OUT` and `#EXT-X-CUE-IN` (or the cue-out's duration, or the end of the
///   playlist while the break is open), labelled `cue-out`; and the `EXT-X-DATERANGE`s whose
///   `CLASS` is ``linearPlaybackClass`` (`com.hlsq.linear-playback`) or that carry
///   `SCTE35-OUT`, labelled with their `ID`, ending at their end date, else after their
///   `PLANNED-DURATION`.
/// - A date range is placed on the item's timeline through the program date-time of the
///   last segment that starts at or before it; a playlist without
///   `EXT-X-PROGRAM-DATE-TIME` cannot place one, and its date ranges are left out.
extension StreamDescription {
    /// The `CLASS` of the date ranges read as chapters.
    public static let chapterClass = "com.apple.hls.chapter"
    /// The `CLASS` of the date ranges read as linear-playback ranges.
    public static let linearPlaybackClass = "com.hlsq.linear-playback"

    /// The description of a media playlist placed at `offset` on the item's timeline, with the
    /// variants and renditions of `multivariant` when it came through one.
    public init(playlist: MediaPlaylist, offset: MediaTime, multivariant: MultivariantPlaylist?) {
        let window = LiveWindow(playlist: playlist, offset: offset)
        self.init(
            duration: window.duration,
            variants: multivariant.map(Self.variants) ?? [],
            renditionGroups: multivariant.map(Self.renditionGroups) ?? [],
            chapters: Self.chapters(in: playlist, offset: offset),
            linearPlaybackRanges: Self.linearPlaybackRanges(in: playlist, offset: offset)
        )
    }

    static func variants(of multivariant: MultivariantPlaylist) -> [StreamVariant] {
        multivariant.variants.map { variant in
            StreamVariant(
                uri: variant.url, bandwidth: variant.stream.bandwidth, averageBandwidth: variant.stream.averageBandwidth,
                codecs: variant.stream.codecs.isEmpty ? nil : variant.stream.codecs.joined(separator: ","),
                width: variant.stream.resolution?.width, height: variant.stream.resolution?.height,
                frameRate: variant.frameRate
            )
        }
    }

    static func renditionGroups(of multivariant: MultivariantPlaylist) -> [RenditionGroup] {
        var groups: [RenditionGroup] = []
        for kind in [RenditionGroup.Kind.audio, .subtitles] {
            var names: Set<String> = []
            var renditions: [Rendition] = []
            for rendition in multivariant.renditions
            where (kind == .audio ? rendition.type == .audio : rendition.type == .subtitles) {
                guard names.insert(rendition.name).inserted else { continue }
                renditions.append(Rendition(
                    name: rendition.name, language: rendition.language, isDefault: rendition.isDefault,
                    isAutoselect: rendition.isAutoselect, isForced: rendition.isForced, uri: rendition.url
                ))
            }
            if !renditions.isEmpty { groups.append(RenditionGroup(kind: kind, renditions: renditions)) }
        }
        return groups
    }

    static func chapters(in playlist: MediaPlaylist, offset: MediaTime) -> [MediaChapter] {
        let marked = playlist.dateRanges.filter { $0.classValue == chapterClass }
        var placed: [(range: DateRange, start: MediaTime)] = []
        for range in marked {
            if let start = itemTime(of: range.startDate, in: playlist, offset: offset) { placed.append((range, start)) }
        }
        placed.sort { $0.start < $1.start }
        let edge = offset + playlist.duration
        return placed.enumerated().map { index, entry in
            let declaredEnd = entry.range.effectiveEndDate.flatMap { itemTime(of: $0, in: playlist, offset: offset) }
            let end = declaredEnd ?? (index + 1 < placed.count ? placed[index + 1].start : edge)
            let title = entry.range.clientAttributes.first { $0.name == "X-TITLE" }?.value ?? entry.range.id
            return MediaChapter(start: entry.start, end: max(entry.start, end), title: title)
        }
    }

    static func linearPlaybackRanges(in playlist: MediaPlaylist, offset: MediaTime) -> [LinearPlaybackSpan] {
        var spans: [LinearPlaybackSpan] = []
        let edge = offset + playlist.duration
        var open: (start: MediaTime, duration: MediaTime?)?
        func close(at end: MediaTime) {
            guard let cue = open else { return }
            let planned = cue.duration.map { cue.start + $0 }
            let closing = min(end, planned ?? end)
            if closing > cue.start {
                spans.append(LinearPlaybackSpan(timeRange: TimeRange(start: cue.start, end: closing), label: "cue-out"))
            }
            open = nil
        }
        for (index, marker) in playlist.adMarkers {
            let time = index < playlist.segments.count ? offset + playlist.segments[index].startTime : edge
            switch marker {
            case .cueOut(let duration):
                close(at: time)
                open = (time, duration)
            case .cueIn:
                close(at: time)
            case .cueOutContinuation, .scte35:
                break
            }
        }
        close(at: edge)
        for range in playlist.dateRanges where range.classValue == linearPlaybackClass || range.scte35Out != nil {
            guard let start = itemTime(of: range.startDate, in: playlist, offset: offset) else { continue }
            let endDate = range.effectiveEndDate ?? range.plannedDuration.map { range.startDate + $0 }
            guard let end = endDate.flatMap({ itemTime(of: $0, in: playlist, offset: offset) }), end > start else { continue }
            spans.append(LinearPlaybackSpan(timeRange: TimeRange(start: start, end: end), label: range.id))
        }
        return spans
    }

    /// The item time of `date`, through the last segment that starts at or before it (the
    /// first segment for an earlier date); nil without program date-times.
    static func itemTime(of date: DateTime, in playlist: MediaPlaylist, offset: MediaTime) -> MediaTime? {
        var reference: MediaSegment?
        for segment in playlist.segments {
            guard let segmentDate = segment.programDateTime else { return nil }
            if segmentDate > date, reference != nil { break }
            reference = segment
        }
        guard let reference, let referenceDate = reference.programDateTime else { return nil }
        return offset + reference.startTime + (date.secondsSince1970 - referenceDate.secondsSince1970)
    }
}
