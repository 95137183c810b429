/// Why a request body is not JSON: where (line and column, from 1) and what was expected.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String { "malformed JSON at line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser for request bodies.
///
/// It takes exactly one value with optional surrounding whitespace, accepts no comments,
/// trailing commas, single quotes or non-finite numbers, requires strings to be valid
/// UTF-8 with valid escapes (lone surrogates are refused), and nests at most
/// ``maximumDepth`` arrays and objects, so that a hostile body cannot exhaust the stack.
/// It is pure and total: any input gives a value or a `JSONParseError`.
public struct JSONParser {
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a whole document.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        // A UTF-8 byte order mark is tolerated (RFC 8259, section 8.1).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.offset = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// Parses `text`.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard let byte = peek() else { throw error("expected a value, found the end of the body") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        offset += 1
        var object = JSONObject()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let nameStart = offset
            let name = try parseString()
            if object.contains(name) {
                offset = nameStart
                throw error("the member \"\(name)\" occurs twice")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            offset += 1
            skipWhitespace()
            object.append(name, try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                depth -= 1
                return .object(object)
            default:
                throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                depth -= 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("arrays and objects nest deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        let expected = literal.utf8
        guard bytes.count - offset >= expected.count,
              bytes[offset..<offset + expected.count].elementsEqual(expected)
        else { throw error("expected a value") }
        offset += expected.count
    }

    // MARK: - Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, converted to the nearest `Double`.
    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit") }
        offset += 1
        if first != UInt8(ascii: "0") {
            while let byte = peek(), isDigit(byte) { offset += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit after the decimal point") }
            while let byte = peek(), isDigit(byte) { offset += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { offset += 1 }
        }
        // The grammar is checked above, so Swift's correctly rounded conversion sees only
        // JSON numbers (never "inf", "nan" or hexadecimal).
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw error("the number is too large")
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        offset += 1
        var decoded: [UInt8] = []
        var runStart = offset
        while true {
            guard let byte = peek() else { throw error("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                decoded.append(contentsOf: bytes[runStart..<offset])
                offset += 1
                guard let string = String(validating: decoded, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: bytes[runStart..<offset])
                offset += 1
                try parseEscape(into: &decoded)
                runStart = offset
            case 0..<0x20:
                throw error("a control character must be escaped in a string")
            default:
                offset += 1
            }
        }
    }

    private mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        guard let byte = peek() else { throw error("a string is not closed") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): decoded.append(byte)
        case UInt8(ascii: "\\"): decoded.append(byte)
        case UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHexQuad())
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw error("a high surrogate escape must be followed by a low one")
                }
                offset += 2
                let low = UInt32(try parseHexQuad())
                guard (0xDC00...0xDFFF).contains(low) else { throw error("a high surrogate escape must be followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a low surrogate escape without a high one")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
            decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            offset -= 1
            throw error("an invalid escape sequence")
        }
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
        guard bytes.count - offset >= 4 else { throw error("\\u needs four hexadecimal digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u needs four hexadecimal digits")
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }

    // MARK: - Helpers

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    /// An error at the current offset, with its line and column (columns count bytes).
    private func error(_ message: String) -> JSONParseError {
        let end = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONParseError(line: line, column: end - lineStart + 1, message: message)
    }
}
