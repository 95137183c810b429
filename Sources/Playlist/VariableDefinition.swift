import MediaTime

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
