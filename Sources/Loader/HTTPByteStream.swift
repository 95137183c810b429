import Foundation

/// What a streaming transfer reports, in this order: one ``head(_:)``, any number of
/// ``bytes(_:)``, one ``end(_:)``.
public enum HTTPStreamEvent: Sendable {
    /// The final response's status and headers, before any byte of the body.
    case head(HTTPResponseHead)
    /// The next piece of the decoded body.
    case bytes([UInt8])
    /// The transfer completed; its metrics.
    case end(HTTPTransferMetrics)
}

/// The body of one transfer as it arrives, from ``HTTPClient/stream(_:)``.
///
/// Iterate it once. It throws an ``HTTPError`` when the transfer fails, and
/// ``HTTPError/Code/cancelled`` when the iterating task is cancelled. Stopping early (a
/// `break`) cancels the transfer too.
///
/// Flow control: at most a few MiB wait between the loop and a slow consumer; beyond that
/// the transfer pauses until the consumer catches up, and the stall timeout does not count
/// the pause.
///
/// A cacheable stream that misses the cache writes what it delivers to a cache file, kept
/// only if the stream ends successfully; one that hits reads the cache file instead of the
/// network.
public struct HTTPByteStream: AsyncSequence {
    public typealias Element = HTTPStreamEvent
    public typealias Failure = HTTPError

    /// The loop's side of a network stream: where resumes go.
    struct Control: Sendable {
        let loop: CurlLoop
        let ticket: TransferTicket
        let credit: StreamCredit
    }

    private enum Source {
        case network(AsyncStream<StreamSignal>, Control, HTTPCache.Writer?)
        case cache(HTTPCache.Entry, HTTPCache)
    }

    private let source: Source
    private let request: HTTPRequest

    init(signals: AsyncStream<StreamSignal>, control: Control, cacheWriter: HTTPCache.Writer?, request: HTTPRequest) {
        source = .network(signals, control, cacheWriter)
        self.request = request
    }

    init(cachedEntry: HTTPCache.Entry, request: HTTPRequest, cache: HTTPCache) {
        source = .cache(cachedEntry, cache)
        self.request = request
    }

    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .network(let signals, let control, let writer):
            AsyncIterator(state: .network(signals.makeAsyncIterator(), control, writer), request: request)
        case .cache(let entry, let cache):
            AsyncIterator(state: .cacheHead(entry, cache), request: request)
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate enum State {
            case network(AsyncStream<StreamSignal>.Iterator, Control, HTTPCache.Writer?)
            case cacheHead(HTTPCache.Entry, HTTPCache)
            case cacheBody(HTTPCache.Entry, FileHandle, started: ContinuousClock.Instant, delivered: Int64)
            case finished
        }

        fileprivate var state: State
        let request: HTTPRequest

        fileprivate init(state: State, request: HTTPRequest) {
            self.state = state
            self.request = request
        }

        public mutating func next() async throws(HTTPError) -> HTTPStreamEvent? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(HTTPError) -> HTTPStreamEvent? {
            switch state {
            case .finished:
                return nil
            case .network(var signals, let control, let writer):
                let signal = await signals.next(isolation: actor)
                state = .network(signals, control, writer)
                return try receive(signal, control: control, writer: writer)
            case .cacheHead(let entry, let cache):
                guard let file = cache.openBody(of: entry) else {
                    state = .finished
                    throw HTTPError(.fileUnreadable, url: request.url, message: "the cached copy has gone")
                }
                state = .cacheBody(entry, file, started: .now, delivered: 0)
                return .head(entry.head)
            case .cacheBody(let entry, let file, let started, let delivered):
                if Task.isCancelled {
                    state = .finished
                    throw HTTPError(.cancelled, url: request.url, message: "the transfer was cancelled")
                }
                let chunk = (try? file.read(upToCount: 64 << 10)) ?? Data()
                if chunk.isEmpty {
                    state = .finished
                    try? file.close()
                    return .end(entry.metrics(for: request, bodyBytes: delivered, totalTime: .now - started))
                }
                state = .cacheBody(entry, file, started: started, delivered: delivered + Int64(chunk.count))
                return .bytes(Array(chunk))
            }
        }

        private mutating func receive(
            _ signal: StreamSignal?, control: Control, writer: HTTPCache.Writer?
        ) throws(HTTPError) -> HTTPStreamEvent? {
            switch signal {
            case nil:
                // The stream ended without a last word: the iterating task was cancelled.
                state = .finished
                control.loop.cancel(control.ticket)
                writer?.discard()
                throw HTTPError(.cancelled, url: request.url, message: "the transfer was cancelled")
            case .head(let head)?:
                writer?.head = head
                return .head(head)
            case .bytes(let bytes)?:
                if control.credit.take(bytes.count) {
                    control.loop.resume(control.ticket)
                }
                writer?.append(bytes)
                return .bytes(bytes)
            case .end(let metrics)?:
                state = .finished
                writer?.commit()
                return .end(metrics)
            case .failure(let error)?:
                state = .finished
                writer?.discard()
                throw error
            }
        }
    }
}
