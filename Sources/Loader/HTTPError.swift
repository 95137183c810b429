/// Why an HTTP (or file) transfer failed.
///
/// An `HTTPError` is a struct around a ``Code`` so that new kinds of failure can be added
/// without breaking callers that match the ones they care about:
///
/// ```swift
/// catch let error where error.code == .httpStatus && error.statusCode == 404 { … }
/// ```
///
/// It carries its context: the URL asked for, the HTTP status when one was received, the
/// libcurl code and message, how many attempts were made, and the metrics of the last
/// attempt (a failed transfer still moved bytes, which the access log counts).
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable, Hashable {
            case dnsFailure = "DNS failure"
            case connectionFailed = "connection failed"
            case connectionLost = "connection lost"
            case tlsFailure = "TLS failure"
            case connectTimeout = "connect timeout"
            case firstByteTimeout = "first-byte timeout"
            case stallTimeout = "stall timeout"
            case totalTimeout = "total timeout"
            case httpStatus = "HTTP status"
            case tooLarge = "too large"
            case tooManyRedirects = "too many redirects"
            case cancelled = "cancelled"
            case invalidURL = "invalid URL"
            case fileUnreadable = "file unreadable"
            case transferFailed = "transfer failed"
        }

        fileprivate let value: Value

        /// The host name did not resolve.
        public static let dnsFailure = Code(value: .dnsFailure)
        /// No connection could be made (refused, unreachable).
        public static let connectionFailed = Code(value: .connectionFailed)
        /// The connection broke during the exchange, or the body ended before its announced
        /// length.
        public static let connectionLost = Code(value: .connectionLost)
        /// The TLS handshake or the certificate check failed.
        public static let tlsFailure = Code(value: .tlsFailure)
        /// ``HTTPLimits/connectTimeout`` passed.
        public static let connectTimeout = Code(value: .connectTimeout)
        /// ``HTTPLimits/firstByteTimeout`` passed before the answer started.
        public static let firstByteTimeout = Code(value: .firstByteTimeout)
        /// ``HTTPLimits/stallTimeout`` passed without a byte.
        public static let stallTimeout = Code(value: .stallTimeout)
        /// ``HTTPLimits/totalTimeout`` passed.
        public static let totalTimeout = Code(value: .totalTimeout)
        /// The server answered with a status of 400 or more; see ``HTTPError/statusCode``.
        public static let httpStatus = Code(value: .httpStatus)
        /// The body is longer than ``HTTPLimits/maximumBodyBytes``.
        public static let tooLarge = Code(value: .tooLarge)
        /// More than ``HTTPLimits/maximumRedirects`` redirects.
        public static let tooManyRedirects = Code(value: .tooManyRedirects)
        /// The task was cancelled, or the client shut down.
        public static let cancelled = Code(value: .cancelled)
        /// The URL is malformed or its scheme is not http, https or file.
        public static let invalidURL = Code(value: .invalidURL)
        /// A `file:` URL names no readable file.
        public static let fileUnreadable = Code(value: .fileUnreadable)
        /// Any other failure reported by libcurl; see ``HTTPError/curlCode``.
        public static let transferFailed = Code(value: .transferFailed)

        /// True for the four timeouts.
        public var isTimeout: Bool {
            switch value {
            case .connectTimeout, .firstByteTimeout, .stallTimeout, .totalTimeout: true
            default: false
            }
        }

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// The URL that was asked for.
    public let url: String
    /// The HTTP status, for ``Code/httpStatus`` (and whatever status was seen otherwise).
    public let statusCode: Int?
    /// The libcurl result code, when libcurl reported the failure.
    public let curlCode: Int32?
    /// What went wrong, in a sentence.
    public let message: String
    /// How many attempts were made, retries included.
    public internal(set) var attempts: Int
    /// The metrics of the last attempt, when it reached libcurl.
    public let metrics: HTTPTransferMetrics?

    /// An error as the client reports it; public so that other targets' tests can build
    /// loader reports without provoking a real failure.
    public init(
        _ code: Code, url: String, message: String, statusCode: Int? = nil, curlCode: Int32? = nil,
        attempts: Int = 1, metrics: HTTPTransferMetrics? = nil
    ) {
        self.code = code
        self.url = url
        self.message = message
        self.statusCode = statusCode
        self.curlCode = curlCode
        self.attempts = attempts
        self.metrics = metrics
    }

    public var description: String {
        let status = statusCode.map { " \($0)" } ?? ""
        let tries = attempts > 1 ? " after \(attempts) attempts" : ""
        return "\(code)\(status) for \(url)\(tries): \(message)"
    }
}
