import MicroHTTPD

/// JSON answers: the content type, and a response around written bytes.
enum JSONBody {
    static let contentType = "application/json; charset=utf-8"

    /// A JSON answer that no cache may keep: API state changes at any moment.
    static func response(_ bytes: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set(name: "Content-Type", value: contentType)
        headers.set(name: "Cache-Control", value: "no-store")
        return HTTPResponse(status: status, headers: headers, bytes: bytes)
    }

    /// A JSON answer written by `write`.
    static func response(
        status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), capacity: Int = 256,
        _ write: (inout JSONWriter) -> Void
    ) -> HTTPResponse {
        var json = JSONWriter(reservingCapacity: capacity)
        write(&json)
        return response(json.bytes, status: status, headers: headers)
    }
}

/// One diagnostic of the playlist parser as the API writes it:
/// `{line, column, rule, severity, message}`.
struct DiagnosticRecord: Sendable, Equatable {
    var line: Int
    var column: Int
    var rule: String
    /// `error`, `warning` or `info`.
    var severity: String
    var message: String

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.member("line", line)
        json.member("column", column)
        json.member("rule", rule)
        json.member("severity", severity)
        json.member("message", message)
        json.endObject()
    }
}
