/// Answers requests. The server calls `respond(to:)` in a Swift task of its own for each
/// request, never on libmicrohttpd's threads, so a handler may `await` freely (an actor such
/// as the Engine, a database): a slow handler holds only its own connection.
///
/// A handler runs concurrently with others and must not assume an order between requests,
/// except that requests on one keep-alive connection are answered one after the other.
/// When the server stops, the tasks of handlers still running are cancelled and awaited.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
}

/// A handler written as a closure.
struct ClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) async -> HTTPResponse

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await body(request)
    }
}
