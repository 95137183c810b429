import MediaTime

/// An extended M3U list (IPTV lists, media-player exports) or a plain list of URLs.
///
/// Entries are the URI lines in order, each with what its `#EXTINF` says (duration, title
/// and attributes such as `tvg-id` and `group-title`) and the group of the last `#EXTGRP`.
/// Nothing is validated beyond the syntax: these lists have no specification to hold them to.
///
/// It is also how hlsq exports a queue: build one with ``init(title:entries:)`` and write it
/// with ``PlaylistWriter``; VLC and mpv open the result.
public struct M3UPlaylist: Sendable, Hashable {
    /// Whether the list starts with `#EXTM3U`; a plain list of URLs has no header.
    public var hasHeader: Bool
    /// Attributes on the `#EXTM3U` line, such as `x-tvg-url`.
    public var headerAttributes: [Attribute]
    /// `#PLAYLIST`: the list's title.
    public var title: String?
    /// The URI lines, in order.
    public var entries: [M3UEntry]
    /// Unknown tags and comments after the last entry.
    public var trailingLines: [PreservedLine]

    var base: BaseURL?
    var source = RetainedSource()

    /// A list with a header, ready to be written.
    public init(title: String? = nil, entries: [M3UEntry] = []) {
        hasHeader = true
        headerAttributes = []
        self.title = title
        self.entries = entries
        trailingLines = []
    }

    /// The URL or path the list was read from, against which its entries resolve.
    public var baseURL: String? {
        get { base?.text }
        set { base = newValue.map(BaseURL.init) }
    }
}

/// One entry of an ``M3UPlaylist``.
public struct M3UEntry: Sendable, Hashable {
    /// The URI or path line as written.
    public var uri: String
    /// The `#EXTINF` duration; nil for `-1` (unknown, as for a live channel) or no `#EXTINF`.
    public var duration: MediaTime?
    /// The `#EXTINF` title, after the comma.
    public var title: String?
    /// The `#EXTINF` attributes (`tvg-id="…"`, `group-title="…"`), in order.
    public var attributes: [Attribute]
    /// The group set by the last `#EXTGRP` before the entry.
    public var group: String?
    /// Whether the entry had an `#EXTINF` line.
    public var hasInfo: Bool
    /// Lines other than `#EXTINF` and `#EXTGRP` just before the entry (such as `#EXTVLCOPT`).
    public var precedingLines: [PreservedLine]
    public var position: SourcePosition
    var base: BaseURL?

    public init(uri: String, title: String? = nil, duration: MediaTime? = nil, attributes: [Attribute] = []) {
        self.uri = uri
        self.duration = duration
        self.title = title
        self.attributes = attributes
        hasInfo = title != nil || duration != nil || !attributes.isEmpty
        precedingLines = []
        position = .none
    }

    /// The URI resolved against the list's location.
    public var url: String { BaseURL.resolve(uri, against: base) }

    /// The value of attribute `name` (`tvg-id`, `tvg-name`, `tvg-logo`, `group-title`…).
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// `group-title`, else the `#EXTGRP` group.
    public var groupTitle: String? { attribute("group-title") ?? group }
}
