import MediaTime

/// A sub-range of a resource, as `EXT-X-BYTERANGE` and the `BYTERANGE` attributes give it.
///
/// In a parsed segment the offset is always resolved: a range written without `@offset`
/// starts where the previous segment's range of the same resource ended.
public struct ByteRange: Sendable, Hashable, CustomStringConvertible {
    public var length: Int
    public var offset: Int

    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }

    /// One past the last byte.
    public var end: Int { offset + length }

    /// `length@offset`, the playlist syntax.
    public var description: String { "\(length)@\(offset)" }
}

/// A video resolution, `WIDTHxHEIGHT`.
public struct Resolution: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// An attribute as written, kept for the attributes hlsq has no field for (client `X-`
/// attributes, vendor extensions) so that they are written back unchanged.
///
/// `rawValue` is the exact value text: a quoted string keeps its quotes.
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var rawValue: String

    public init(name: String, rawValue: String) {
        self.name = name
        self.rawValue = rawValue
    }

    /// A quoted-string attribute.
    public init(name: String, quoted value: String) {
        self.init(name: name, rawValue: "\"\(value)\"")
    }

    /// The value without quotes when it is a quoted string, else nil.
    public var quotedValue: String? {
        guard rawValue.utf8.count >= 2, rawValue.hasPrefix("\""), rawValue.hasSuffix("\"") else { return nil }
        return String(rawValue.dropFirst().dropLast())
    }

    /// The value read as a quoted string, or as it is written otherwise.
    public var value: String { quotedValue ?? rawValue }
}

/// Where a value was read from. It documents the source and never makes two models differ:
/// all positions compare equal, so a model parsed from canonical text equals the model parsed
/// from the original.
public struct SourcePosition: Sendable, Hashable {
    /// The 1-based line number, or 0 for a value built in code.
    public var line: Int

    public init(line: Int) {
        self.line = line
    }

    public static let none = SourcePosition(line: 0)

    public static func == (lhs: SourcePosition, rhs: SourcePosition) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

/// A line hlsq keeps without interpreting it: an unknown tag or a comment. Such lines are
/// written back in place.
public struct PreservedLine: Sendable, Hashable {
    /// The line without its line ending.
    public var text: String
    public var position: SourcePosition

    public init(_ text: String, position: SourcePosition = .none) {
        self.text = text
        self.position = position
    }

    /// Whether the line is a tag (`#EXT…`) rather than a comment.
    public var isTag: Bool { text.hasPrefix("#EXT") }

    /// The typed reading of a common ad marker, or nil.
    public var adMarker: AdMarker? { AdMarker(line: text) }
}

/// An ad-insertion marker of the de-facto kinds found in live playlists. They are not part of
/// the RFC, so they stay preserved lines; this is their typed reading.
public enum AdMarker: Sendable, Hashable {
    /// `#EXT-X-CUE-OUT:30` or `#EXT-X-CUE-OUT:DURATION=30`: an ad break starts.
    case cueOut(duration: MediaTime?)
    /// `#EXT-X-CUE-OUT-CONT:ElapsedTime=5,Duration=30` or `:5/30`: inside a break.
    case cueOutContinuation(elapsed: MediaTime?, duration: MediaTime?)
    /// `#EXT-X-CUE-IN`: the break ends.
    case cueIn
    /// `#EXT-OATCLS-SCTE35:<base64>`: an SCTE-35 splice message.
    case scte35(base64: String)

    /// Reads `line`, or returns nil when it is not an ad marker.
    public init?(line: String) {
        func value(after prefix: String) -> Substring? {
            line.hasPrefix(prefix) ? line.dropFirst(prefix.count) : nil
        }
        func attribute(_ name: String, in text: Substring) -> MediaTime? {
            for field in text.split(separator: ",") {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].uppercased() == name.uppercased() {
                    return MediaTime(decimalSeconds: parts[1])
                }
            }
            return nil
        }
        if line == "#EXT-X-CUE-IN" {
            self = .cueIn
        } else if line == "#EXT-X-CUE-OUT" {
            self = .cueOut(duration: nil)
        } else if let text = value(after: "#EXT-X-CUE-OUT:") {
            self = .cueOut(duration: MediaTime(decimalSeconds: text) ?? attribute("DURATION", in: text))
        } else if let text = value(after: "#EXT-X-CUE-OUT-CONT:") {
            let halves = text.split(separator: "/")
            if halves.count == 2, let elapsed = MediaTime(decimalSeconds: halves[0]) {
                self = .cueOutContinuation(elapsed: elapsed, duration: MediaTime(decimalSeconds: halves[1]))
            } else {
                self = .cueOutContinuation(elapsed: attribute("ElapsedTime", in: text),
                                           duration: attribute("Duration", in: text))
            }
        } else if let text = value(after: "#EXT-OATCLS-SCTE35:") {
            self = .scte35(base64: String(text))
        } else {
            return nil
        }
    }
}

/// `EXT-X-DEFINE`: a variable for `{$name}` substitution.
public struct VariableDefinition: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// `NAME="n",VALUE="v"`.
        case value(String)
        /// `IMPORT="n"`: taken from the parent multivariant playlist.
        case imported
        /// `QUERYPARAM="n"`: taken from the query of the playlist's URL.
        case queryParameter
    }

    public var name: String
    public var source: Source
    /// The value in force after resolution; nil when an import or query parameter was not
    /// found.
    public var resolvedValue: String?

    public init(name: String, source: Source, resolvedValue: String? = nil) {
        self.name = name
        self.source = source
        if case .value(let value) = source {
            self.resolvedValue = value
        } else {
            self.resolvedValue = resolvedValue
        }
    }
}

/// `EXT-X-START`: where playback should start by default.
public struct StartOffset: Sendable, Hashable {
    /// From the start of the playlist when positive, from its end when negative.
    public var timeOffset: MediaTime
    public var isPrecise: Bool
    public var otherAttributes: [Attribute]

    public init(timeOffset: MediaTime, isPrecise: Bool = false, otherAttributes: [Attribute] = []) {
        self.timeOffset = timeOffset
        self.isPrecise = isPrecise
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-KEY` or `EXT-X-SESSION-KEY`: how segments are encrypted.
public struct EncryptionKey: Sendable, Hashable {
    public enum Method: Sendable, Hashable {
        case none, aes128, sampleAES, sampleAESCTR
        /// A method the RFC does not list, kept as written.
        case other(String)

        public init(_ text: String) {
            switch text {
            case "NONE": self = .none
            case "AES-128": self = .aes128
            case "SAMPLE-AES": self = .sampleAES
            case "SAMPLE-AES-CTR": self = .sampleAESCTR
            default: self = .other(text)
            }
        }

        public var text: String {
            switch self {
            case .none: "NONE"
            case .aes128: "AES-128"
            case .sampleAES: "SAMPLE-AES"
            case .sampleAESCTR: "SAMPLE-AES-CTR"
            case .other(let text): text
            }
        }
    }

    public var method: Method
    /// The key's URI as written (after variable substitution).
    public var uri: String?
    /// The initialization vector as written, `0x…`.
    public var iv: String?
    public var keyFormat: String?
    public var keyFormatVersions: String?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(method: Method, uri: String? = nil, iv: String? = nil, keyFormat: String? = nil,
                keyFormatVersions: String? = nil, otherAttributes: [Attribute] = []) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.otherAttributes = otherAttributes
    }

    /// The key URI resolved against the playlist URL.
    public var url: String? { uri.map { BaseURL.resolve($0, against: base) } }
}

/// `EXT-X-MAP`: the Media Initialization Section of the segments that follow it.
public struct MediaInitializationSection: Sendable, Hashable {
    public var uri: String
    /// The byte range as written; `offset` is 0 when the text had none.
    public var byteRange: ByteRange?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(uri: String, byteRange: ByteRange? = nil, otherAttributes: [Attribute] = []) {
        self.uri = uri
        self.byteRange = byteRange
        self.otherAttributes = otherAttributes
    }

    /// The URI resolved against the playlist URL.
    public var url: String { BaseURL.resolve(uri, against: base) }
}
