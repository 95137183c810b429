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
