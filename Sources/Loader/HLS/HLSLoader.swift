import Foundation
import MediaTime

/// Loads HLS items (multivariant or media playlists, VOD or live) for the Engine, and
/// reports their progress as a stream of ``LoaderReport``s.
///
/// The loader is a thin shell around ``HLSLoadingState``, which decides everything (which
/// variant, which segment, when to reload, what is unhealthy) without I/O. For each item the
/// shell runs one task that:
/// - feeds the state its events: the directives the Engine sends, the answers of the
///   requests it made, and its deadlines, measured on the injected clock;
/// - carries out the effects: playlists are fetched whole through the ``HTTPClient``;
///   segments and maps are streamed and their bytes counted, not kept (a server-side player
///   decodes nothing), going through the client's cache when it has one; reports are yielded.
///
/// Ending the iteration of the reports (or cancelling its task) cancels every transfer and
/// ends the task. The stream ends after the terminal report.
public struct HLSLoader: ItemLoader {
    public let client: HTTPClient
    public let configuration: Configuration
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date

    /// A loader on `client`. `clock` schedules reloads, retries and health deadlines; `now`
    /// dates error-log entries and measures wall-clock latency.
    public init(
        client: HTTPClient, configuration: Configuration = Configuration(), clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.client = client
        self.configuration = configuration
        self.clock = clock
        self.now = now
    }

    public func load(_ request: ItemLoadRequest, directives: AsyncStream<LoadingDirectives>) -> AsyncStream<LoaderReport> {
        let (reports, continuation) = AsyncStream<LoaderReport>.makeStream()
        let session = HLSLoaderSession(
            client: client, state: HLSLoadingState(url: request.url, configuration: configuration, directives: request.directives),
            now: now, reports: continuation)
        let task = Task { [clock] in
            await session.run(clock: clock, directives: directives)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return reports
    }

    /// Loads `url` with fixed directives (the playhead at zero): for tools and tests that
    /// do not steer the loading.
    public func load(_ url: String, directives: LoadingDirectives = LoadingDirectives()) -> AsyncStream<LoaderReport> {
        load(ItemLoadRequest(url: url, kind: .hls, directives: directives), directives: AsyncStream { $0.finish() })
    }
}

/// One item's run: the state, the transfers in flight and the timer, all owned by the run's
/// task; transfers and the timer are child tasks that answer through one event stream.
private struct HLSLoaderSession: Sendable {
    let client: HTTPClient
    var state: HLSLoadingState
    let now: @Sendable () -> Date
    let reports: AsyncStream<LoaderReport>.Continuation

    enum Event: Sendable {
        case directives(LoadingDirectives)
        case playlist(HLSRequestID, Result<FetchedPlaylist, HTTPError>)
        case media(HLSRequestID, Result<MediaTransferSummary, HTTPError>)
        case timer
    }

    func run(clock: any Clock<Duration>, directives: AsyncStream<LoadingDirectives>) async {
        var session = self
        await session.run(on: clock, directives: directives)
    }

    private mutating func run<C: Clock<Duration>>(on clock: C, directives: AsyncStream<LoadingDirectives>) async {
        let origin = clock.now
        let (events, sink) = AsyncStream<Event>.makeStream()
        let forwarder = Task {
            for await directive in directives { sink.yield(.directives(directive)) }
        }
        var transfers: [HLSRequestID: Task<Void, Never>] = [:]
        var timer: (deadline: Duration, task: Task<Void, Never>)?
        defer {
            forwarder.cancel()
            timer?.task.cancel()
            for transfer in transfers.values { transfer.cancel() }
            sink.finish()
        }
        func moment() -> LoaderMoment {
            LoaderMoment(elapsed: origin.duration(to: clock.now), date: now())
        }

        var iterator = events.makeAsyncIterator()
        var effects = state.start(at: moment())
        while true {
            for effect in effects {
                switch effect {
                case .fetchPlaylist(let id, let request):
                    transfers[id] = Task { [client] in
                        sink.yield(.playlist(id, await Self.fetchPlaylist(request, client: client)))
                    }
                case .fetchMedia(let id, let request):
                    transfers[id] = Task { [client] in
                        sink.yield(.media(id, await Self.fetchMedia(request, client: client)))
                    }
                case .cancel(let id):
                    transfers.removeValue(forKey: id)?.cancel()
                case .report(let report):
                    reports.yield(report)
                    if report.isTerminal { return }
                }
            }
            let deadline = state.nextDeadline
            if deadline != timer?.deadline {
                timer?.task.cancel()
                timer = deadline.map { deadline in
                    (deadline, Task {
                        do {
                            try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil)
                            sink.yield(.timer)
                        } catch {
                            // Cancelled: a newer deadline replaced this one.
                        }
                    })
                }
            }
            // nil once the run's task is cancelled: the Engine stopped listening.
            guard let event = await iterator.next() else { return }
            switch event {
            case .directives(let directives):
                effects = state.receiveDirectives(directives, at: moment())
            case .playlist(let id, let result):
                transfers[id] = nil
                effects = state.playlistFetched(id, result: result, at: moment())
            case .media(let id, let result):
                transfers[id] = nil
                effects = state.mediaFetched(id, result: result, at: moment())
            case .timer:
                timer = nil
                effects = state.timerFired(at: moment())
            }
        }
    }

    private static func fetchPlaylist(_ request: HTTPRequest, client: HTTPClient) async -> Result<FetchedPlaylist, HTTPError> {
        do throws(HTTPError) {
            let response = try await client.fetch(request)
            return .success(FetchedPlaylist(body: response.body, url: response.metrics.effectiveURL))
        } catch {
            return .failure(error)
        }
    }

    /// Streams a segment or map, counting its bytes without keeping them.
    private static func fetchMedia(_ request: HTTPRequest, client: HTTPClient) async -> Result<MediaTransferSummary, HTTPError> {
        do throws(HTTPError) {
            var summary: MediaTransferSummary?
            for try await event in client.stream(request) {
                if case .end(let metrics) = event { summary = MediaTransferSummary(metrics) }
            }
            guard let summary else {
                return .failure(HTTPError(.transferFailed, url: request.url, message: "the transfer ended without its metrics"))
            }
            return .success(summary)
        } catch {
            return .failure(error)
        }
    }
}
