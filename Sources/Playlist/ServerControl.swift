import MediaTime

/// `EXT-X-SERVER-CONTROL`: what the server supports for live playlists.
public struct ServerControl: Sendable, Hashable {
    public var canSkipUntil: MediaTime?
    public var canSkipDateRanges: Bool
    public var holdBack: MediaTime?
    public var partHoldBack: MediaTime?
    public var canBlockReload: Bool
    public var otherAttributes: [Attribute]

    public init(canSkipUntil: MediaTime? = nil, canSkipDateRanges: Bool = false, holdBack: MediaTime? = nil,
                partHoldBack: MediaTime? = nil, canBlockReload: Bool = false, otherAttributes: [Attribute] = []) {
        self.canSkipUntil = canSkipUntil
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBack = holdBack
        self.partHoldBack = partHoldBack
        self.canBlockReload = canBlockReload
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-SKIP`: segments left out of a playlist delta update.
public struct Skip: Sendable, Hashable {
    public var skippedSegments: Int
    public var recentlyRemovedDateRanges: [String]
    public var otherAttributes: [Attribute]

    public init(skippedSegments: Int, recentlyRemovedDateRanges: [String] = [], otherAttributes: [Attribute] = []) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
        self.otherAttributes = otherAttributes
    }
}
