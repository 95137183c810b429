import MicroHTTPD

/// Who may use the API: the bearer token (`--token`) and the same-origin rule for changes.
///
/// - **Token.** When the server has a token, every request under `/api/` except
///   `GET /api/health` must carry `Authorization: Bearer <token>`, or 401. `GET /api/events`
///   may pass it as `?token=` instead, because a browser's `EventSource` cannot set headers.
///   Tokens are compared in constant time.
/// - **Origin.** A request that can change something (any method but GET, HEAD and OPTIONS)
///   and carries an `Origin` header must come from the server's own origin, which is
///   `http://` followed by the request's `Host` header; otherwise 403. A request without
///   `Origin` (curl, scripts) is not a cross-site browser request and passes. This stops
///   another web page from driving the server through the visitor's browser even when no
///   token is set.
struct AccessPolicy: Sendable {
    /// The bearer token required on the API; nil when the API is open.
    let token: String?

    /// A 401 when the request needs the token and does not carry it.
    func authorize(_ request: HTTPRequest, isEventStream: Bool) -> APIError? {
        guard let token else { return nil }
        var presented: String?
        if let authorization = request.headers["Authorization"] {
            let parts = authorization.trimmingWhitespace().split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                presented = parts[1].trimmingWhitespace()
            }
        }
        if presented == nil, isEventStream {
            presented = request.target.queryValue("token")
        }
        guard let presented, Self.constantTimeEquals(presented, token) else { return .unauthorized() }
        return nil
    }

    /// A 403 when a request that can change something comes from a foreign origin.
    static func checkOrigin(_ request: HTTPRequest) -> APIError? {
        guard ![HTTPMethod.get, .head, .options].contains(request.method),
              let origin = request.headers["Origin"]
        else { return nil }
        guard let host = request.headers["Host"], origin == "http://" + host else {
            return .forbiddenOrigin(origin)
        }
        return nil
    }

    /// Compares without an early exit, so the time taken does not tell how much matched.
    static func constantTimeEquals(_ first: String, _ second: String) -> Bool {
        let a = Array(first.utf8)
        let b = Array(second.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
