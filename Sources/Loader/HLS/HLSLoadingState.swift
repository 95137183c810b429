import Foundation
import MediaTime
import Playlist

/// A moment on the loader's two clocks.
public struct LoaderMoment: Sendable, Hashable {
    /// Time since the loading started, on the injected clock: every schedule (reloads,
    /// retries, the stale check) is counted on it.
    public var elapsed: Duration
    /// The wall clock: it dates error-log entries and live figures, and measures latency
    /// against program date-times.
    public var date: Date

    public init(elapsed: Duration, date: Date) {
        self.elapsed = elapsed
        self.date = date
    }
}

/// Names one request the loading state asked for, so that its answer finds its way back.
public struct HLSRequestID: Sendable, Hashable, CustomStringConvertible {
    public let value: Int

    public var description: String { "#\(value)" }
}

/// The tracks of an HLS item: the variant (or the media playlist itself), and the audio and
/// subtitle renditions that have playlists of their own.
public enum HLSTrackRole: String, Sendable, Hashable, CaseIterable {
    case main
    case audio
    case subtitles

    /// Whether the item's loaded ranges need this track: what plays is what the main and
    /// audio tracks both have; missing subtitles do not stop playback.
    var gatesPlayback: Bool { self != .subtitles }
}

/// What the loading state asks its shell to do.
public enum HLSLoadingEffect: Sendable, Hashable {
    /// Fetch a playlist; answer with ``HLSLoadingState/playlistFetched(_:result:at:)``.
    case fetchPlaylist(HLSRequestID, HTTPRequest)
    /// Download a segment or a media initialization section, counting its bytes; answer with
    /// ``HLSLoadingState/mediaFetched(_:result:at:)``.
    case fetchMedia(HLSRequestID, HTTPRequest)
    /// Cancel a request; its answer, if one comes, is ignored.
    case cancel(HLSRequestID)
    /// Send a report to the Engine.
    case report(LoaderReport)
}

/// A fetched playlist: its body and the URL it finally came from (after redirects), against
/// which its URIs resolve.
public struct FetchedPlaylist: Sendable, Hashable {
    public var body: [UInt8]
    public var url: String

    public init(body: [UInt8], url: String) {
        self.body = body
        self.url = url
    }
}

/// The loading of one HLS item, as a state machine with no I/O: events in (a playlist
/// fetched, a segment downloaded, new directives, time passing), effects out (requests to
/// make or cancel, reports to send). ``HLSLoader`` is the thin shell that runs it.
///
/// ## What it does
/// - **Start.** It fetches the item's URL. A multivariant playlist gives the variants: one is
///   chosen (``VariantSelector`` over the ``BandwidthEstimator``, the peak bit rate and the
///   audio choice), and its media playlist is fetched with those of the selected audio and
///   subtitle renditions. A media playlist is the main track itself.
/// - **Ready.** The main track's first playlist makes the item ready: ``LoaderReport/streamDescribed(_:)``,
///   then ``LoaderReport/seekableTimeRanges(_:)`` (see ``LiveWindow``).
/// - **Buffer.** Each track downloads one segment at a time, in order, from the anchor (the
///   playhead; a live item that was not placed yet, or that fell behind, follows the live
///   sync point) up to the forward buffer (the item's preference, else 30 s for VOD and the
///   hold-back for live) and ``HLSLoader/Configuration/maximumForwardBufferBytes``. A finished
///   segment adds its exact range; a failed one is retried by
///   ``HLSLoader/Configuration/segmentRetry`` and then left as a hole. A media
///   initialization section (`EXT-X-MAP`) is fetched once, before the first segment that
///   needs it. `EXT-X-GAP` segments are not fetched. A seek (a new
///   ``LoadingDirectives/loadFrom``) moves every track's position and retries holes.
/// - **Switch.** After each segment the estimate is updated and the variant chosen again; a
///   switch fetches the new variant's playlist, places it on the same timeline, and opens
///   a new access-log entry with its `BANDWIDTH`.
/// - **Live.** Playlists reload by ``PlaylistReloadTiming``; each reload of the main track
///   feeds the ``LiveHealthMonitor`` and is reported as ``LoaderReport/liveStatus(_:)``. When
///   `EXT-X-ENDLIST` appears the item becomes VOD.
/// - **End.** ``LoaderReport/loadingFinished`` once every track's playlist is final and every
///   segment is loaded or failed.
///
/// ## Invariants (``checkInvariants()``)
/// - every request in flight is known, and each track's download and playlist request are
///   among them;
/// - once running, there is a main track;
/// - a finished state has no request in flight.
public struct HLSLoadingState: Sendable {
    public enum Phase: Sendable, Hashable {
        /// ``start(at:)`` was not called yet.
        case idle
        /// Waiting for the main track's first media playlist.
        case loadingPlaylist
        /// Ready; loading segments and reloading live playlists.
        case running
        /// A terminal report was sent.
        case finished
    }

    public let url: String
    public let configuration: HLSLoader.Configuration
    public internal(set) var directives: LoadingDirectives
    public internal(set) var phase: Phase = .idle
    public internal(set) var bandwidth: BandwidthEstimator
    public internal(set) var health: LiveHealthMonitor
    /// The access-log entry of the current variant.
    public internal(set) var accessLog: AccessLogEntry?
    /// The variant being loaded, when the item came through a multivariant playlist.
    public internal(set) var variantIndex: Int?
    /// Whether the anchor is the live sync point rather than the playhead: a live item not
    /// placed by the player yet, or one that fell out of the window.
    public internal(set) var followsLiveEdge = false

    var multivariant: MultivariantPlaylist?
    /// Variants whose playlist could not be loaded: never chosen again.
    var excludedVariants: Set<Int> = []
    var tracks: [HLSTrackRole: Track] = [:]
    var requests: [HLSRequestID: Request] = [:]
    var rootRetry: (attempt: Int, at: Duration)?
    var reportedDescription: StreamDescription?
    var reportedLoaded = TimeRangeSet()
    var reportedSeekable: TimeRangeSet?
    /// The playlists whose diagnostics were logged: each is logged once, not at every reload.
    var diagnosedPlaylists: Set<String> = []
    private var nextRequestNumber = 0
    private var nextTrackGeneration = 0

    public init(url: String, configuration: HLSLoader.Configuration, directives: LoadingDirectives) {
        self.url = url
        self.configuration = configuration
        self.directives = directives
        bandwidth = BandwidthEstimator(configuration: configuration.bandwidth)
        health = LiveHealthMonitor(staleMultiple: configuration.staleMultiple)
    }

    // MARK: - Model

    /// A request in flight.
    enum Request: Sendable {
        case root(attempt: Int, startedAt: Duration, startedDate: Date)
        case playlist(HLSTrackRole, generation: Int, url: String, startedAt: Duration, startedDate: Date)
        case media(HLSTrackRole, generation: Int, MediaJob, attempt: Int)
    }

    /// A segment, or the media initialization section one needs.
    struct MediaJob: Sendable, Hashable {
        var sequenceNumber: Int
        /// The segment's range on the item's timeline.
        var timeRange: TimeRange
        var request: HTTPRequest
        /// Set when the job fetches the segment's map rather than the segment.
        var map: MapKey?
    }

    /// A media initialization section: fetched once per URL and byte range.
    struct MapKey: Sendable, Hashable {
        var url: String
        var byteRange: ByteRange?
    }

    /// One track's playlist and loading.
    struct Track: Sendable {
        /// Tells this track from an earlier one of the same role (a rendition switch), so a
        /// late answer for the old one is ignored.
        let generation: Int
        /// The media playlist loaded (the new one during a variant switch).
        var url: String
        /// The variant's `BANDWIDTH`, for the main track of a multivariant item.
        var indicatedBitrate: Int?
        /// The last playlist loaded, placed on the item's timeline.
        var placed: PlacedPlaylist?
        /// True until the playlist at ``url`` is loaded: at first and after a variant switch.
        var awaitingPlaylist = true
        var playlistAttempt = 1
        var playlistRequest: HLSRequestID?
        var nextReloadAt: Duration?
        var loaded = LoadedSegments()
        var failed: Set<Int> = []
        var scheduler = SegmentScheduler()
        var download: HLSRequestID?
        var retry: (job: MediaJob, attempt: Int, at: Duration)?
        var fetchedMaps: Set<MapKey> = []

        var isIdle: Bool { playlistRequest == nil && download == nil && retry == nil && !awaitingPlaylist }
        var window: LiveWindow? { placed?.window }
    }

    /// A media playlist as loaded, placed on the item's timeline, with the body it was read
    /// from (to tell an unchanged reload). Immutable and shared, so that copying a track
    /// copies one reference rather than the playlist's many arrays.
    final class PlacedPlaylist: Sendable {
        let playlist: MediaPlaylist
        /// The item time of the playlist's time zero.
        let offset: MediaTime
        let window: LiveWindow
        let body: [UInt8]

        init(playlist: MediaPlaylist, offset: MediaTime, body: [UInt8]) {
            self.playlist = playlist
            self.offset = offset
            self.body = body
            window = LiveWindow(playlist: playlist, offset: offset)
        }
    }

    // MARK: - Events

    /// Starts loading: fetches the item's URL.
    public mutating func start(at now: LoaderMoment) -> [HLSLoadingEffect] {
        guard phase == .idle else { return [] }
        phase = .loadingPlaylist
        var effects: [HLSLoadingEffect] = []
        fetchRoot(attempt: 1, now, &effects)
        return effects
    }

    /// The player's directives changed.
    public mutating func receiveDirectives(_ new: LoadingDirectives, at now: LoaderMoment) -> [HLSLoadingEffect] {
        guard phase != .finished else { return [] }
        let old = directives
        directives = new
        var effects: [HLSLoadingEffect] = []
        if new.loadFrom != old.loadFrom, new.loadFrom != nil {
            followsLiveEdge = false
            retarget(&effects)
        } else if new.playhead != old.playhead {
            followsLiveEdge = false
        }
        let anchor = anchor
        for role in HLSTrackRole.allCases { tracks[role]?.loaded.advance(playhead: anchor) }
        if phase == .running, new.preferredPeakBitRate != old.preferredPeakBitRate || new.audio != old.audio
            || new.subtitles != old.subtitles {
            reselect(now, &effects)
        }
        finishTransition(now, &effects)
        return effects
    }

    /// A playlist request answered.
    public mutating func playlistFetched(
        _ id: HLSRequestID, result: Result<FetchedPlaylist, HTTPError>, at now: LoaderMoment
    ) -> [HLSLoadingEffect] {
        guard phase != .finished, let request = requests.removeValue(forKey: id) else { return [] }
        var effects: [HLSLoadingEffect] = []
        switch request {
        case .root(let attempt, let startedAt, let startedDate):
            rootFetched(result, attempt: attempt, startedAt: startedAt, startedDate: startedDate, now, &effects)
        case .playlist(let role, let generation, let url, let startedAt, let startedDate):
            guard var track = tracks[role], track.generation == generation else { break }
            track.playlistRequest = nil
            tracks[role] = track
            guard track.url == url else { break }
            mediaPlaylistFetched(result, role: role, startedAt: startedAt, startedDate: startedDate, now, &effects)
        case .media:
            break
        }
        finishTransition(now, &effects)
        return effects
    }

    /// A segment or map request answered.
    public mutating func mediaFetched(
        _ id: HLSRequestID, result: Result<MediaTransferSummary, HTTPError>, at now: LoaderMoment
    ) -> [HLSLoadingEffect] {
        guard phase != .finished, case .media(let role, let generation, let job, let attempt)? = requests.removeValue(forKey: id)
        else { return [] }
        var effects: [HLSLoadingEffect] = []
        let isCurrentTrack = tracks[role]?.generation == generation
        if isCurrentTrack, tracks[role]?.download == id { tracks[role]?.download = nil }
        switch result {
        case .success(let transfer):
            accessLog?.record(transfer)
            if role == .main, job.map == nil {
                accessLog?.segmentsDownloadedDuration += job.timeRange.duration
            }
            if let accessLog { effects.append(.report(.accessLog(accessLog))) }
            if isCurrentTrack {
                if let map = job.map {
                    tracks[role]?.fetchedMaps.insert(map)
                } else {
                    tracks[role]?.loaded.add(job.timeRange, bytes: transfer.bodyBytes)
                }
            }
            if !transfer.isCacheHit, bandwidth.addSample(bytes: transfer.bodyBytes, duration: transfer.transferDuration) {
                reselect(now, &effects)
            }
        case .failure(let error):
            guard error.code != .cancelled else { break }
            if let metrics = error.metrics { accessLog?.record(metrics) } else { accessLog?.numberOfMediaRequests += 1 }
            effects.append(.report(.errorLog(ErrorLogEntry(error, date: now.date))))
            if let accessLog { effects.append(.report(.accessLog(accessLog))) }
            guard isCurrentTrack else { break }
            var random = SystemRandomNumberGenerator()
            let decision = configuration.segmentRetry.decision(
                afterAttempt: attempt, failedWith: error.code, statusCode: error.statusCode, random: &random)
            if case .retry(let delay) = decision {
                tracks[role]?.retry = (job, attempt + 1, now.elapsed + delay)
            } else {
                tracks[role]?.failed.insert(job.sequenceNumber)
            }
        }
        finishTransition(now, &effects)
        return effects
    }

    /// Time passed: due reloads, retries and health deadlines run.
    public mutating func timerFired(at now: LoaderMoment) -> [HLSLoadingEffect] {
        guard phase != .finished else { return [] }
        var effects: [HLSLoadingEffect] = []
        if let retry = rootRetry, retry.at <= now.elapsed {
            rootRetry = nil
            fetchRoot(attempt: retry.attempt, now, &effects)
        }
        for role in HLSTrackRole.allCases {
            guard let track = tracks[role] else { continue }
            if let at = track.nextReloadAt, at <= now.elapsed, track.playlistRequest == nil {
                fetchPlaylist(role, now, &effects)
            }
            if let retry = track.retry, retry.at <= now.elapsed {
                tracks[role]?.retry = nil
                fetchMedia(role, retry.job, attempt: retry.attempt, &effects)
            }
        }
        if tracks[.main]?.window?.behavior.isLive == true {
            applyHealth(health.tick(at: now.elapsed), now, &effects)
        }
        finishTransition(now, &effects)
        return effects
    }

    /// When ``timerFired(at:)`` should next be called, if anything waits for time.
    public var nextDeadline: Duration? {
        guard phase != .finished else { return nil }
        var deadlines: [Duration] = []
        if let rootRetry { deadlines.append(rootRetry.at) }
        for track in tracks.values {
            if let at = track.nextReloadAt, track.playlistRequest == nil { deadlines.append(at) }
            if let retry = track.retry { deadlines.append(retry.at) }
        }
        if tracks[.main]?.window?.behavior.isLive == true, let stale = health.staleDeadline {
            deadlines.append(stale)
        }
        return deadlines.min()
    }

    /// The item's loaded ranges: what the main and audio tracks both have.
    public var loadedTimeRanges: TimeRangeSet {
        var result: TimeRangeSet?
        for role in HLSTrackRole.allCases where role.gatesPlayback {
            guard let track = tracks[role] else { continue }
            result = result.map { $0.intersection(track.loaded.ranges) } ?? track.loaded.ranges
        }
        return result ?? TimeRangeSet()
    }

    /// The main track's window, once its playlist is loaded.
    public var window: LiveWindow? { tracks[.main]?.window }

    /// Where the tracks load from: the live sync point while following the live edge, else
    /// the playhead.
    public var anchor: MediaTime {
        if followsLiveEdge, let window = tracks[.main]?.window, window.behavior.isLive {
            return window.syncPoint
        }
        return directives.playhead.isNumeric ? directives.playhead : .zero
    }

    public func checkInvariants() -> Bool {
        for track in tracks.values {
            if let id = track.download, requests[id] == nil { return false }
            if let id = track.playlistRequest, requests[id] == nil { return false }
            guard track.loaded.checkInvariants() else { return false }
        }
        if phase == .running && tracks[.main] == nil { return false }
        if phase == .finished && !requests.isEmpty { return false }
        return true
    }

    // MARK: - Requests

    mutating func makeRequestID() -> HLSRequestID {
        nextRequestNumber += 1
        return HLSRequestID(value: nextRequestNumber)
    }

    mutating func makeTrack(url: String, indicatedBitrate: Int? = nil) -> Track {
        nextTrackGeneration += 1
        return Track(generation: nextTrackGeneration, url: url, indicatedBitrate: indicatedBitrate)
    }

    func playlistRequest(_ url: String) -> HTTPRequest {
        HTTPRequest(url: url, limits: configuration.playlistLimits, isCacheable: false)
    }

    mutating func fetchRoot(attempt: Int, _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        let id = makeRequestID()
        requests[id] = .root(attempt: attempt, startedAt: now.elapsed, startedDate: now.date)
        effects.append(.fetchPlaylist(id, playlistRequest(url)))
    }

    mutating func fetchPlaylist(_ role: HLSTrackRole, _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        guard var track = tracks[role] else { return }
        if let previous = track.playlistRequest {
            requests[previous] = nil
            effects.append(.cancel(previous))
        }
        let id = makeRequestID()
        requests[id] = .playlist(role, generation: track.generation, url: track.url, startedAt: now.elapsed,
                                 startedDate: now.date)
        track.playlistRequest = id
        track.nextReloadAt = nil
        tracks[role] = track
        effects.append(.fetchPlaylist(id, playlistRequest(track.url)))
    }

    mutating func fetchMedia(_ role: HLSTrackRole, _ job: MediaJob, attempt: Int, _ effects: inout [HLSLoadingEffect]) {
        guard let track = tracks[role] else { return }
        let id = makeRequestID()
        requests[id] = .media(role, generation: track.generation, job, attempt: attempt)
        tracks[role]?.download = id
        effects.append(.fetchMedia(id, job.request))
    }

    /// Cancels every request of `track`.
    mutating func cancelRequests(of track: Track, _ effects: inout [HLSLoadingEffect]) {
        for id in [track.playlistRequest, track.download].compactMap({ $0 }) {
            requests[id] = nil
            effects.append(.cancel(id))
        }
    }

    /// Sends the terminal report and cancels everything in flight.
    mutating func terminate(with report: LoaderReport, _ effects: inout [HLSLoadingEffect]) {
        for id in requests.keys.sorted(by: { $0.value < $1.value }) { effects.append(.cancel(id)) }
        requests.removeAll()
        for role in HLSTrackRole.allCases {
            tracks[role]?.playlistRequest = nil
            tracks[role]?.download = nil
            tracks[role]?.retry = nil
            tracks[role]?.nextReloadAt = nil
        }
        rootRetry = nil
        phase = .finished
        effects.append(.report(report))
    }

    // MARK: - After every event

    /// Starts due downloads, reports grown loaded ranges, and finishes when all is loaded.
    mutating func finishTransition(_ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        defer { assert(checkInvariants()) }
        guard phase == .running else { return }
        scheduleDownloads(&effects)
        let loaded = loadedTimeRanges
        if loaded != reportedLoaded {
            reportedLoaded = loaded
            effects.append(.report(.loadedTimeRanges(loaded)))
        }
        if isComplete {
            terminate(with: .loadingFinished, &effects)
        }
    }

    /// Whether every playlist is final and every segment loaded or failed.
    var isComplete: Bool {
        guard rootRetry == nil, tracks[.main] != nil else { return false }
        for track in tracks.values {
            guard track.isIdle, let placed = track.placed, placed.window.behavior == .vod else { return false }
            let segments = placed.playlist.segments
            guard configuration.loadsSegments, let first = segments.first else { continue }
            let whole = TimeRange(start: placed.offset + first.startTime, end: placed.window.liveEdge)
            if track.loaded.contains(whole) { continue }
            for segment in segments where !segment.isGap && !track.failed.contains(segment.mediaSequenceNumber) {
                guard track.loaded.contains(TimeRange(start: placed.offset + segment.startTime, duration: segment.duration))
                else { return false }
            }
        }
        return true
    }
}
