/// A response status code. libmicrohttpd writes the standard reason phrase for it.
///
/// The constants cover what hlsq answers; any code from 100 to 999 can be built with
/// `HTTPStatus(code:)` (libmicrohttpd refuses other codes, and the connection is then closed
/// without a response).
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int

    public init(code: Int) {
        self.code = code
    }

    public static let ok = HTTPStatus(code: 200)
    public static let created = HTTPStatus(code: 201)
    public static let accepted = HTTPStatus(code: 202)
    public static let noContent = HTTPStatus(code: 204)
    public static let notModified = HTTPStatus(code: 304)
    public static let badRequest = HTTPStatus(code: 400)
    public static let unauthorized = HTTPStatus(code: 401)
    public static let forbidden = HTTPStatus(code: 403)
    public static let notFound = HTTPStatus(code: 404)
    public static let methodNotAllowed = HTTPStatus(code: 405)
    public static let conflict = HTTPStatus(code: 409)
    public static let contentTooLarge = HTTPStatus(code: 413)
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    public static let unprocessableContent = HTTPStatus(code: 422)
    public static let internalServerError = HTTPStatus(code: 500)
    public static let serviceUnavailable = HTTPStatus(code: 503)

    public var description: String { String(code) }
}
