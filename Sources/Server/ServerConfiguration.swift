import Glibc
import Loader
import MediaTime
import Playlist

/// What the ``Router`` serves besides the Engine, and the rules it applies.
public struct ServerConfiguration: Sendable {
    /// The dashboard's folder (`--public`), served at `/`.
    public var publicFolder: String
    /// The sample media (`playlists/`), served at `/media/`; the demo live stream loops its
    /// `vod-ts/` segments.
    public var mediaFolder: String
    /// The folders file items may come from (`--media-root`); empty refuses file items.
    public var mediaRoots: [String]
    /// The bearer token the API requires (`--token`); nil leaves the API open.
    public var token: String?
    /// Fetches playlists imported by URL; without one, `POST …/import` with `{url}` is
    /// refused.
    public var playlistClient: HTTPClient?
    /// How often event streams get a heartbeat comment.
    public var heartbeatInterval: Duration
    /// The most bytes an event stream may hold for a client that does not read, before the
    /// client is cut off.
    public var eventStreamBufferLimit: Int
    /// The wall clock of the demo live stream.
    public var wallClock: @Sendable () -> DateTime

    public init(
        publicFolder: String, mediaFolder: String, mediaRoots: [String] = [], token: String? = nil,
        playlistClient: HTTPClient? = nil, heartbeatInterval: Duration = .seconds(15),
        eventStreamBufferLimit: Int = 1 << 20, wallClock: @escaping @Sendable () -> DateTime = ServerConfiguration.systemWallClock
    ) {
        self.publicFolder = publicFolder
        self.mediaFolder = mediaFolder
        self.mediaRoots = mediaRoots
        self.token = token
        self.playlistClient = playlistClient
        self.heartbeatInterval = heartbeatInterval
        self.eventStreamBufferLimit = eventStreamBufferLimit
        self.wallClock = wallClock
    }

    /// The system's real-time clock, to the nanosecond.
    public static let systemWallClock: @Sendable () -> DateTime = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return DateTime(secondsSince1970: MediaTime(
            value: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec), timescale: 1_000_000_000))
    }
}
