import MediaTime

/// `EXT-X-PART`: a partial segment (Low-Latency HLS).
public struct PartialSegment: Sendable, Hashable {
    public var uri: String
    public var duration: MediaTime
    public var isIndependent: Bool
    /// The byte range as written; a missing offset follows the previous part of the same
    /// resource and is resolved.
    public var byteRange: ByteRange?
    public var isGap: Bool
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(uri: String, duration: MediaTime, isIndependent: Bool = false, byteRange: ByteRange? = nil,
                isGap: Bool = false, otherAttributes: [Attribute] = []) {
        self.uri = uri
        self.duration = duration
        self.isIndependent = isIndependent
        self.byteRange = byteRange
        self.isGap = isGap
        self.otherAttributes = otherAttributes
    }

    public var url: String { BaseURL.resolve(uri, against: base) }
}

/// `EXT-X-PART-INF`.
public struct PartInformation: Sendable, Hashable {
    public var partTarget: MediaTime
    public var otherAttributes: [Attribute]

    public init(partTarget: MediaTime, otherAttributes: [Attribute] = []) {
        self.partTarget = partTarget
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-PRELOAD-HINT`: a resource the client may request before it is listed.
public struct PreloadHint: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case part, map
        case other(String)
    }

    public var kind: Kind
    public var uri: String
    public var byteRangeStart: Int?
    public var byteRangeLength: Int?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(kind: Kind, uri: String, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil,
                otherAttributes: [Attribute] = []) {
        self.kind = kind
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
        self.otherAttributes = otherAttributes
    }

    public var url: String { BaseURL.resolve(uri, against: base) }
}

/// `EXT-X-RENDITION-REPORT`: the state of another rendition's playlist.
public struct RenditionReport: Sendable, Hashable {
    public var uri: String
    public var lastMediaSequenceNumber: Int?
    public var lastPart: Int?
    public var otherAttributes: [Attribute]
    var base: BaseURL?

    public init(uri: String, lastMediaSequenceNumber: Int? = nil, lastPart: Int? = nil, otherAttributes: [Attribute] = []) {
        self.uri = uri
        self.lastMediaSequenceNumber = lastMediaSequenceNumber
        self.lastPart = lastPart
        self.otherAttributes = otherAttributes
    }

    public var url: String { BaseURL.resolve(uri, against: base) }
}
