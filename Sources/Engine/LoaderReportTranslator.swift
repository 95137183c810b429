import Loader
import MediaTime
import QueueCore

/// Turns one loader's reports into the queue core's reports and the Engine's own item
/// state, for one loading of one item.
///
/// - `mediaProbed` makes a media file ready, seekable over its whole duration, with its
///   chapters; the first `streamDescribed` makes an HLS item ready, later ones update its
///   media information.
/// - Access-log entries are cumulative in the loader and per request in the core: the
///   translator reports the difference from the entry it saw last. New requests become
///   `mediaRequest`s, more bytes for a request already counted become `transferProgress`.
///   An HLS entry with another URI or indicated bitrate is a variant switch.
/// - Live status, health and cache hits are Engine state the core does not model: they come
///   back as ``Translation/sideEffects``.
/// - A live window that slid past the playhead (`fellBehindLiveWindow`) asks the Engine to
///   move the playhead to the live sync point: a seek, which observers see as a time jump.
///
/// A value type with no I/O: the Engine keeps one per loader session.
struct LoaderReportTranslator {
    enum SideEffect: Equatable {
        case live(LiveStatus)
        case health(LiveHealthChange)
        /// Cache hits to add to the item's open access-log entry.
        case cacheHits(Int)
        case variantURI(String)
        /// Seek the item to this time, the live sync point.
        case rejoinLiveEdge(MediaTime)
        /// No report follows.
        case finished
    }

    struct Translation: Equatable {
        var reports: [QueueCore.LoaderReport] = []
        var sideEffects: [SideEffect] = []
    }

    let kind: MediaKind
    private var lastEntry: Loader.AccessLogEntry?
    private var described = false

    init(kind: MediaKind) {
        self.kind = kind
    }

    mutating func translate(_ report: Loader.LoaderReport) -> Translation {
        var out = Translation()
        switch report {
        case .mediaProbed(let info):
            out.reports.append(.readyToPlay(duration: Self.duration(info.duration), kind: .mediaFile))
            if info.duration.isNumeric {
                out.reports.append(.seekableTimeRanges(TimeRangeSet([TimeRange(start: .zero, end: info.duration)])))
            }
            let chapters = info.chapters.map { Chapter(title: $0.title ?? "", timeRange: $0.timeRange) }
            if !chapters.isEmpty { out.reports.append(.mediaInformation(MediaInformation(chapters: chapters))) }
        case .streamDescribed(let description):
            if !described {
                described = true
                out.reports.append(.readyToPlay(duration: Self.duration(description.duration), kind: .hls))
            } else {
                out.reports.append(.durationChanged(Self.duration(description.duration)))
            }
            out.reports.append(.mediaInformation(Self.mediaInformation(description)))
        case .durationChanged(let duration):
            out.reports.append(.durationChanged(Self.duration(duration)))
        case .seekableTimeRanges(let ranges):
            out.reports.append(.seekableTimeRanges(ranges))
        case .loadedTimeRanges(let ranges):
            out.reports.append(.loadedTimeRanges(ranges))
        case .accessLog(let entry):
            translate(entry, into: &out)
        case .errorLog(let entry):
            out.reports.append(.errorLogEntry(
                uri: entry.uri, statusCode: entry.statusCode, domain: entry.domain, comment: entry.comment))
        case .failed(let error):
            out.reports.append(.failed(Self.failure(error)))
            out.sideEffects.append(.finished)
        case .loadingFinished, .loadingStopped:
            out.sideEffects.append(.finished)
        case .liveStatus(let status):
            out.sideEffects.append(.live(status))
        case .liveHealth(let change):
            out.sideEffects.append(.health(change))
        case .fellBehindLiveWindow(let rejoinAt):
            out.sideEffects.append(.rejoinLiveEdge(rejoinAt))
        }
        return out
    }

    private mutating func translate(_ entry: Loader.AccessLogEntry, into out: inout Translation) {
        let sameEntry = lastEntry.map { $0.uri == entry.uri && $0.indicatedBitrate == entry.indicatedBitrate } ?? false
        let base = sameEntry ? lastEntry : nil
        if !sameEntry, kind == .hls, let bitrate = entry.indicatedBitrate, bitrate.isFinite, bitrate >= 0 {
            out.reports.append(.variantSwitched(indicatedBitrate: bitrate, uri: entry.uri))
        }
        if kind == .hls { out.sideEffects.append(.variantURI(entry.uri)) }
        lastEntry = entry
        let requests = max(0, entry.numberOfMediaRequests - (base?.numberOfMediaRequests ?? 0))
        let bytes = max(0, entry.numberOfBytesTransferred - (base?.numberOfBytesTransferred ?? 0))
        let transfer = Self.mediaTime(max(.zero, entry.transferDuration - (base?.transferDuration ?? .zero)))
        let segments = entry.segmentsDownloadedDuration - (base?.segmentsDownloadedDuration ?? .zero)
        let media = segments.isNumeric && segments > .zero ? segments : .zero
        if requests > 0 {
            out.reports.append(.mediaRequest(bytes: bytes, transferDuration: transfer, mediaDuration: media))
            for _ in 1..<requests {
                out.reports.append(.mediaRequest(bytes: 0, transferDuration: .zero, mediaDuration: .zero))
            }
        } else if bytes > 0 || transfer > .zero {
            out.reports.append(.transferProgress(bytes: bytes, transferDuration: transfer))
        }
        if let bitrate = entry.observedBitrate, bitrate.isFinite {
            out.reports.append(.downloadBitrate(bitrate))
        }
        let hits = entry.numberOfCacheHits - (base?.numberOfCacheHits ?? 0)
        if hits > 0 { out.sideEffects.append(.cacheHits(hits)) }
    }

    /// A duration the core accepts: numeric and not negative, or indefinite.
    static func duration(_ duration: MediaTime) -> MediaTime {
        duration.isNumeric && duration >= .zero ? duration : .indefinite
    }

    static func mediaTime(_ duration: Duration) -> MediaTime {
        let (seconds, attoseconds) = duration.components
        return MediaTime(value: seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000, timescale: 1_000_000_000)
    }

    /// The failure as the core keeps it: `hlsq.probe` with libavformat's code, or
    /// `hlsq.http` with the HTTP status (or minus libcurl's code).
    static func failure(_ error: LoadError) -> ItemFailure {
        if let probe = error.probeError {
            return ItemFailure(domain: ErrorLogEntry.probeDomain, code: Int(probe.averror ?? -1), message: error.message)
        }
        if let http = error.httpError {
            let code = http.statusCode ?? -Int(http.curlCode ?? 1)
            return ItemFailure(domain: ErrorLogEntry.httpDomain, code: code, message: error.message)
        }
        return ItemFailure(domain: "hlsq.loader", code: -1, message: error.message)
    }

    static func mediaInformation(_ description: StreamDescription) -> MediaInformation {
        MediaInformation(
            variants: description.variants.map { variant in
                Variant(
                    uri: variant.uri, bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth,
                    codecs: variant.codecs,
                    resolution: variant.width.flatMap { width in variant.height.map { Resolution(width: width, height: $0) } },
                    frameRate: variant.frameRate)
            },
            mediaSelectionGroups: description.renditionGroups.map { group in
                MediaSelectionGroup(
                    characteristic: group.kind == .audio ? .audible : .legible,
                    options: group.renditions.map {
                        MediaSelectionOption(
                            name: $0.name, language: $0.language, isDefault: $0.isDefault,
                            isAutoselect: $0.isAutoselect, isForced: $0.isForced, uri: $0.uri)
                    })
            },
            chapters: description.chapters.map { Chapter(title: $0.title ?? "", timeRange: $0.timeRange) },
            linearPlaybackRanges: description.linearPlaybackRanges.map {
                LinearPlaybackRange(timeRange: $0.timeRange, label: $0.label)
            })
    }
}
