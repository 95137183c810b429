import MediaTime

/// Something that loads one queue item for the Engine: ``MediaFileLoader`` for plain media
/// files, the HLS loader for HLS streams.
///
/// ## The exchange
/// The Engine calls ``load(_:directives:)`` once per loading of an item and iterates the
/// returned stream on a task of its own:
/// - **Reports** flow from the loader to the Engine in the order things happen, and the
///   stream ends after exactly one terminal report (``LoaderReport/failed(_:)``,
///   ``LoaderReport/loadingFinished`` or ``LoaderReport/loadingStopped(_:)``). Which reports
///   a loader sends, and what each promises, is documented on ``LoaderReport``.
/// - **Directives** flow from the Engine to the loader: each element of `directives` is the
///   complete current set of what the player wants (``LoadingDirectives``), so the stream
///   only ever needs to hold the newest (it is made with `.bufferingNewest(1)`), and a loader
///   that reads it late loses nothing. The first set is ``ItemLoadRequest/directives``; the
///   stream yields only later changes. A loader that has no use for some directive (a
///   progressive download cannot choose a variant) ignores it.
/// - **Stopping**: the Engine stops a loader by ending its iteration of the reports (it
///   cancels its task). The loader must then cancel its transfers and end promptly; the
///   Engine ignores anything it yields after that.
///
/// Loaders run off the Engine's executor and never touch its state; everything they learn
/// goes through reports.
public protocol ItemLoader: Sendable {
    /// Starts loading `request.url` and returns its reports.
    func load(_ request: ItemLoadRequest, directives: AsyncStream<LoadingDirectives>) -> AsyncStream<LoaderReport>
}

/// What the Engine asks a loader to load.
public struct ItemLoadRequest: Sendable, Hashable {
    /// An `http`/`https` URL, a `file:` URL or an absolute path.
    public var url: String
    public var kind: MediaKind
    /// The directives in force when loading starts: a restored item resumes at its playhead.
    public var directives: LoadingDirectives

    public init(url: String, kind: MediaKind, directives: LoadingDirectives = LoadingDirectives()) {
        self.url = url
        self.kind = kind
        self.directives = directives
    }
}

/// What the player wants from an item's loader, as a whole: the Engine sends a new value
/// whenever any part changes.
public struct LoadingDirectives: Sendable, Hashable {
    /// Where the item's playhead is now (updated at most about once a second while playing,
    /// and at once after a jump). An HLS loader keeps the forward buffer ahead of it.
    public var playhead: MediaTime
    /// Where to load from: set by a seek that landed where nothing is loaded. Its serial
    /// rises with every request, so that two requests for the same time are told apart;
    /// nil until the first.
    public var loadFrom: LoadPosition?
    /// How much media to buffer ahead of the playhead; zero lets the loader choose.
    public var preferredForwardBufferDuration: MediaTime
    /// A cap on the variant's bandwidth in bits per second; zero means no cap.
    public var preferredPeakBitRate: Double
    /// The audio rendition to play.
    public var audio: RenditionChoice
    /// The subtitle rendition to load.
    public var subtitles: RenditionChoice

    public init(
        playhead: MediaTime = .zero, loadFrom: LoadPosition? = nil, preferredForwardBufferDuration: MediaTime = .zero,
        preferredPeakBitRate: Double = 0, audio: RenditionChoice = .automatic, subtitles: RenditionChoice = .automatic
    ) {
        self.playhead = playhead
        self.loadFrom = loadFrom
        self.preferredForwardBufferDuration = preferredForwardBufferDuration
        self.preferredPeakBitRate = preferredPeakBitRate
        self.audio = audio
        self.subtitles = subtitles
    }
}

/// A request to load from a time, numbered so that repeated requests are distinct.
public struct LoadPosition: Sendable, Hashable {
    public var time: MediaTime
    public var serial: Int

    public init(time: MediaTime, serial: Int) {
        self.time = time
        self.serial = serial
    }
}

/// Which rendition of a media-selection group to use.
public enum RenditionChoice: Sendable, Hashable {
    /// The group's default (`DEFAULT=YES`, else the first for audio, none for subtitles).
    case automatic
    /// None: only subtitles can be off.
    case off
    /// The rendition with this `NAME`.
    case named(String)
}

/// The two kinds of media an item can hold, which decide its loader.
public enum MediaKind: String, Sendable, Hashable, CaseIterable {
    /// An HLS playlist (multivariant or media).
    case hls
    /// A plain media file, probed by libavformat and downloaded progressively.
    case mediaFile

    /// The kind a URL's path names by its extension: `.m3u8` is HLS, a known media
    /// extension or a local path is a media file. Nil when the URL does not say (a remote
    /// path without a known extension): ``sniff(_:client:)`` asks the server.
    public static func detect(url: String) -> MediaKind? {
        let lowered = url.lowercased()
        let isRemote = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        var path = Substring(lowered)
        if isRemote, let schemeEnd = path.range(of: "://") {
            path = path[schemeEnd.upperBound...]
            // The authority is not part of the path.
            path = path.firstIndex(of: "/").map { path[$0...] } ?? ""
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            path = path[..<end]
        }
        let name = path.split(separator: "/").last ?? ""
        let fileExtension = name.contains(".") ? name.split(separator: ".").last.map(String.init) : nil
        if fileExtension == "m3u8" { return .hls }
        if let fileExtension, mediaFileExtensions.contains(fileExtension) { return .mediaFile }
        return isRemote ? nil : .mediaFile
    }

    static let mediaFileExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "mov", "ts", "m2ts", "mts", "mp3", "aac", "ac3", "flac", "wav", "ogg", "oga", "opus",
        "mkv", "mka", "webm", "avi", "mpg", "mpeg", "3gp",
    ]

    /// The kind of a remote URL that ``detect(url:)`` cannot tell: the first bytes are
    /// fetched, and an HLS content type (`application/vnd.apple.mpegurl`,
    /// `application/x-mpegurl`, `audio/mpegurl`) or a body starting with `#EXTM3U` makes it
    /// HLS. Anything else, a failed request included, is left to the media-file loader,
    /// whose probe reports the failure properly.
    public static func sniff(_ url: String, client: HTTPClient) async -> MediaKind {
        if let known = detect(url: url) { return known }
        var request = HTTPRequest(url: url, byteRange: ByteRange(offset: 0, length: 512))
        request.limits = HTTPLimits(totalTimeout: .seconds(10), maximumBodyBytes: 64 * 1024)
        guard let response = try? await client.fetch(request) else { return .mediaFile }
        let contentType = response.head["content-type"]?.lowercased() ?? ""
        if contentType.contains("mpegurl") { return .hls }
        let signature = Array("#EXTM3U".utf8)
        let body = response.body.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return body.starts(with: signature) ? .hls : .mediaFile
    }
}

extension MediaFileLoader: ItemLoader {
    /// Loads a media file. The directives do not apply to a progressive download: it reads
    /// the file once, from its start, whatever the playhead, and a seek past what is loaded
    /// waits for the download to reach it.
    public func load(_ request: ItemLoadRequest, directives: AsyncStream<LoadingDirectives>) -> AsyncStream<LoaderReport> {
        load(request.url)
    }
}
