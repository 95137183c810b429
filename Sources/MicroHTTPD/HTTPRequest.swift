/// A complete HTTP request as a handler sees it: line, headers and the whole body.
///
/// The server builds it once the body has been received in full (bodies larger than the
/// configured maximum never reach a handler: the server answers 413 itself). It is a value:
/// handlers may keep it, pass it to other tasks, or compare it in tests.
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    /// The path and query, parsed and decoded; see `HTTPRequestTarget`.
    public var target: HTTPRequestTarget
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The client's address, when the socket reports one.
    public var remoteAddress: SocketAddress?

    public init(
        method: HTTPMethod,
        target: HTTPRequestTarget,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: SocketAddress? = nil
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The raw path, still percent-encoded.
    public var path: String { target.path }
    /// The decoded path segments.
    public var pathComponents: [String] { target.pathComponents }
    /// The raw query after `?`, or nil.
    public var query: String? { target.query }
    /// The decoded query items, in order.
    public var queryItems: [HTTPRequestTarget.QueryItem] { target.queryItems }
}

/// A numeric IP address and port, as text (`127.0.0.1`, `::1`).
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
