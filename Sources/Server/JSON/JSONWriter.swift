/// Writes compact JSON straight into bytes, in the order the caller writes members.
///
/// The API's answers are written with it rather than with `JSONEncoder`: the member order is
/// the documented one, times are written as exact decimal seconds rounded to the microsecond
/// (``MediaTime`` values never pass through `Double`), and a 100-item queue snapshot costs a
/// few tens of microseconds, which matters for the mutation round trip.
///
/// The writer places commas itself: after ``beginObject()`` each ``key(_:)`` (or
/// ``member(_:_:)``) starts a member, and inside an array each value starts an element.
/// It trusts its caller for the structure (a key before each object member, balanced
/// begin/end calls); ``isComplete`` tells whether every container was closed.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false
    private var openContainers = 0

    public init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Whether every object and array begun has been ended.
    public var isComplete: Bool { openContainers == 0 && !bytes.isEmpty }

    // MARK: - Structure

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        openContainers += 1
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
        openContainers -= 1
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        openContainers += 1
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
        openContainers -= 1
    }

    /// Starts an object member; its value is the next thing written.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Values

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// A string, or `null` for nil.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func integer(_ value: some BinaryInteger) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// A number in Swift's shortest round-trip form; `null` for NaN and infinities, which
    /// JSON cannot write.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        if value == value.rounded(), abs(value) < 1e15 {
            // "3" rather than "3.0": both are JSON, the short one is what people expect.
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
        needsComma = true
    }

    /// A number, or `null` for nil.
    public mutating func number(_ value: Double?) {
        if let value { number(value) } else { null() }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: Self.nullBytes)
        needsComma = true
    }

    /// A complete JSON value written elsewhere (a cached snapshot), inserted as is.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// A decimal number written by the caller as ASCII digits (exact seconds).
    mutating func decimal(_ digits: some Sequence<UInt8>) {
        separate()
        bytes.append(contentsOf: digits)
        needsComma = true
    }

    // MARK: - Members

    public mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    public mutating func member(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }

    public mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    public mutating func member(_ name: String, _ value: Int) {
        key(name)
        integer(value)
    }

    public mutating func member(_ name: String, _ value: Double) {
        key(name)
        number(value)
    }

    public mutating func member(_ name: String, _ value: Double?) {
        key(name)
        number(value)
    }

    // MARK: - Helpers

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// `text` in double quotes, with the escapes JSON requires. Everything else, including
    /// non-ASCII characters, is written as UTF-8.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Keys and most values need no escape: they are copied at once, not byte by byte.
        guard text.utf8.contains(where: Self.needsEscape) else {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
