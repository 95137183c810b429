import MediaTime

/// What the loader learned about an item's media: the variants of a multivariant playlist,
/// the audio and subtitle renditions, chapters, and the ranges that must play linearly.
///
/// These are QueueCore's own small value types; the loader fills them from its playlist and
/// probe results. An empty value means "not known (yet)" or "none".
public struct MediaInformation: Hashable, Sendable {
    public var variants: [Variant]
    public var mediaSelectionGroups: [MediaSelectionGroup]
    public var chapters: [Chapter]
    /// Ranges that play linearly: seeks and skips may not leave or jump over them.
    public var linearPlaybackRanges: [LinearPlaybackRange]

    public init(
        variants: [Variant] = [],
        mediaSelectionGroups: [MediaSelectionGroup] = [],
        chapters: [Chapter] = [],
        linearPlaybackRanges: [LinearPlaybackRange] = []
    ) {
        self.variants = variants
        self.mediaSelectionGroups = mediaSelectionGroups
        self.chapters = chapters
        self.linearPlaybackRanges = linearPlaybackRanges
    }

    /// The group of renditions with `characteristic`, if the media has one.
    public func group(for characteristic: MediaCharacteristic) -> MediaSelectionGroup? {
        mediaSelectionGroups.first { $0.characteristic == characteristic }
    }
}

/// One entry of a multivariant playlist (`EXT-X-STREAM-INF`).
public struct Variant: Hashable, Sendable {
    public var uri: String
    /// Peak bits per second (`BANDWIDTH`).
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var codecs: String?
    public var resolution: Resolution?
    public var frameRate: Double?

    public init(
        uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: String? = nil,
        resolution: Resolution? = nil, frameRate: Double? = nil
    ) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.frameRate = frameRate
    }
}

public struct Resolution: Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// What a media-selection group offers: something to hear or something to read.
public enum MediaCharacteristic: String, Hashable, Sendable, CaseIterable {
    case audible
    case legible
}

/// The renditions of one characteristic (HLS `EXT-X-MEDIA` of one TYPE), like
/// `AVMediaSelectionGroup`. Options are told apart by name, as AVFoundation merges HLS
/// renditions of the same NAME across GROUP-IDs.
public struct MediaSelectionGroup: Hashable, Sendable {
    public var characteristic: MediaCharacteristic
    public var options: [MediaSelectionOption]

    public init(characteristic: MediaCharacteristic, options: [MediaSelectionOption]) {
        self.characteristic = characteristic
        self.options = options
    }

    /// Whether "nothing selected" is allowed: subtitles can be off, audio cannot.
    public var allowsEmptySelection: Bool {
        characteristic == .legible
    }

    /// The option that automatic selection picks: the first `DEFAULT=YES` one; for audio,
    /// failing that, the first option; for subtitles, failing that, none.
    public var defaultOption: MediaSelectionOption? {
        options.first(where: \.isDefault) ?? (allowsEmptySelection ? nil : options.first)
    }

    public func option(named name: String) -> MediaSelectionOption? {
        options.first { $0.name == name }
    }
}

/// One rendition (`EXT-X-MEDIA`).
public struct MediaSelectionOption: Hashable, Sendable {
    public var name: String
    public var language: String?
    public var isDefault: Bool
    public var isAutoselect: Bool
    public var isForced: Bool
    public var uri: String?

    public init(
        name: String, language: String? = nil, isDefault: Bool = false, isAutoselect: Bool = false,
        isForced: Bool = false, uri: String? = nil
    ) {
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.isAutoselect = isAutoselect
        self.isForced = isForced
        self.uri = uri
    }
}

/// A request for the rendition of one characteristic.
public enum MediaSelection: Hashable, Sendable {
    /// The group's ``MediaSelectionGroup/defaultOption``.
    case automatic
    /// No rendition: only for groups that allow an empty selection (subtitles).
    case off
    /// The option with this name.
    case option(String)
}

/// A chapter, from `EXT-X-DATERANGE` or from the container's chapters.
public struct Chapter: Hashable, Sendable {
    public var title: String
    public var timeRange: TimeRange

    public init(title: String, timeRange: TimeRange) {
        self.title = title
        self.timeRange = timeRange
    }
}

/// A range that must play linearly, such as an ad break (`EXT-X-DATERANGE` with a CLASS, or a
/// cue-out range). `label` says where it came from, for display.
public struct LinearPlaybackRange: Hashable, Sendable {
    public var timeRange: TimeRange
    public var label: String

    public init(timeRange: TimeRange, label: String) {
        self.timeRange = timeRange
        self.label = label
    }
}
