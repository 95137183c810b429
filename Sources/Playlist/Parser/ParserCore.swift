import MediaTime

/// One line of the input: byte offsets into the buffer (line ending excluded) and its number.
struct Line {
    var start: Int
    var end: Int
    var number: Int
}

/// What every parser shares: the bytes, the cursor, the diagnostics, the variables.
///
/// It works on an `UnsafeBufferPointer` that is valid for the duration of one parse, and
/// builds `String`s only for the values the model keeps.
struct ParserCore {
    let bytes: UnsafeBufferPointer<UInt8>
    let mode: ValidationMode
    let base: BaseURL?
    /// The bytes as an object segments can keep spans of; nil when they are too large for
    /// 32-bit offsets.
    let source: SourceText?
    var offset: Int
    var lineNumber = 0
    var diagnostics: [Diagnostic] = []
    /// Variables defined so far, for `{$name}` substitution.
    var variables: [String: String] = [:]
    /// The highest protocol version a feature in use needs, what needs it, and where.
    var requiredVersion: (version: Int, feature: String, line: Int) = (1, "", 0)

    init(bytes: UnsafeBufferPointer<UInt8>, source: SourceText?, startOffset: Int, mode: ValidationMode, base: BaseURL?) {
        self.bytes = bytes
        self.source = bytes.count <= Int(UInt32.max) ? source : nil
        self.offset = startOffset
        self.mode = mode
        self.base = base
    }

    // MARK: Lines

    /// The next line, or nil at the end. `\r\n` and `\n` both end a line.
    @inline(__always)
    mutating func nextLine() -> Line? {
        guard offset < bytes.count else { return nil }
        let start = offset
        let newline = findNewline(from: start)
        offset = newline + 1
        lineNumber += 1
        var end = newline
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return Line(start: start, end: end, number: lineNumber)
    }

    /// The offset of the next `\n` at or after `start`, or the buffer's end. Scans eight bytes
    /// at a time (little-endian words, as on every platform Swift runs on Linux).
    @inline(__always)
    func findNewline(from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
            let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            if base[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return count
    }

    // MARK: Bytes

    @inline(__always)
    func slice(_ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    @inline(__always)
    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: slice(start, end), as: UTF8.self)
    }

    /// Whether `buffer[start...]` begins with `prefix` and it fits before `end`.
    /// Compares eight bytes at a time: tag names are long and checked on every line.
    @inline(__always)
    func hasPrefix(_ prefix: StaticString, at start: Int, end: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard end - start >= length, let base = bytes.baseAddress else { return false }
        let text = UnsafeRawPointer(base + start)
        let expected = UnsafeRawPointer(prefix.utf8Start)
        var index = 0
        while index + 8 <= length {
            if text.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                != expected.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index += 8
        }
        while index < length {
            if text.load(fromByteOffset: index, as: UInt8.self) != expected.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            index += 1
        }
        return true
    }

    func equals(_ start: Int, _ end: Int, _ text: String) -> Bool {
        slice(start, end).elementsEqual(text.utf8)
    }

    /// A decimal-integer (`0`…`2^63-1`), or nil.
    func integer(_ start: Int, _ end: Int) -> Int? {
        guard start < end, end - start <= 19 else { return nil }
        var value = 0
        for index in start..<end {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        return value >= 0 ? value : nil
    }

    /// A decimal number as exact time (`6.006`, `-3`), or nil.
    @inline(__always)
    func decimal(_ start: Int, _ end: Int) -> MediaTime? {
        MediaTime(decimalSecondsUTF8: slice(start, end))
    }

    func column(_ line: Line, _ offset: Int) -> Int {
        max(1, offset - line.start + 1)
    }

    // MARK: Diagnostics

    mutating func report(_ rule: ValidationRule, line: Int, column: Int = 1, _ message: String) {
        diagnostics.append(Diagnostic(line: line, column: column, rule: rule,
                                      severity: rule.severity(in: mode), message: message))
    }

    /// Records that a feature needs protocol `version`.
    mutating func require(version: Int, for feature: String, line: Int) {
        if version > requiredVersion.version { requiredVersion = (version, feature, line) }
    }

    /// Reports when the declared version (1 when absent) is lower than what the features need.
    mutating func checkVersion(declared: Int?, line: Int) {
        let declaredVersion = declared ?? 1
        guard requiredVersion.version > declaredVersion else { return }
        report(.versionTooLow, line: declared == nil ? requiredVersion.line : line,
               "\(requiredVersion.feature) on line \(requiredVersion.line) needs EXT-X-VERSION \(requiredVersion.version) or higher, "
                   + (declared == nil ? "but the playlist has no EXT-X-VERSION (version 1)" : "but the playlist declares \(declaredVersion)"))
    }

    /// `buffer[start..<end]` as segment text: a span of the source unless it holds a variable
    /// reference, which makes a substituted string.
    @inline(__always)
    mutating func segmentText(_ start: Int, _ end: Int, line: Line) -> SegmentText {
        guard source != nil, !containsBrace(start, end) else { return .owned(substituted(start, end, line: line)) }
        return .source(span(start, end))
    }

    /// `buffer[start..<end]` as a span of the source, or a string when there is no source
    /// to point into. No variable substitution (titles have none).
    func plainText(_ start: Int, _ end: Int) -> SegmentText {
        source == nil ? .owned(string(start, end)) : .source(span(start, end))
    }

    @inline(__always)
    func span(_ start: Int, _ end: Int) -> TextSpan {
        TextSpan(offset: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: end - start))
    }

    /// Whether `{` occurs in `buffer[start..<end]`, eight bytes at a time: only then can the
    /// text hold a variable reference.
    @inline(__always)
    func containsBrace(_ start: Int, _ end: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = start
        while index + 8 <= end {
            let x = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x7B7B_7B7B_7B7B_7B7B
            if (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0 { return true }
            index += 8
        }
        while index < end {
            if base[index] == UInt8(ascii: "{") { return true }
            index += 1
        }
        return false
    }

    // MARK: Variables

    /// `buffer[start..<end]` as a string with `{$name}` references replaced. An undefined
    /// name is reported and left as written.
    mutating func substituted(_ start: Int, _ end: Int, line: Line) -> String {
        var index = start
        var hasReference = false
        while index + 1 < end {
            if bytes[index] == UInt8(ascii: "{") && bytes[index + 1] == UInt8(ascii: "$") {
                hasReference = true
                break
            }
            index += 1
        }
        guard hasReference else { return string(start, end) }
        var result: [UInt8] = []
        result.append(contentsOf: slice(start, index))
        while index < end {
            if index + 1 < end, bytes[index] == UInt8(ascii: "{"), bytes[index + 1] == UInt8(ascii: "$") {
                var nameEnd = index + 2
                while nameEnd < end, VariableName.isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                if nameEnd > index + 2, nameEnd < end, bytes[nameEnd] == UInt8(ascii: "}") {
                    let name = string(index + 2, nameEnd)
                    if let value = variables[name] {
                        result.append(contentsOf: value.utf8)
                    } else {
                        report(.undefinedVariable, line: line.number, column: column(line, index),
                               "the variable {$\(name)} is not defined by an EXT-X-DEFINE before it")
                        result.append(contentsOf: slice(index, nameEnd + 1))
                    }
                    index = nameEnd + 1
                    continue
                }
            }
            result.append(bytes[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}

enum VariableName {
    /// `[a-zA-Z0-9_-]`, the characters of a variable name.
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}

/// The offset of the first byte that is not valid UTF-8, or nil when all are. ASCII runs are
/// checked eight bytes at a time.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    while index < count {
        if index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
        }
        let lead = base[index]
        if lead < 0x80 {
            index += 1
            continue
        }
        let length: Int
        let minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
        default: return index
        }
        guard index + length <= count else { return index }
        for continuation in 1..<length {
            let byte = base[index + continuation]
            guard byte & 0xC0 == 0x80 else { return index }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return index }
        index += length
    }
    return nil
}
