/// What a handler answers: a status, header fields and a body.
///
/// The body is either bytes known up front (sent with `Content-Length`; ``SharedBytes`` send
/// a cached document without copying it) or a
/// `StreamingBody` that a producer keeps writing to (sent with chunked transfer encoding,
/// for server-sent events). libmicrohttpd adds `Date`, `Content-Length` or
/// `Transfer-Encoding`, and `Connection` itself; a handler should not set those.
public struct HTTPResponse: Sendable {
    /// The bytes of a response.
    public enum Body: Sendable {
        /// A complete body.
        case bytes([UInt8])
        /// A complete body shared with other responses, sent without a copy.
        case shared(SharedBytes)
        /// A body produced over time; see `StreamingBody`.
        case stream(StreamingBody)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a complete body.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), bytes: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }

    /// Whether the body is a stream.
    var isStreaming: Bool {
        if case .stream = body { return true }
        return false
    }

    /// The error answer the server gives by itself (413, 400 for a bad target), in the
    /// project's JSON error shape: `{"error": {"code": "...", "message": "..."}}`.
    static func jsonError(_ status: HTTPStatus, code: String, message: String) -> HTTPResponse {
        let json = #"{"error":{"code":"\#(jsonEscaped(code))","message":"\#(jsonEscaped(message))"}}"#
        return HTTPResponse(
            status: status,
            headers: ["Content-Type": "application/json; charset=utf-8"],
            bytes: Array(json.utf8)
        )
    }

    private static func jsonEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
