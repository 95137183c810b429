import Foundation

/// Downloads over HTTP, HTTPS and from `file:` URLs with libcurl.
///
/// Each client owns one libcurl multi handle driven by one loop thread (see ``CurlLoop``),
/// which runs up to ``Configuration/maximumConcurrentTransfers`` transfers at once and
/// reuses connections between them. Callers never see that thread: they `await`
/// ``fetch(_:retry:)`` for a whole body, or iterate ``stream(_:)`` for the bytes as they
/// arrive.
///
/// Semantics:
/// - Every request sends `User-Agent: hlsq/<version>` (configurable) and accepts gzip and
///   deflate; bodies are decoded before they reach the caller.
/// - Statuses of 400 and more are errors (``HTTPError/Code/httpStatus``); redirects are
///   followed up to the request's limit, to http and https only.
/// - Cancelling the calling task cancels the transfer: the connection is closed and the
///   call throws ``HTTPError/Code/cancelled``.
/// - A cacheable request (``HTTPRequest/isCacheable``) is answered from the
///   ``Configuration/cache`` when it holds the same URL and byte range, and a complete 2xx
///   answer is stored there; ``HTTPTransferMetrics/isCacheHit`` tells which happened.
/// - Deinitializing the client stops its loop; transfers still running fail as cancelled.
///   A running `fetch` or stream keeps its client alive.
public final class HTTPClient: Sendable {
    /// Settings shared by every request of a client.
    public struct Configuration: Sendable {
        /// Sent as the User-Agent header.
        public var userAgent: String
        /// Limits for requests that do not bring their own.
        public var limits: HTTPLimits
        /// Transfers running at once; later ones wait their turn.
        public var maximumConcurrentTransfers: Int
        /// Where cacheable answers are kept, if anywhere.
        public var cache: HTTPCache?

        public init(
            userAgent: String = "hlsq/\(HLSQVersion.current)",
            limits: HTTPLimits = HTTPLimits(),
            maximumConcurrentTransfers: Int = 16,
            cache: HTTPCache? = nil
        ) {
            self.userAgent = userAgent
            self.limits = limits
            self.maximumConcurrentTransfers = maximumConcurrentTransfers
            self.cache = cache
        }
    }

    public let configuration: Configuration
    private let loop: CurlLoop

    /// Starts a client and its loop thread. Throws only when libcurl cannot allocate a multi
    /// handle.
    public init(configuration: Configuration = Configuration()) throws(HTTPError) {
        guard let loop = CurlLoop(maximumConcurrentTransfers: configuration.maximumConcurrentTransfers) else {
            throw HTTPError(.transferFailed, url: "", message: "libcurl could not create a multi handle")
        }
        self.configuration = configuration
        self.loop = loop
    }

    deinit {
        loop.stop()
    }

    /// Fetches the whole body of `request`, retrying by `retry` after transient failures.
    public func fetch(_ request: HTTPRequest, retry: RetryPolicy = .never) async throws(HTTPError) -> HTTPResponse {
        if let cached = cachedResponse(for: request) {
            return cached
        }
        var random = SystemRandomNumberGenerator()
        var attempt = 0
        while true {
            attempt += 1
            switch await transfer(request) {
            case .success(let completed):
                store(completed, for: request)
                return HTTPResponse(head: completed.head, body: completed.body, metrics: completed.metrics, attempts: attempt)
            case .failure(var error):
                error.attempts = attempt
                let decision = retry.decision(
                    afterAttempt: attempt, failedWith: error.code, statusCode: error.statusCode, random: &random
                )
                guard case .retry(let delay) = decision else { throw error }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw HTTPError(.cancelled, url: request.url, message: "cancelled while waiting to retry", attempts: attempt)
                }
            }
        }
    }

    /// Streams `request`: its head, then its body in pieces as they arrive, then its
    /// metrics. The transfer starts at once; dropping or cancelling the iteration cancels
    /// it. Streams do not retry: a progressive download resumes with a byte range instead.
    public func stream(_ request: HTTPRequest) -> HTTPByteStream {
        if let cache = configuration.cache, request.isCacheable, let entry = cache.entry(for: request) {
            return HTTPByteStream(cachedEntry: entry, request: request, cache: cache)
        }
        let ticket = loop.makeTicket()
        let credit = StreamCredit()
        let (signals, continuation) = AsyncStream<StreamSignal>.makeStream()
        continuation.onTermination = { [loop] termination in
            if case .cancelled = termination { loop.cancel(ticket) }
        }
        loop.submit(submission(request, ticket: ticket, delivery: .streaming(continuation, credit)))
        let control = HTTPByteStream.Control(loop: loop, ticket: ticket, credit: credit)
        let writer = request.isCacheable ? configuration.cache?.makeWriter(for: request) : nil
        return HTTPByteStream(signals: signals, control: control, cacheWriter: writer, request: request)
    }

    private func transfer(_ request: HTTPRequest) async -> Result<CompletedTransfer, HTTPError> {
        let ticket = loop.makeTicket()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.submit(submission(request, ticket: ticket, delivery: .buffered(continuation)))
            }
        } onCancel: { [loop] in
            loop.cancel(ticket)
        }
    }

    private func submission(_ request: HTTPRequest, ticket: TransferTicket, delivery: TransferDelivery) -> TransferSubmission {
        TransferSubmission(
            ticket: ticket,
            request: request,
            limits: request.limits ?? configuration.limits,
            userAgent: configuration.userAgent,
            delivery: delivery
        )
    }

    private func cachedResponse(for request: HTTPRequest) -> HTTPResponse? {
        guard request.isCacheable, let cache = configuration.cache else { return nil }
        let started = ContinuousClock.now
        guard let entry = cache.entry(for: request), let body = cache.body(of: entry) else { return nil }
        let metrics = entry.metrics(for: request, bodyBytes: Int64(body.count), totalTime: ContinuousClock.now - started)
        return HTTPResponse(head: entry.head, body: body, metrics: metrics, attempts: 1)
    }

    private func store(_ completed: CompletedTransfer, for request: HTTPRequest) {
        guard request.isCacheable, let cache = configuration.cache else { return }
        cache.store(completed.body, head: completed.head, for: request)
    }
}
