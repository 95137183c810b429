import Engine
import MicroHTTPD

/// A running hlsq server: an Engine behind a ``Router`` on an ``HTTPServer``.
///
/// Starting binds the socket and serves at once; the Engine must already be open (it owns
/// the database). ``stop()`` shuts down in the order that loses nothing: the HTTP server
/// first (no new request reaches the Engine, the handlers in flight finish, every event
/// stream ends), then the Engine (loaders stop, every queue's playhead is saved).
public final class HLSQServer: Sendable {
    public let engine: Engine
    public let router: Router
    public let http: HTTPServer

    public init(engine: Engine, configuration: ServerConfiguration, http: HTTPServer.Configuration) throws(HTTPServerError) {
        self.engine = engine
        router = Router(engine: engine, configuration: configuration)
        self.http = try HTTPServer(configuration: http, handler: router)
    }

    /// The base URL clients use: `http://host:port`, with the port the kernel picked for port
    /// 0, and the loopback address when the server listens on every address.
    public var baseURL: String {
        let host: String
        switch http.localAddress.host {
        case "0.0.0.0": host = "127.0.0.1"
        case "::": host = "[::1]"
        case let address where address.contains(":"): host = "[\(address)]"
        case let address: host = address
        }
        return "http://\(host):\(http.port)"
    }

    /// Refuses new API requests, stops serving (waiting for the handlers in flight), then
    /// shuts the Engine down. Idempotent.
    public func stop() async {
        router.beginShutdown()
        await http.stop()
        await engine.shutdown()
    }
}

/// The demo queue a first run seeds: the sample media under `/media/` and the demo live
/// stream, all served by the server itself so that the demo needs no network.
public enum DemoContent {
    /// The name of the seeded queue.
    public static let queueName = "Demo"

    /// The items, with URLs on `baseURL` (`http://127.0.0.1:8080`).
    public static func items(baseURL: String) -> [NewItem] {
        [
            NewItem(url: baseURL + "/media/vod-ts/index.m3u8", title: "Sample VOD (MPEG-TS segments)"),
            NewItem(url: baseURL + "/media/vod-fmp4/index.m3u8", title: "Sample VOD (fragmented MP4)"),
            NewItem(url: baseURL + "/media/multivariant/master.m3u8", title: "Sample multivariant stream (two variants, audio, subtitles)"),
            NewItem(url: baseURL + "/media/chapters.mp4", title: "Sample MP4 with chapters"),
            NewItem(url: baseURL + "/demo/live.m3u8", title: "Demo live stream"),
        ]
    }
}
