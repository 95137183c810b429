/// Any playlist hlsq reads.
public enum Playlist: Sendable, Hashable {
    case media(MediaPlaylist)
    case multivariant(MultivariantPlaylist)
    case m3u(M3UPlaylist)

    /// `media`, `multivariant` or `m3u`.
    public var kindName: String {
        switch self {
        case .media: "media"
        case .multivariant: "multivariant"
        case .m3u: "m3u"
        }
    }

    /// The media playlist, or nil for another kind.
    public var media: MediaPlaylist? {
        if case .media(let playlist) = self { return playlist }
        return nil
    }

    /// The multivariant playlist, or nil for another kind.
    public var multivariant: MultivariantPlaylist? {
        if case .multivariant(let playlist) = self { return playlist }
        return nil
    }

    /// The extended M3U or URL list, or nil for another kind.
    public var m3u: M3UPlaylist? {
        if case .m3u(let playlist) = self { return playlist }
        return nil
    }
}

/// How to parse a playlist.
public struct ParseOptions: Sendable {
    /// Whether tolerated rules are warnings (lenient) or errors (strict).
    public var mode: ValidationMode
    /// The playlist's own URL or path: relative URIs resolve against it, and
    /// `EXT-X-DEFINE:QUERYPARAM` reads its query.
    public var baseURL: String?
    /// The parent multivariant playlist's variables, for `EXT-X-DEFINE:IMPORT`
    /// (``MultivariantPlaylist/variablesForImport``).
    public var importedVariables: [String: String]

    public init(mode: ValidationMode = .lenient, baseURL: String? = nil, importedVariables: [String: String] = [:]) {
        self.mode = mode
        self.baseURL = baseURL
        self.importedVariables = importedVariables
    }
}

/// A parsed playlist and what was found wrong with it.
public struct ParseResult: Sendable {
    /// The model; always present, even for a playlist with errors.
    public var playlist: Playlist
    /// In line order.
    public var diagnostics: [Diagnostic]

    public init(playlist: Playlist, diagnostics: [Diagnostic]) {
        self.playlist = playlist
        self.diagnostics = diagnostics
    }

    /// Whether no diagnostic is an error under the mode the playlist was parsed in.
    public var isValid: Bool { !diagnostics.contains { $0.severity == .error } }
}
