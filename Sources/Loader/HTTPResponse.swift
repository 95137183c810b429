/// A complete answer from ``HTTPClient/fetch(_:retry:)``: the final response's status and
/// headers, the decoded body, and the metrics of the transfer that produced it.
public struct HTTPResponse: Sendable {
    public let head: HTTPResponseHead
    /// The body after content decoding (gzip), limited to the requested byte range.
    public let body: [UInt8]
    public let metrics: HTTPTransferMetrics
    /// How many attempts it took, the successful one included.
    public let attempts: Int
}

/// The status line and headers of the final response (after redirects).
///
/// For a `file:` URL there is no status (``statusCode`` is nil) and no header but the
/// lengths libcurl knows.
public struct HTTPResponseHead: Sendable, Hashable {
    /// The HTTP status, or nil for `file:` URLs.
    public let statusCode: Int?
    /// The header fields in the order received; names as sent.
    public let headers: [HTTPHeaderField]
    /// How many body bytes to expect after decoding, when known: nil when the body is
    /// compressed or chunked.
    public let expectedBodyBytes: Int64?
    /// The length of the whole resource, when known: from `Content-Range` for a partial
    /// answer, from the body length otherwise.
    public let completeLength: Int64?

    /// The value of the first header named `name`, compared without regard to case.
    public subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }
}

/// One response header field.
public struct HTTPHeaderField: Sendable, Hashable {
    public let name: String
    public let value: String
}

/// What one transfer measured. Durations run from the start of the transfer.
public struct HTTPTransferMetrics: Sendable, Hashable {
    /// The URL asked for.
    public let url: String
    /// The URL finally fetched, after redirects.
    public let effectiveURL: String
    /// The HTTP status of the final response; nil for `file:` URLs and cache hits of them.
    public let statusCode: Int?
    /// Decoded body bytes delivered to the caller.
    public let bodyBytes: Int64
    /// Bytes received on the wire for the body, before decoding (libcurl's download size).
    public let wireBytes: Int64
    /// Until the first byte of the answer; nil when none arrived.
    public let timeToFirstByte: Duration?
    /// The whole transfer.
    public let totalTime: Duration
    /// The server's address as `ip:port`, when a connection was made.
    public let serverAddress: String?
    /// Redirects followed.
    public let redirectCount: Int
    /// True when the on-disk cache answered and nothing went over the network.
    public let isCacheHit: Bool

    /// Body bits per second of transfer time; nil when the transfer took no measurable time.
    public var observedBitrate: Double? {
        totalTime > .zero ? Double(bodyBytes) * 8 / totalTime.inSeconds : nil
    }
}
