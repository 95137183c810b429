/// The URL a playlist was read from, against which its relative URIs resolve (RFC 3986 §5.2).
///
/// A playlist's segments share one instance, so each holds a reference, not a copy; a
/// segment's `url` is resolved when asked for. The base may be an absolute URL
/// (`https://host/path/index.m3u8`) or a file path (`playlists/vod/index.m3u8`); a path
/// resolves like a URL without scheme and authority.
final class BaseURL: Sendable, Hashable {
    let text: String
    /// `scheme://authority`, or empty for a path.
    private let origin: String
    /// The base's path up to and including its last `/`, prefixed by ``origin``.
    private let directory: String
    /// The base without its fragment.
    private let withoutFragment: String
    private let withoutQuery: String

    init(_ text: String) {
        self.text = text
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        self.withoutFragment = String(withoutFragment)
        let withoutQuery = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        self.withoutQuery = String(withoutQuery)
        var origin = ""
        var path = Substring(withoutQuery)
        if let schemeEnd = BaseURL.schemeLength(of: path) {
            let afterScheme = path.index(path.startIndex, offsetBy: schemeEnd + 1)
            if path[afterScheme...].hasPrefix("//") {
                let authorityStart = path.index(afterScheme, offsetBy: 2)
                let authorityEnd = path[authorityStart...].firstIndex(of: "/") ?? path.endIndex
                origin = String(path[..<authorityEnd])
                path = path[authorityEnd...]
            } else {
                origin = String(path[..<afterScheme])
                path = path[afterScheme...]
            }
        }
        self.origin = origin
        if let slash = path.lastIndex(of: "/") {
            directory = origin + path[...slash]
        } else {
            directory = origin.isEmpty ? "" : origin + "/"
        }
    }

    static func == (lhs: BaseURL, rhs: BaseURL) -> Bool { lhs === rhs || lhs.text == rhs.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// `reference` resolved against `base`, or `reference` itself without a base.
    static func resolve(_ reference: String, against base: BaseURL?) -> String {
        guard let base else { return reference }
        return base.resolve(reference)
    }

    /// The absolute form of `reference`.
    func resolve(_ reference: String) -> String {
        let utf8 = reference.utf8
        guard let first = utf8.first else { return withoutFragment }
        if BaseURL.schemeLength(of: Substring(reference)) != nil {
            return BaseURL.removingDotSegments(reference)
        }
        switch first {
        case UInt8(ascii: "/"):
            if utf8.starts(with: "//".utf8) {
                let scheme = origin.split(separator: ":", maxSplits: 1).first.map { $0 + ":" } ?? ""
                return scheme + BaseURL.removingDotSegments(reference)
            }
            return origin + BaseURL.removingDotSegments(reference)
        case UInt8(ascii: "?"):
            return withoutQuery + reference
        case UInt8(ascii: "#"):
            return withoutFragment + reference
        default:
            let merged = directory + reference
            return BaseURL.hasDotSegments(reference) ? BaseURL.removingDotSegments(merged) : merged
        }
    }

    /// The length of a leading `scheme` (before `:`), or nil when there is none. A one-letter
    /// scheme is taken for a Windows drive (`C:\…`) and so not a scheme.
    static func schemeLength(of text: Substring) -> Int? {
        var length = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") { return length > 1 ? length : nil }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (length > 0 && isOther) else { return nil }
            length += 1
        }
        return nil
    }

    /// Whether a path holds a `.` or `..` segment, which the fast path cannot keep.
    static func hasDotSegments(_ reference: String) -> Bool {
        var previous = UInt8(ascii: "/")
        for byte in reference.utf8 {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return false }
            if byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/") { return true }
            previous = byte
        }
        return false
    }

    /// RFC 3986 §5.2.4 on the path of `url`; scheme, authority, query and fragment are kept.
    static func removingDotSegments(_ url: String) -> String {
        var text = Substring(url)
        var prefix = ""
        if let schemeEnd = schemeLength(of: text) {
            let afterScheme = text.index(text.startIndex, offsetBy: schemeEnd + 1)
            prefix = String(text[..<afterScheme])
            text = text[afterScheme...]
        }
        if text.hasPrefix("//") {
            let authorityStart = text.index(text.startIndex, offsetBy: 2)
            let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
            prefix += text[..<authorityEnd]
            text = text[authorityEnd...]
        }
        let suffixStart = text.firstIndex { $0 == "?" || $0 == "#" } ?? text.endIndex
        let suffix = text[suffixStart...]
        let path = text[..<suffixStart]
        guard hasDotSegments(String(path)) else { return url }
        let isAbsolute = path.hasPrefix("/")
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if index == 0 && isAbsolute { continue }
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return prefix + (isAbsolute ? "/" : "") + output.joined(separator: "/") + suffix
    }

    /// The percent-decoded value of query parameter `name`, or nil.
    func queryParameter(_ name: String) -> String? {
        guard let query = withoutFragment.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard BaseURL.percentDecoded(parts[0]) == name else { continue }
            return parts.count > 1 ? BaseURL.percentDecoded(parts[1]) : ""
        }
        return nil
    }

    static func percentDecoded(_ text: Substring) -> String {
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.count,
               let high = hex(input[index + 1]), let low = hex(input[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
