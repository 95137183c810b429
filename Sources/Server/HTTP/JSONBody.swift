import MicroHTTPD

/// JSON answers: the content type, and a response around written bytes.
enum JSONBody {
    static let contentType = "application/json; charset=utf-8"

    /// The header fields of every JSON answer: no cache may keep one, since API state
    /// changes at any moment. Built once: this is the hot path of `GET /api/queues/{id}`.
    static let headers: HTTPHeaders = ["Content-Type": contentType, "Cache-Control": "no-store"]

    /// A JSON answer, with `extra` header fields after the common ones.
    static func response(_ bytes: [UInt8], status: HTTPStatus = .ok, headers extra: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        for field in extra { headers.add(name: field.name, value: field.value) }
        return HTTPResponse(status: status, headers: headers, bytes: bytes)
    }

    /// A JSON answer whose body is shared with other answers (a cached snapshot).
    static func response(shared: SharedBytes, status: HTTPStatus = .ok, headers extra: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        for field in extra { headers.add(name: field.name, value: field.value) }
        return HTTPResponse(status: status, headers: headers, body: .shared(shared))
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
