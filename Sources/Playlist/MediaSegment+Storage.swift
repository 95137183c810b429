/// A span of the playlist's source text, in bytes.
struct TextSpan: Sendable, Hashable {
    var offset: UInt32
    var length: UInt32

    /// The marker for text kept as a string elsewhere.
    static let owned = TextSpan(offset: 0, length: .max)
    /// No text.
    static let empty = TextSpan(offset: 0, length: 0)

    @inline(__always)
    var isOwned: Bool { length == .max }
}

/// The flags of a segment, in one byte.
struct SegmentFlags: OptionSet, Hashable {
    let rawValue: UInt8

    static let discontinuity = SegmentFlags(rawValue: 1)
    static let gap = SegmentFlags(rawValue: 2)
    static let explicitProgramDateTime = SegmentFlags(rawValue: 4)
}

/// The bytes a playlist was parsed from, shared by the segments that keep spans of it.
final class SourceText: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// The state a segment inherits from the tags before it. Immutable and shared: a change makes
/// a new instance, so 100,000 segments under one key hold one reference.
final class SegmentContext: Sendable, Hashable {
    let keys: [EncryptionKey]
    let map: MediaInitializationSection?
    let bitrate: Int?
    let base: BaseURL?
    /// The text the segments' spans point into. Not part of equality: only the strings are.
    let source: SourceText?

    static let empty = SegmentContext(keys: [], map: nil, bitrate: nil, base: nil, source: nil)

    init(keys: [EncryptionKey], map: MediaInitializationSection?, bitrate: Int?, base: BaseURL?, source: SourceText?) {
        self.keys = keys
        self.map = map
        self.bitrate = bitrate
        self.base = base
        self.source = source
    }

    func with(keys: [EncryptionKey]) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    func with(map: MediaInitializationSection?) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    func with(bitrate: Int?) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    func with(base: BaseURL?) -> SegmentContext {
        SegmentContext(keys: keys, map: map, bitrate: bitrate, base: base, source: source)
    }

    /// The text of a span of ``source``; empty for an owned or empty span.
    func string(_ span: TextSpan) -> String {
        guard let source, span.length > 0, !span.isOwned else { return "" }
        return source.bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(span.offset)..<Int(span.offset) + Int(span.length)]),
                   as: UTF8.self)
        }
    }

    /// Calls `body` with the bytes of ``source`` (none when there is no source).
    func withSourceBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard let source else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return source.bytes.withUnsafeBytes(body)
    }

    static func == (lhs: SegmentContext, rhs: SegmentContext) -> Bool {
        lhs === rhs || (lhs.keys == rhs.keys && lhs.map == rhs.map && lhs.bitrate == rhs.bitrate && lhs.base == rhs.base)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(map)
        hasher.combine(bitrate)
    }
}

/// What a segment rarely has: parts, preserved lines, a title or a URI that is not a span of
/// the source. Nil in the segment when it has none of them.
final class SegmentExtras: Sendable, Hashable {
    struct Fields: Sendable {
        var parts: [PartialSegment] = []
        var precedingLines: [PreservedLine] = []
        var title: String?
        var uri: String?

        var isEmpty: Bool {
            parts.isEmpty && precedingLines.isEmpty && title == nil && uri == nil
        }
    }

    let fields: Fields

    private init(_ fields: Fields) {
        self.fields = fields
    }

    static func make(_ fields: Fields) -> SegmentExtras? {
        fields.isEmpty ? nil : SegmentExtras(fields)
    }

    // Title and URI take part in equality through the segment's strings.
    static func == (lhs: SegmentExtras, rhs: SegmentExtras) -> Bool {
        lhs === rhs || (lhs.fields.parts == rhs.fields.parts && lhs.fields.precedingLines == rhs.fields.precedingLines)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fields.parts)
    }
}
