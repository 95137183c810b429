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

    /// Where the next line starts and its number, to read ahead and come back.
    var position: (offset: Int, lineNumber: Int) {
        get { (offset, lineNumber) }
        set { (offset, lineNumber) = newValue }
    }

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

    /// ``nextLine()``, and whether the line holds a `{` (and so may hold a variable
    /// reference), found in the same scan.
    @inline(__always)
    mutating func nextLineNotingBrace() -> (line: Line, hasBrace: Bool)? {
        guard offset < bytes.count, let base = bytes.baseAddress else { return nil }
        let start = offset
        let count = bytes.count
        let lastWord = count &- 8
        var index = start
        var newline = count
        var hasBrace = false
        // The lowest match of a word is exact: a brace counts when it comes before the newline.
        while index <= lastWord {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let newlines = matches(in: word, of: 0x0A0A_0A0A_0A0A_0A0A)
            let braces = matches(in: word, of: 0x7B7B_7B7B_7B7B_7B7B)
            if braces != 0 && (newlines == 0 || braces.trailingZeroBitCount < newlines.trailingZeroBitCount) {
                hasBrace = true
            }
            if newlines != 0 {
                newline = index &+ newlines.trailingZeroBitCount &>> 3
                break
            }
            index &+= 8
        }
        if newline == count {
            while index < count && base[index] != UInt8(ascii: "\n") {
                if base[index] == UInt8(ascii: "{") { hasBrace = true }
                index &+= 1
            }
            newline = index
        }
        offset = newline &+ 1
        lineNumber &+= 1
        var end = newline
        if end > start && base[end &- 1] == UInt8(ascii: "\r") { end &-= 1 }
        return (Line(start: start, end: end, number: lineNumber), hasBrace)
    }

    /// The offset of the next `\n` at or after `start`, or the buffer's end.
    @inline(__always)
    func findNewline(from start: Int) -> Int {
        find(UInt8(ascii: "\n"), from: start, end: bytes.count)
    }

    /// The offset of the first `byte` in `buffer[start..<end]`, or `end`. Scans eight bytes at
    /// a time (little-endian words, as on every platform Swift runs on Linux), reading past
    /// `end` when the buffer goes on: short values need one step.
    @inline(__always)
    func find(_ byte: UInt8, from start: Int, end: Int) -> Int {
        guard let base = bytes.baseAddress else { return end }
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        // The last offset a whole word can be read from; offsets stay far from overflowing.
        let lastWord = bytes.count &- 8
        var index = start
        while index < end && index <= lastWord {
            let found = matches(in: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), of: pattern)
            if found != 0 { return min(index &+ found.trailingZeroBitCount &>> 3, end) }
            index &+= 8
        }
        while index < end {
            if base[index] == byte { return index }
            index &+= 1
        }
        return end
    }

    // MARK: Bytes

    /// The eight bytes at `offset` as a little-endian word; `offset + 8` must not pass the end.
    @inline(__always)
    func word(at offset: Int) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        return UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    }

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
    @inline(__always)
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

    /// `buffer[start..<end]` as a span of the source, or nil when it holds a variable reference
    /// (``substituted(_:_:line:)`` makes its string) or there is no source to point into.
    @inline(__always)
    func sourceSpan(_ start: Int, _ end: Int) -> TextSpan? {
        guard source != nil, find(UInt8(ascii: "{"), from: start, end: end) == end else { return nil }
        return span(start, end)
    }

    /// `buffer[start..<end]` as a span of the source, or nil when there is no source to point
    /// into. No variable substitution (titles have none).
    @inline(__always)
    func plainSpan(_ start: Int, _ end: Int) -> TextSpan? {
        source == nil ? nil : span(start, end)
    }

    @inline(__always)
    func span(_ start: Int, _ end: Int) -> TextSpan {
        TextSpan(offset: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: end - start))
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

/// A mask of the bytes of `word` (little-endian) equal to the byte repeated in `pattern`: the
/// high bit of each matching byte is set; below the first match the mask is exact.
@inline(__always)
func matches(in word: UInt64, of pattern: UInt64) -> UInt64 {
    let x = word ^ pattern
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
}

/// The offset of the first byte that is not valid UTF-8, or nil when all are. ASCII runs are
/// checked 32 bytes, then eight bytes at a time.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    while index < count {
        if index + 32 <= count {
            let words = UnsafeRawPointer(base + index)
            let any = words.loadUnaligned(as: UInt64.self) | words.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                | words.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | words.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            if any & 0x8080_8080_8080_8080 == 0 {
                index += 32
                continue
            }
        }
        if index + 8 <= count && UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            index += 8
            continue
        }
        guard let length = validUTF8SequenceLength(base, index, count) else { return index }
        index += length
    }
    return nil
}

/// The length of the valid UTF-8 sequence at `index`, or nil.
private func validUTF8SequenceLength(_ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> Int? {
    let lead = base[index]
    if lead < 0x80 { return 1 }
    let length: Int
    let minimum: UInt32
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
    default: return nil
    }
    guard index + length <= count else { return nil }
    for continuation in 1..<length {
        let byte = base[index + continuation]
        guard byte & 0xC0 == 0x80 else { return nil }
        scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return nil }
    return length
}
