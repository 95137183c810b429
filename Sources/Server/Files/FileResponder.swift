import MicroHTTPD

/// Answers GET and HEAD for the files under one root folder: the dashboard (`--public`) or
/// the sample media (`/media/`).
///
/// - Paths go through ``ContainedPath``: nothing outside the root is ever read.
/// - Every answer has the file's `Content-Type` (``MediaType``), a strong `ETag`, a
///   `Cache-Control` chosen by ``CachePolicy``, and `X-Content-Type-Options: nosniff`.
/// - `If-None-Match` with a matching tag (or `*`) answers 304 without a body.
/// - With ranges allowed, a single `Range: bytes=…` answers 206 with `Content-Range`, or 416
///   when no byte of it exists; several ranges, or a malformed header, get the whole file
///   (RFC 9110 lets a server ignore a range it does not support). An `If-Range` that does not
///   match the current tag also gets the whole file.
struct FileResponder: Sendable {
    /// How long clients may keep what this responder serves.
    enum CachePolicy: Sendable {
        /// Always revalidate (the tag makes that a cheap 304): files that change without
        /// their names changing, as the dashboard's modules do with no build step.
        case revalidate
        /// Media: segments and files may be kept for an hour, playlists must be revalidated.
        case media

        func value(for path: String) -> String {
            switch self {
            case .revalidate:
                "no-cache"
            case .media:
                path.lowercased().hasSuffix(".m3u8") || path.lowercased().hasSuffix(".m3u")
                    ? "no-cache" : "public, max-age=3600"
            }
        }
    }

    let files: ContainedPath
    let cachePolicy: CachePolicy
    let allowsRanges: Bool

    /// The answer for the file the components name, or nil when there is no such file.
    func respond(to request: HTTPRequest, components: some Collection<String>) -> HTTPResponse? {
        guard let path = files.resolve(components), let file = FileSnapshot.read(path) else { return nil }
        var headers: HTTPHeaders = [
            "Content-Type": MediaType.forPath(path),
            "ETag": file.entityTag,
            "Cache-Control": cachePolicy.value(for: path),
            "X-Content-Type-Options": "nosniff",
        ]
        if allowsRanges { headers.set(name: "Accept-Ranges", value: "bytes") }

        if let condition = request.headers["If-None-Match"], Self.matches(condition, file.entityTag) {
            headers.remove(name: "Content-Type")
            return HTTPResponse(status: .notModified, headers: headers)
        }
        guard allowsRanges, let rangeHeader = request.headers["Range"],
              request.headers["If-Range"].map({ $0 == file.entityTag }) ?? true
        else {
            return HTTPResponse(status: .ok, headers: headers, bytes: file.bytes)
        }
        switch ByteRangeRequest.parse(rangeHeader, size: file.bytes.count) {
        case .whole:
            return HTTPResponse(status: .ok, headers: headers, bytes: file.bytes)
        case .range(let range):
            headers.set(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound)/\(file.bytes.count)")
            return HTTPResponse(status: HTTPStatus(code: 206), headers: headers, bytes: Array(file.bytes[range]))
        case .unsatisfiable:
            var error = APIError(
                status: HTTPStatus(code: 416), code: "rangeNotSatisfiable",
                message: "the range \(rangeHeader) is outside the \(file.bytes.count) bytes of the file")
            error.headers.set(name: "Content-Range", value: "bytes */\(file.bytes.count)")
            error.headers.set(name: "Accept-Ranges", value: "bytes")
            return error.response
        }
    }

    /// Whether an `If-None-Match` value names `tag`: `*`, or a comma-separated list of tags
    /// compared weakly (a `W/` prefix is ignored, as RFC 9110 asks for this header).
    static func matches(_ condition: String, _ tag: String) -> Bool {
        let trimmed = condition.trimmingWhitespace()
        if trimmed == "*" { return true }
        return trimmed.split(separator: ",").contains { candidate in
            var candidate = Substring(candidate.trimmingWhitespace())
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            return candidate == tag
        }
    }
}

/// What a `Range` header asks of a file of known size.
enum ByteRangeRequest: Equatable {
    /// Send the whole file: no usable range (absent, malformed, several, another unit).
    case whole
    /// These bytes, within the file.
    case range(ClosedRange<Int>)
    /// A well-formed single range with no byte in the file: 416.
    case unsatisfiable

    /// Parses `bytes=first-last`, `bytes=first-` or `bytes=-suffixLength`.
    static func parse(_ header: String, size: Int) -> ByteRangeRequest {
        let value = header.trimmingWhitespace()
        guard value.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = value.dropFirst("bytes=".count).trimmingWhitespace()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return Int(text) ?? Int.max
        }
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .range(max(0, size - suffix)...(size - 1))
        }
        guard let first = number(firstText) else { return .whole }
        let last: Int
        if lastText.isEmpty {
            last = size - 1
        } else {
            guard let given = number(lastText), given >= first else { return .whole }
            last = min(given, size - 1)
        }
        guard first < size else { return .unsatisfiable }
        return .range(first...last)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
