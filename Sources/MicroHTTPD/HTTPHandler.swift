/// Answers requests. The server calls `respond(to:)` in a Swift task of its own for each
/// request, never on libmicrohttpd's threads, so a handler may `await` freely (an actor such
/// as the Engine, a database): a slow handler holds only its own connection.
///
/// A handler runs concurrently with others and must not assume an order between requests,
/// except that requests on one keep-alive connection are answered one after the other.
/// When the server stops, the tasks of handlers still running are cancelled and awaited.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// A response the handler can give at once, or nil to have `respond(to:)` called as
    /// usual. The server asks this first, on one of libmicrohttpd's threads, and sends a
    /// non-nil answer right away: no task, no suspension of the connection. It is for answers
    /// that are a lookup (a cached document, best as ``SharedBytes``), so it must return quickly, never block or wait
    /// for an actor, and touch only state that is safe to read from any thread. A streaming
    /// answer is not allowed here (it is ignored, and `respond(to:)` is called).
    func immediateResponse(to request: HTTPRequest) -> HTTPResponse?
}

extension HTTPHandler {
    /// No immediate answers: every request goes to `respond(to:)`.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        nil
    }
}

/// A handler written as a closure.
struct ClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) async -> HTTPResponse

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await body(request)
    }
}
