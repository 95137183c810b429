/// The request-target of a request line, split into its path and query, with both decoded.
///
/// Parsing is pure and strict about escapes: `%` must be followed by two hex digits and the
/// decoded bytes must be UTF-8, otherwise the target is rejected with an
/// `HTTPRequestTargetError` (the server answers 400). The raw forms stay available because a
/// decoded path loses information: `/a%2Fb` has one component, `a/b`, while `/a/b` has two.
///
/// - `path` is the raw path, still percent-encoded, always starting with `/` (or `*` for
///   `OPTIONS *`). An absolute-form target (`http://host/path`) keeps only its path.
/// - `pathComponents` are the segments between slashes, each percent-decoded; `+` stays a
///   plus sign. `/` has none; empty segments are kept (`/a//b/` is `a`, ``, `b`, ``).
/// - `query` is the raw text after the first `?` (nil when there is no `?`), and
///   `queryItems` its `&`-separated `name=value` pairs decoded as form data (`+` is a space).
public struct HTTPRequestTarget: Sendable, Equatable {
    /// One `name=value` pair of the query; `value` is empty when the pair has no `=`.
    public struct QueryItem: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public let path: String
    public let pathComponents: [String]
    public let query: String?
    public let queryItems: [QueryItem]

    /// Parses a request-target as it appears in the request line.
    public init(parsing target: String) throws(HTTPRequestTargetError) {
        var text = Substring(target)
        if let hash = text.firstIndex(of: "#") {
            text = text[..<hash]
        }
        let rawQuery: Substring?
        if let question = text.firstIndex(of: "?") {
            rawQuery = text[text.index(after: question)...]
            text = text[..<question]
        } else {
            rawQuery = nil
        }
        let rawPath = try Self.originFormPath(text, target: target)
        path = String(rawPath)

        if rawPath == "*" || rawPath == "/" {
            pathComponents = []
        } else {
            pathComponents = try rawPath.dropFirst()
                .split(separator: "/", omittingEmptySubsequences: false)
                .map { segment throws(HTTPRequestTargetError) in
                    try Self.decode(segment, plusIsSpace: false, target: target)
                }
        }

        query = rawQuery.map(String.init)
        var items: [QueryItem] = []
        for pair in rawQuery?.split(separator: "&") ?? [] {
            let name: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = ""
            }
            items.append(QueryItem(
                name: try Self.decode(name, plusIsSpace: true, target: target),
                value: try Self.decode(value, plusIsSpace: true, target: target)
            ))
        }
        queryItems = items
    }

    /// The first value of the query item `name`, or nil when it is absent.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The path of an origin-form, absolute-form or asterisk-form target.
    private static func originFormPath(
        _ text: Substring, target: String
    ) throws(HTTPRequestTargetError) -> Substring {
        if text == "*" || text.first == "/" {
            return text
        }
        // Absolute form: scheme "://" authority path-abempty.
        guard let colon = text.firstIndex(of: ":"),
              text[colon...].hasPrefix("://"),
              let first = text.first, first.isASCII, first.isLetter,
              text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else {
            throw HTTPRequestTargetError(.notAPath, target: target)
        }
        let afterAuthority = text[text.index(colon, offsetBy: 3)...]
        guard let slash = afterAuthority.firstIndex(of: "/") else { return "/" }
        return afterAuthority[slash...]
    }

    /// Percent-decodes `text` into UTF-8.
    static func decode(
        _ text: Substring, plusIsSpace: Bool, target: String
    ) throws(HTTPRequestTargetError) -> String {
        let utf8 = text.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusIsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            switch byte {
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else {
                    throw HTTPRequestTargetError(.invalidPercentEscape, target: target)
                }
                index = utf8.index(after: index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else {
                    throw HTTPRequestTargetError(.invalidPercentEscape, target: target)
                }
                index = utf8.index(after: index)
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw HTTPRequestTargetError(.invalidUTF8, target: target)
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Why a request-target could not be parsed. The server answers such a request with 400.
public struct HTTPRequestTargetError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the target.
    public struct Code: Hashable, Sendable {
        private enum Kind: Hashable, Sendable {
            case notAPath, invalidPercentEscape, invalidUTF8
        }

        private let kind: Kind

        /// Neither `/path`, `*`, nor `scheme://authority/path`.
        public static let notAPath = Code(kind: .notAPath)
        /// A `%` not followed by two hexadecimal digits.
        public static let invalidPercentEscape = Code(kind: .invalidPercentEscape)
        /// Escapes that decode to bytes which are not UTF-8.
        public static let invalidUTF8 = Code(kind: .invalidUTF8)

        fileprivate var reason: String {
            switch kind {
            case .notAPath: "is not a path"
            case .invalidPercentEscape: "has a % not followed by two hexadecimal digits"
            case .invalidUTF8: "decodes to bytes that are not UTF-8"
            }
        }
    }

    public let code: Code
    /// The target as the client sent it.
    public let target: String

    init(_ code: Code, target: String) {
        self.code = code
        self.target = target
    }

    public var description: String {
        "the request target \(target.debugDescription) \(code.reason)"
    }
}
