import MicroHTTPD

/// An error answer of the API: `{"error": {"code", "message", …extra}}` with its status.
///
/// Every refusal the Server gives goes through this type, so that every error body has the
/// same shape and every code is one of the contract's (docs/API.md lists them):
/// `badRequest` 400, `unauthorized` 401, `forbiddenOrigin` 403, `notFound` 404,
/// `methodNotAllowed` 405, `cannotInsert` and `commandRefused` 409, `contentTooLarge` 413,
/// `unsupportedMediaType` 415, `validationFailed` 422, `rangeNotSatisfiable` 416,
/// `storageFailed` 500, `unavailable` 503.
public struct APIError: Error, Sendable, CustomStringConvertible {
    public let status: HTTPStatus
    public let code: String
    public let message: String
    /// `reason` of a 409.
    public var reason: String?
    /// `field` of a 422.
    public var field: String?
    /// The parser's diagnostics, for a playlist that could not be imported (written even
    /// when empty).
    var diagnostics: [DiagnosticRecord]?
    /// Header fields the answer carries (`Allow` for 405, `WWW-Authenticate` for 401).
    var headers: HTTPHeaders = HTTPHeaders()

    public init(status: HTTPStatus, code: String, message: String, reason: String? = nil, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason
        self.field = field
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    // MARK: - The contract's errors

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "badRequest", message: message)
    }

    static func unauthorized() -> APIError {
        var error = APIError(
            status: .unauthorized, code: "unauthorized",
            message: "this server requires the header Authorization: Bearer <token>")
        error.headers.set(name: "WWW-Authenticate", value: "Bearer realm=\"hlsq\"")
        return error
    }

    static func forbiddenOrigin(_ origin: String) -> APIError {
        APIError(
            status: .forbidden, code: "forbiddenOrigin",
            message: "requests from the origin \(origin) may not change anything on this server")
    }

    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, code: "notFound", message: message)
    }

    static func methodNotAllowed(_ method: HTTPMethod, allowed: [HTTPMethod]) -> APIError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        var error = APIError(
            status: .methodNotAllowed, code: "methodNotAllowed",
            message: "\(method.rawValue) is not allowed here; use \(list)")
        error.headers.set(name: "Allow", value: list)
        return error
    }

    static func unsupportedMediaType(_ given: String?, expected: String) -> APIError {
        APIError(
            status: .unsupportedMediaType, code: "unsupportedMediaType",
            message: "the body must be \(expected), not \(given.map { "\($0)" } ?? "a body without Content-Type")")
    }

    static func validationFailed(field: String, _ message: String) -> APIError {
        APIError(status: .unprocessableContent, code: "validationFailed", message: message, field: field)
    }

    static func unavailable() -> APIError {
        APIError(status: .serviceUnavailable, code: "unavailable", message: "the server is shutting down")
    }

    // MARK: - The answer

    /// The JSON error body.
    var body: [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("error")
        json.beginObject()
        json.member("code", code)
        json.member("message", message)
        if let reason { json.member("reason", reason) }
        if let field { json.member("field", field) }
        if let diagnostics {
            json.key("diagnostics")
            json.beginArray()
            for diagnostic in diagnostics { diagnostic.write(to: &json) }
            json.endArray()
        }
        json.endObject()
        json.endObject()
        return json.bytes
    }

    var response: HTTPResponse {
        var headers = headers
        headers.set(name: "Content-Type", value: JSONBody.contentType)
        headers.set(name: "Cache-Control", value: "no-store")
        return HTTPResponse(status: status, headers: headers, bytes: body)
    }
}
