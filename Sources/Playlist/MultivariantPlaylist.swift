import MediaTime

/// An HLS multivariant playlist: the variant streams of one presentation, their alternative
/// renditions and session-wide data.
///
/// Semantics: every group a variant names (``Variant/audioGroup`` and the others) should
/// exist among ``renditions`` with that type; the parser reports those that do not. Equality
/// compares content, not source positions. A parsed playlist keeps its source text, so an
/// unedited one is written back byte for byte.
public struct MultivariantPlaylist: Sendable, Hashable {
    public var version: Int?
    public var hasIndependentSegments: Bool
    public var start: StartOffset?
    public var definitions: [VariableDefinition]
    /// `EXT-X-STREAM-INF` and their URIs, in order.
    public var variants: [Variant]
    /// `EXT-X-I-FRAME-STREAM-INF`, in order.
    public var iFrameVariants: [IFrameVariant]
    /// `EXT-X-MEDIA`, in order.
    public var renditions: [Rendition]
    public var sessionData: [SessionData]
    public var sessionKeys: [EncryptionKey]
    public var contentSteering: ContentSteering?
    /// Unknown tags and comments before the first rendition or variant.
    public var leadingLines: [PreservedLine]
    /// Unknown tags and comments after the last variant.
    public var trailingLines: [PreservedLine]

    var base: BaseURL?
    var source = RetainedSource()

    public init(version: Int? = nil) {
        self.version = version
        hasIndependentSegments = false
        definitions = []
        variants = []
        iFrameVariants = []
        renditions = []
        sessionData = []
        sessionKeys = []
        leadingLines = []
        trailingLines = []
    }

    /// The URL the playlist was read from, against which its URIs resolve.
    public var baseURL: String? {
        get { base?.text }
        set { base = newValue.map(BaseURL.init) }
    }

    /// The renditions of `type` in group `groupID`.
    public func renditions(ofType type: Rendition.MediaType, inGroup groupID: String) -> [Rendition] {
        renditions.filter { $0.type == type && $0.groupID == groupID }
    }

    /// The variables in force, for `ParseOptions.importedVariables` of the media playlists
    /// this playlist points to (`EXT-X-DEFINE:IMPORT`).
    public var variablesForImport: [String: String] {
        var variables: [String: String] = [:]
        for definition in definitions {
            if let value = definition.resolvedValue { variables[definition.name] = value }
        }
        return variables
    }
}

/// The attributes `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF` share.
public struct StreamAttributes: Sendable, Hashable {
    /// Peak bits per second.
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var score: Double?
    /// `CODECS`, split at commas.
    public var codecs: [String]
    public var supplementalCodecs: [String]
    public var resolution: Resolution?
    public var hdcpLevel: String?
    public var allowedCPC: String?
    public var videoRange: String?
    public var requiredVideoLayout: String?
    public var stableVariantID: String?
    public var videoGroup: String?
    public var pathwayID: String?
    public var programID: Int?
    public var otherAttributes: [Attribute]

    public init(bandwidth: Int) {
        self.bandwidth = bandwidth
        codecs = []
        supplementalCodecs = []
        otherAttributes = []
    }
}

/// A variant stream: `EXT-X-STREAM-INF` and the URI line after it.
public struct Variant: Sendable, Hashable {
    public enum ClosedCaptions: Sendable, Hashable {
        case group(String)
        /// `CLOSED-CAPTIONS=NONE`: the variant has none.
        case none
    }

    public var uri: String
    public var stream: StreamAttributes
    public var frameRate: Double?
    public var audioGroup: String?
    public var subtitlesGroup: String?
    public var closedCaptions: ClosedCaptions?
    public var precedingLines: [PreservedLine]
    public var position: SourcePosition
    var base: BaseURL?

    public init(uri: String, stream: StreamAttributes) {
        self.uri = uri
        self.stream = stream
        precedingLines = []
        position = .none
    }

    /// The URI resolved against the playlist URL.
    public var url: String { BaseURL.resolve(uri, against: base) }
}

/// `EXT-X-I-FRAME-STREAM-INF`: an I-frame playlist of a variant.
public struct IFrameVariant: Sendable, Hashable {
    public var uri: String
    public var stream: StreamAttributes
    public var precedingLines: [PreservedLine]
    public var position: SourcePosition
    var base: BaseURL?

    public init(uri: String, stream: StreamAttributes) {
        self.uri = uri
        self.stream = stream
        precedingLines = []
        position = .none
    }

    public var url: String { BaseURL.resolve(uri, against: base) }
}

/// `EXT-X-MEDIA`: an alternative rendition (audio language, subtitles, camera angle…).
public struct Rendition: Sendable, Hashable {
    public enum MediaType: Sendable, Hashable {
        case audio, video, subtitles, closedCaptions
        case other(String)

        public init(_ text: String) {
            switch text {
            case "AUDIO": self = .audio
            case "VIDEO": self = .video
            case "SUBTITLES": self = .subtitles
            case "CLOSED-CAPTIONS": self = .closedCaptions
            default: self = .other(text)
            }
        }

        public var text: String {
            switch self {
            case .audio: "AUDIO"
            case .video: "VIDEO"
            case .subtitles: "SUBTITLES"
            case .closedCaptions: "CLOSED-CAPTIONS"
            case .other(let text): text
            }
        }
    }

    public var type: MediaType
    public var groupID: String
    public var name: String
    public var uri: String?
    public var language: String?
    public var associatedLanguage: String?
    public var stableRenditionID: String?
    public var isDefault: Bool
    public var isAutoselect: Bool
    public var isForced: Bool
    /// `INSTREAM-ID`: `CC1`…`CC4` or `SERVICE1`…`SERVICE63`.
    public var instreamID: String?
    public var bitDepth: Int?
    public var sampleRate: Int?
    public var characteristics: [String]
    /// `CHANNELS` as written (`"2"`, `"16/JOC"`).
    public var channels: String?
    public var otherAttributes: [Attribute]
    public var precedingLines: [PreservedLine]
    public var position: SourcePosition
    var base: BaseURL?

    public init(type: MediaType, groupID: String, name: String, uri: String? = nil) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.uri = uri
        isDefault = false
        isAutoselect = false
        isForced = false
        characteristics = []
        otherAttributes = []
        precedingLines = []
        position = .none
    }

    /// The URI resolved against the playlist URL.
    public var url: String? { uri.map { BaseURL.resolve($0, against: base) } }
}

/// `EXT-X-SESSION-DATA`.
public struct SessionData: Sendable, Hashable {
    public var dataID: String
    public var value: String?
    public var uri: String?
    /// `FORMAT`: `JSON` (the default) or `RAW`.
    public var format: String?
    public var language: String?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(dataID: String, value: String? = nil, uri: String? = nil, language: String? = nil) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.language = language
        otherAttributes = []
    }

    public var url: String? { uri.map { BaseURL.resolve($0, against: base) } }
}

/// `EXT-X-CONTENT-STEERING`.
public struct ContentSteering: Sendable, Hashable {
    public var serverURI: String
    public var pathwayID: String?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(serverURI: String, pathwayID: String? = nil) {
        self.serverURI = serverURI
        self.pathwayID = pathwayID
        otherAttributes = []
    }

    public var serverURL: String { BaseURL.resolve(serverURI, against: base) }
}
