import Foundation
import MediaTime

/// What a loader tells the Engine about one item, in the order things happen.
///
/// A loader's reports form a stream that ends with exactly one terminal report:
/// ``failed(_:)``, ``loadingFinished`` or ``loadingStopped(_:)``. Before it:
/// - ``mediaProbed(_:)`` at most once, before any loaded range: the item is ready to play,
///   with its duration, tracks, metadata and chapters;
/// - ``loadedTimeRanges(_:)`` whenever they grow; each report carries the whole current set,
///   never a delta, so the Engine can replace what it holds;
/// - ``accessLog(_:)`` with the current access-log entry's counters so far; an entry with
///   the same ``AccessLogEntry/uri`` and ``AccessLogEntry/indicatedBitrate`` as the last one
///   replaces it, a different one starts a new entry (as AVPlayerItemAccessLog does on a
///   variant switch);
/// - ``errorLog(_:)`` once per failed request or probe, retries included.
///
/// An HLS loader reports ``streamDescribed(_:)`` instead of ``mediaProbed(_:)``: the first
/// one makes the item ready to play, and it is sent again whenever the description changes.
/// Before its terminal report it may also send ``durationChanged(_:)``,
/// ``seekableTimeRanges(_:)``, and for live streams ``liveStatus(_:)`` after each reload and
/// ``liveHealth(_:)`` when a check fails or recovers. A variant switch is an access-log entry
/// with the new variant's URI and `BANDWIDTH` as ``AccessLogEntry/indicatedBitrate``. When a
/// reload slides a live window past the playhead, ``fellBehindLiveWindow(rejoinAt:)`` follows
/// the ``seekableTimeRanges(_:)`` report that made the rejoin point seekable. An HLS item's
/// ``loadingFinished`` means its playlists are final (`EXT-X-ENDLIST`) and every segment was
/// loaded or failed (a failed segment stays a hole).
///
/// The Engine maps these to the queue core's item state; the loader knows nothing of it
/// (see ``ItemLoader``).
public enum LoaderReport: Sendable, Hashable {
    /// The media was probed: the item is ready to play.
    case mediaProbed(MediaInfo)
    /// HLS: the presentation is known; the first one makes the item ready to play.
    case streamDescribed(StreamDescription)
    /// HLS: the duration changed (an EVENT playlist grew, a live stream ended).
    case durationChanged(MediaTime)
    /// HLS: where a seek may land now (the whole set): `[0, duration]` for VOD, the sliding
    /// window ending at the live edge minus the target latency for live.
    case seekableTimeRanges(TimeRangeSet)
    /// HLS live: the live figures after a playlist reload.
    case liveStatus(LiveStatus)
    /// HLS live: a health check started failing or recovered.
    case liveHealth(LiveHealthChange)
    /// HLS live: the window slid past the playhead. The loader now loads from `rejoinAt`, the
    /// live sync point, and playback should continue there (the Engine moves the playhead,
    /// which observers see as a time jump).
    case fellBehindLiveWindow(rejoinAt: MediaTime)
    /// The times that have really been downloaded.
    case loadedTimeRanges(TimeRangeSet)
    /// The current access-log entry.
    case accessLog(AccessLogEntry)
    /// A failed request or probe.
    case errorLog(ErrorLogEntry)
    /// The item cannot be played (its media could not be probed, its playlist could not be
    /// loaded or read). Terminal.
    case failed(LoadError)
    /// Everything is loaded. Terminal.
    case loadingFinished
    /// Loading gave up after retries. What was loaded stays loaded; playback will stall at
    /// its end. Terminal.
    case loadingStopped(LoadError)

    /// Whether no report follows this one.
    public var isTerminal: Bool {
        switch self {
        case .failed, .loadingFinished, .loadingStopped: true
        default: false
        }
    }
}

/// Counters of one access-log entry, with the fields of AVPlayerItemAccessLogEvent that a
/// server can fill.
///
/// Network and cache are counted apart: ``numberOfBytesTransferred`` and
/// ``transferDuration`` cover what went over the network only, so ``observedBitrate`` is
/// the network's throughput; cache hits count as requests and in ``numberOfCacheHits`` and
/// ``numberOfBytesFromCache``.
public struct AccessLogEntry: Sendable, Hashable {
    /// The URI of the media or playlist the entry is about.
    public var uri: String
    /// The last server address (`ip:port`) that answered.
    public var serverAddress: String?
    /// How often the server address changed within this entry.
    public var numberOfServerAddressChanges = 0
    /// Requests made, cache hits and failed requests included.
    public var numberOfMediaRequests = 0
    /// Body bytes received over the network.
    public var numberOfBytesTransferred: Int64 = 0
    /// Time spent transferring over the network, summed over requests.
    public var transferDuration: Duration = .zero
    /// The media duration of the segments downloaded (HLS); zero for a media file.
    public var segmentsDownloadedDuration: MediaTime = .zero
    /// The bit rate the content declares (the variant's BANDWIDTH, or a file's container
    /// bit rate), in bits per second.
    public var indicatedBitrate: Double?
    /// Requests answered by the on-disk cache.
    public var numberOfCacheHits = 0
    public var numberOfBytesFromCache: Int64 = 0

    public init(uri: String, indicatedBitrate: Double? = nil) {
        self.uri = uri
        self.indicatedBitrate = indicatedBitrate
    }

    /// Bits per second over the network: bytes transferred over transfer time; nil before
    /// any time was spent.
    public var observedBitrate: Double? {
        transferDuration > .zero ? Double(numberOfBytesTransferred) * 8 / transferDuration.inSeconds : nil
    }

    /// Counts one finished request (successful or not) by its metrics.
    public mutating func record(_ metrics: HTTPTransferMetrics) {
        record(MediaTransferSummary(metrics))
    }

    /// Counts one finished request (successful or not) by what it moved.
    public mutating func record(_ transfer: MediaTransferSummary) {
        numberOfMediaRequests += 1
        if transfer.isCacheHit {
            numberOfCacheHits += 1
            numberOfBytesFromCache += transfer.bodyBytes
            return
        }
        numberOfBytesTransferred += transfer.bodyBytes
        transferDuration += transfer.transferDuration
        if let address = transfer.serverAddress {
            if let previous = serverAddress, previous != address { numberOfServerAddressChanges += 1 }
            serverAddress = address
        }
    }
}

/// What one media request moved, as the access log and the bandwidth estimate count it:
/// the part of ``HTTPTransferMetrics`` they need, which tests can also build by hand.
public struct MediaTransferSummary: Sendable, Hashable {
    /// Decoded body bytes delivered.
    public var bodyBytes: Int64
    /// The whole transfer's time.
    public var transferDuration: Duration
    /// True when the on-disk cache answered.
    public var isCacheHit: Bool
    /// `ip:port` of the server that answered, when a connection was made.
    public var serverAddress: String?

    public init(bodyBytes: Int64, transferDuration: Duration, isCacheHit: Bool = false, serverAddress: String? = nil) {
        self.bodyBytes = bodyBytes
        self.transferDuration = transferDuration
        self.isCacheHit = isCacheHit
        self.serverAddress = serverAddress
    }

    public init(_ metrics: HTTPTransferMetrics) {
        self.init(
            bodyBytes: metrics.bodyBytes, transferDuration: metrics.totalTime, isCacheHit: metrics.isCacheHit,
            serverAddress: metrics.serverAddress
        )
    }
}

/// One error-log entry, with the fields of AVPlayerItemErrorLogEvent.
///
/// ``statusCode`` follows AVFoundation's convention: an HTTP status for HTTP errors, a
/// negative number otherwise (minus libcurl's code for other transfer errors, libavformat's
/// negative `AVERROR` for probe errors).
public struct ErrorLogEntry: Sendable, Hashable {
    /// When the error happened (wall clock).
    public var date: Date
    public var uri: String
    public var serverAddress: String?
    public var statusCode: Int
    /// `hlsq.http` for transfers, `hlsq.probe` for libavformat, `hlsq.playlist` for playlist
    /// problems, `hlsq.live` for live health checks.
    public var domain: String
    /// What happened, in a sentence.
    public var comment: String

    public init(date: Date, uri: String, serverAddress: String?, statusCode: Int, domain: String, comment: String) {
        self.date = date
        self.uri = uri
        self.serverAddress = serverAddress
        self.statusCode = statusCode
        self.domain = domain
        self.comment = comment
    }

    public static let httpDomain = "hlsq.http"
    public static let probeDomain = "hlsq.probe"
    /// A playlist that cannot be used as it is (a diagnostic of severity error, a wrong kind).
    public static let playlistDomain = "hlsq.playlist"
    /// A live health check that started failing (``LiveHealthMonitor/Check/statusCode``).
    public static let liveDomain = "hlsq.live"

    /// The entry for a failed transfer.
    public init(_ error: HTTPError, date: Date) {
        let status = error.code == .httpStatus ? error.statusCode : nil
        self.init(
            date: date, uri: error.url, serverAddress: error.metrics?.serverAddress,
            statusCode: status ?? -Int(error.curlCode ?? 1), domain: Self.httpDomain,
            comment: "\(error.code): \(error.message)"
        )
    }

    /// The entry for a failed probe.
    public init(_ error: ProbeError, date: Date) {
        self.init(
            date: date, uri: error.location, serverAddress: nil,
            statusCode: Int(error.averror ?? -1), domain: Self.probeDomain,
            comment: "\(error.code): \(error.message)"
        )
    }
}

/// Why an item failed or stopped loading: the probe's or the transfer's error, or an
/// unplayable playlist, in one type.
public struct LoadError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable, Hashable {
            case probeFailed = "probe failed"
            case downloadFailed = "download failed"
            case invalidPlaylist = "invalid playlist"
        }

        fileprivate let value: Value

        /// libavformat could not read the media; see ``LoadError/probeError``.
        public static let probeFailed = Code(value: .probeFailed)
        /// A transfer failed for good; see ``LoadError/httpError``.
        public static let downloadFailed = Code(value: .downloadFailed)
        /// An HLS item's playlist is not one that can be played (not HLS, no variants); the
        /// message says why, with the line when a diagnostic tells it.
        public static let invalidPlaylist = Code(value: .invalidPlaylist)

        public var description: String { value.rawValue }
    }

    public let code: Code
    public let uri: String
    public let message: String
    /// The probe's error, for ``Code/probeFailed``.
    public let probeError: ProbeError?
    /// The transfer's error, for ``Code/downloadFailed``.
    public let httpError: HTTPError?

    public init(_ error: ProbeError) {
        code = .probeFailed
        uri = error.location
        message = error.description
        probeError = error
        httpError = nil
    }

    public init(_ error: HTTPError) {
        code = .downloadFailed
        uri = error.url
        message = error.description
        probeError = nil
        httpError = error
    }

    /// An HLS playlist at `uri` that cannot be played, for `reason`.
    public init(invalidPlaylist uri: String, reason: String) {
        code = .invalidPlaylist
        self.uri = uri
        message = "\(uri) cannot be played: \(reason)"
        probeError = nil
        httpError = nil
    }

    public var description: String { message }

    public static func == (lhs: LoadError, rhs: LoadError) -> Bool {
        lhs.code == rhs.code && lhs.uri == rhs.uri && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(uri)
        hasher.combine(message)
    }
}
