import Foundation
import MediaTime

/// Loads a plain media item (a file, not an HLS playlist) and reports its progress as a
/// stream of ``LoaderReport``s.
///
/// - A **local** item (a path or a `file:` URL) is probed and then counts as fully loaded:
///   its loaded time range is the whole duration at once.
/// - A **remote** item (`http`, `https`) is probed by libavformat, then downloaded
///   progressively through the ``HTTPClient``. The loaded range `[0, t)` grows with the
///   bytes received: `t = duration × bytesReceived / contentLength`, a proportional
///   mapping. That is exact for constant bit rate and an estimate otherwise (an MP4's index
///   at its start holds no media time), which is the best a byte-level downloader can say
///   without demuxing; when the length is unknown (a compressed or chunked answer), the range
///   jumps from empty to whole at the end.
/// - A download that fails is resumed from the byte it reached (a `Range` request) after
///   the ``Configuration/retry`` policy's delay; each failure is an error-log entry. When the
///   policy gives up, the stream ends with ``LoaderReport/loadingStopped(_:)`` and the loaded
///   range stays where it was.
/// - With a cache in the client, a complete download is kept, and loading the same URL again
///   (a looping item) probes the cached copy and reports it loaded, with a cache hit in the
///   access log and no request to the server.
///
/// libavformat's own requests while probing a remote item are not in the access log.
///
/// Ending the iteration of the stream (or cancelling its task) cancels the loading.
public struct MediaFileLoader: Sendable {
    public struct Configuration: Sendable {
        /// How long a probe may take.
        public var probeTimeout: Duration
        /// The least time between two progress reports while downloading.
        public var reportInterval: Duration
        /// When to resume a failed download.
        public var retry: RetryPolicy
        /// The download's limits: no total time by default (a file takes what it takes),
        /// stalls and first bytes bounded.
        public var limits: HTTPLimits

        public init(
            probeTimeout: Duration = .seconds(30),
            reportInterval: Duration = .milliseconds(250),
            retry: RetryPolicy = .standard,
            limits: HTTPLimits = HTTPLimits(totalTimeout: nil, maximumBodyBytes: nil)
        ) {
            self.probeTimeout = probeTimeout
            self.reportInterval = reportInterval
            self.retry = retry
            self.limits = limits
        }
    }

    public let client: HTTPClient
    public let configuration: Configuration
    /// The wall clock for error-log dates.
    private let now: @Sendable () -> Date

    public init(client: HTTPClient, configuration: Configuration = Configuration(), now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.configuration = configuration
        self.now = now
    }

    /// Starts loading `location` and returns its reports.
    public func load(_ location: String) -> AsyncStream<LoaderReport> {
        let (reports, continuation) = AsyncStream<LoaderReport>.makeStream()
        let task = Task {
            let terminal = await run(location, report: { continuation.yield($0) })
            continuation.yield(terminal)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return reports
    }

    /// Whether `location` is read from the local file system.
    static func isLocal(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return !(lowered.hasPrefix("http://") || lowered.hasPrefix("https://"))
    }

    /// Loads, reporting as it goes; returns the terminal report.
    private func run(_ location: String, report: (LoaderReport) -> Void) async -> LoaderReport {
        if Self.isLocal(location) {
            return await loadLocal(location, report: report)
        }
        let request = HTTPRequest(url: location, limits: configuration.limits, isCacheable: true)
        if let cache = client.configuration.cache, let cached = cache.cachedFile(for: request) {
            return await loadCached(location, file: cached, report: report)
        }
        return await download(location, request: request, report: report)
    }

    private func loadLocal(_ location: String, report: (LoaderReport) -> Void) async -> LoaderReport {
        do {
            let info = try await MediaProbe.probe(location, timeout: configuration.probeTimeout)
            report(.mediaProbed(info))
            report(.loadedTimeRanges(Self.loadedTimeRanges(duration: info.duration, bytesReceived: 1, contentLength: 1)))
            return .loadingFinished
        } catch {
            report(.errorLog(ErrorLogEntry(error, date: now())))
            return .failed(LoadError(error))
        }
    }

    private func loadCached(_ location: String, file: URL, report: (LoaderReport) -> Void) async -> LoaderReport {
        let info: MediaInfo
        do {
            info = try await MediaProbe.probe(file.path, timeout: configuration.probeTimeout)
        } catch {
            // The cached copy is unreadable (evicted meanwhile): fall back to the network.
            let request = HTTPRequest(url: location, limits: configuration.limits, isCacheable: true)
            return await download(location, request: request, report: report)
        }
        var described = info
        described.location = location
        report(.mediaProbed(described))
        var entry = AccessLogEntry(uri: location, indicatedBitrate: info.bitRate.map(Double.init))
        entry.numberOfMediaRequests = 1
        entry.numberOfCacheHits = 1
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        entry.numberOfBytesFromCache = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        report(.accessLog(entry))
        report(.loadedTimeRanges(Self.loadedTimeRanges(duration: info.duration, bytesReceived: 1, contentLength: 1)))
        return .loadingFinished
    }

    private func download(_ location: String, request: HTTPRequest, report: (LoaderReport) -> Void) async -> LoaderReport {
        let info: MediaInfo
        do {
            info = try await MediaProbe.probe(location, timeout: configuration.probeTimeout)
        } catch {
            report(.errorLog(ErrorLogEntry(error, date: now())))
            return .failed(LoadError(error))
        }
        report(.mediaProbed(info))

        var progress = DownloadProgress(
            duration: info.duration,
            entry: AccessLogEntry(uri: location, indicatedBitrate: info.bitRate.map(Double.init))
        )
        var random = SystemRandomNumberGenerator()
        var attempt = 0
        while true {
            attempt += 1
            // The first attempt may fill the cache; a resumed one asks for the rest only,
            // which is no complete copy to keep.
            let resumed = progress.received > 0
            var attemptRequest = request
            if resumed {
                attemptRequest.byteRange = ByteRange(offset: progress.received)
                attemptRequest.isCacheable = false
            }
            let failure = await transfer(attemptRequest, progress: &progress, report: report)
            guard let failure else {
                report(.accessLog(progress.entry))
                progress.reportRanges(complete: true, report: report)
                return .loadingFinished
            }
            if failure.code == .cancelled {
                // Nobody listens any more; a cancellation is no error to log.
                return .loadingStopped(LoadError(failure))
            }
            report(.errorLog(ErrorLogEntry(failure, date: now())))
            report(.accessLog(progress.entry))
            if let total = progress.total, progress.received >= total {
                // Every byte arrived before the connection broke.
                progress.reportRanges(complete: true, report: report)
                return .loadingFinished
            }
            let decision = configuration.retry.decision(
                afterAttempt: attempt, failedWith: failure.code, statusCode: failure.statusCode, random: &random
            )
            guard case .retry(let delay) = decision, !Task.isCancelled else {
                var final = failure
                final.attempts = attempt
                return .loadingStopped(LoadError(final))
            }
            try? await Task.sleep(for: delay)
        }
    }

    /// Runs one attempt, updating `progress` and reporting on the way; the error when it
    /// failed.
    private func transfer(
        _ request: HTTPRequest, progress: inout DownloadProgress, report: (LoaderReport) -> Void
    ) async -> HTTPError? {
        let started = ContinuousClock.now
        var lastReport = ContinuousClock.now
        let baseEntry = progress.entry
        let offset = progress.received
        do throws(HTTPError) {
            for try await event in client.stream(request) {
                switch event {
                case .head(let head):
                    if progress.total == nil {
                        progress.total = head.completeLength ?? head.expectedBodyBytes.map { $0 + offset }
                    }
                case .bytes(let bytes):
                    progress.received += Int64(bytes.count)
                    let now = ContinuousClock.now
                    if now - lastReport >= configuration.reportInterval {
                        lastReport = now
                        // The request in flight counts with what it has moved so far.
                        var entry = baseEntry
                        entry.numberOfMediaRequests += 1
                        entry.numberOfBytesTransferred += progress.received - offset
                        entry.transferDuration += now - started
                        report(.accessLog(entry))
                        progress.reportRanges(complete: false, report: report)
                    }
                case .end(let metrics):
                    progress.entry.record(metrics)
                }
            }
            return nil
        } catch {
            if let metrics = error.metrics {
                progress.entry.record(metrics)
            } else {
                progress.entry.numberOfMediaRequests += 1
            }
            return error
        }
    }

    /// The loaded time ranges of a progressive download: `[0, duration × bytesReceived /
    /// contentLength)`, rounded down in the duration's timescale; the whole duration once
    /// every byte is in; empty when the duration or the length is unknown.
    public static func loadedTimeRanges(duration: MediaTime, bytesReceived: Int64, contentLength: Int64) -> TimeRangeSet {
        guard let value = duration.value, let timescale = duration.timescale, contentLength > 0, value > 0 else {
            return TimeRangeSet()
        }
        let bytes = min(max(0, bytesReceived), contentLength)
        // value × bytes can exceed 64 bits for long, large files: divide at full width.
        let product = value.multipliedFullWidth(by: bytes)
        let (quotient, _) = contentLength.dividingFullWidth(product)
        return TimeRangeSet([TimeRange(start: .zero, end: MediaTime(value: quotient, timescale: timescale))])
    }
}

/// A download's state across its attempts.
private struct DownloadProgress {
    let duration: MediaTime
    var entry: AccessLogEntry
    /// Bytes of the file received so far, over every attempt.
    var received: Int64 = 0
    /// The file's length, once an answer has told it.
    var total: Int64?
    /// What was last reported, so that a report is sent only when the ranges grew.
    var reportedRanges = TimeRangeSet()

    mutating func reportRanges(complete: Bool, report: (LoaderReport) -> Void) {
        let ranges = if complete {
            MediaFileLoader.loadedTimeRanges(duration: duration, bytesReceived: 1, contentLength: 1)
        } else if let total {
            MediaFileLoader.loadedTimeRanges(duration: duration, bytesReceived: received, contentLength: total)
        } else {
            TimeRangeSet()
        }
        guard ranges != reportedRanges else { return }
        reportedRanges = ranges
        report(.loadedTimeRanges(ranges))
    }
}
