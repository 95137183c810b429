/// A span of the playlist's source text, in bytes.
struct TextSpan: Sendable, Hashable {
    var offset: UInt32
    var length: UInt32

    /// The marker for text kept as a string elsewhere.
    static let owned = TextSpan(offset: 0, length: .max)

    var isOwned: Bool { length == .max }
}

/// A segment's text: a span of the playlist's source, or a string set in code or produced by
/// variable substitution.
enum SegmentText: Sendable, Hashable {
    case source(TextSpan)
    case owned(String)
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

    func string(_ text: SegmentText) -> String {
        switch text {
        case .owned(let string):
            return string
        case .source(let span):
            guard let source, span.length > 0 else { return "" }
            return source.bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[Int(span.offset)..<Int(span.offset) + Int(span.length)]),
                       as: UTF8.self)
            }
        }
    }

    /// Appends the text's bytes without building a string.
    func append(_ text: SegmentText, to output: inout [UInt8]) {
        switch text {
        case .owned(var string):
            string.withUTF8 { output.append(contentsOf: $0) }
        case .source(let span):
            guard let source, span.length > 0 else { return }
            source.bytes.withUnsafeBufferPointer {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[Int(span.offset)..<Int(span.offset) + Int(span.length)]))
            }
        }
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

/// What a segment rarely has, or what would make every segment larger: a byte range, parts,
/// preserved lines, a title, a URI that is not a span of the source. Nil in the segment when it
/// has none of them.
final class SegmentExtras: Sendable, Hashable {
    struct Fields: Sendable {
        var byteRange: ByteRange?
        var parts: [PartialSegment] = []
        var precedingLines: [PreservedLine] = []
        var title: SegmentText?
        var uri: String?

        var isEmpty: Bool {
            byteRange == nil && parts.isEmpty && precedingLines.isEmpty && title == nil && uri == nil
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
        lhs === rhs || (lhs.fields.byteRange == rhs.fields.byteRange && lhs.fields.parts == rhs.fields.parts
            && lhs.fields.precedingLines == rhs.fields.precedingLines)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fields.byteRange)
        hasher.combine(fields.parts)
    }
}
