/// One GET request for the ``HTTPClient``: a URL, an optional byte range, limits and whether
/// the answer may come from (and go to) the on-disk cache.
///
/// The URL scheme is `http`, `https` or `file`; redirects may only lead to `http` or `https`.
public struct HTTPRequest: Sendable, Hashable {
    /// The absolute URL to fetch.
    public var url: String
    /// Only these bytes of the resource (an HLS `EXT-X-BYTERANGE`, or the rest of a file
    /// when a download resumes). nil asks for the whole resource.
    public var byteRange: ByteRange?
    /// The limits of this request; nil uses the client's ``HTTPClient/Configuration/limits``.
    public var limits: HTTPLimits?
    /// Whether the client's cache may answer this request and keep its answer. Only
    /// immutable resources are cacheable: media files and segments, never a live playlist.
    public var isCacheable: Bool

    public init(url: String, byteRange: ByteRange? = nil, limits: HTTPLimits? = nil, isCacheable: Bool = false) {
        self.url = url
        self.byteRange = byteRange
        self.limits = limits
        self.isCacheable = isCacheable
    }
}

/// A span of bytes in a resource: `length` bytes from `offset`, or every byte from `offset`
/// when `length` is nil. HLS writes it `length@offset`.
public struct ByteRange: Sendable, Hashable, CustomStringConvertible {
    public var offset: Int64
    public var length: Int64?

    /// A range with a non-negative offset and, when given, a positive length.
    public init?(offset: Int64, length: Int64? = nil) {
        guard offset >= 0, length.map({ $0 > 0 }) ?? true else { return nil }
        self.offset = offset
        self.length = length
    }

    /// The last byte's offset, when the range has an end.
    public var lastOffset: Int64? {
        length.map { offset + $0 - 1 }
    }

    /// The value of an HTTP `Range: bytes=` header (and of `CURLOPT_RANGE`): `first-last`
    /// or `first-`.
    public var httpValue: String {
        "\(offset)-" + (lastOffset.map(String.init) ?? "")
    }

    public var description: String {
        length.map { "\($0)@\(offset)" } ?? "\(offset)-"
    }
}

/// The limits that end a transfer with an error. A nil limit is not enforced.
///
/// - `connectTimeout` covers name resolution, TCP and TLS set-up (libcurl enforces it);
/// - `firstByteTimeout` runs from the start until the first response header arrives;
/// - `stallTimeout` is the longest silence allowed once the answer has started;
/// - `totalTimeout` covers the whole transfer, redirects included;
/// - `maximumBodyBytes` bounds the decoded body, checked against `Content-Length` up front
///   and against the bytes received as they arrive (a compressed or chunked body has no
///   length up front);
/// - `maximumRedirects` bounds the redirects followed.
public struct HTTPLimits: Sendable, Hashable {
    public var connectTimeout: Duration?
    public var firstByteTimeout: Duration?
    public var stallTimeout: Duration?
    public var totalTimeout: Duration?
    public var maximumBodyBytes: Int64?
    public var maximumRedirects: Int

    public init(
        connectTimeout: Duration? = .seconds(10),
        firstByteTimeout: Duration? = .seconds(20),
        stallTimeout: Duration? = .seconds(20),
        totalTimeout: Duration? = .seconds(120),
        maximumBodyBytes: Int64? = 256 << 20,
        maximumRedirects: Int = 5
    ) {
        self.connectTimeout = connectTimeout
        self.firstByteTimeout = firstByteTimeout
        self.stallTimeout = stallTimeout
        self.totalTimeout = totalTimeout
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumRedirects = maximumRedirects
    }
}
