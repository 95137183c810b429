import ArgumentParser
import Dispatch
import Engine
import Foundation
import Loader
import MicroHTTPD
import Server
import Store

/// `hlsq serve`: the queue player with its JSON API, event stream and dashboard.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the queue player: the dashboard, the JSON API and its events.",
        discussion: """
            Every option can also be set with the environment variable named after it (HLSQ_HOST, \
            HLSQ_PORT, HLSQ_DB, HLSQ_PUBLIC, HLSQ_SAMPLES, HLSQ_MEDIA_ROOT, HLSQ_TOKEN, HLSQ_DURABILITY, \
            HLSQ_PRELOAD, HLSQ_RESUME_PLAYBACK); an option on the command line wins. HLSQ_MEDIA_ROOT \
            holds one or more folders separated by colons; HLSQ_RESUME_PLAYBACK is 1 or 0.

            On start it prints the dashboard's URL. A first run, with an empty database, seeds a \
            "Demo" queue with the sample media and the demo live stream, both served by this server \
            under /media/ and /demo/live.m3u8, so the demo needs no network.

            Ctrl-C or SIGTERM shuts down cleanly: requests in flight finish, every queue's playhead \
            is saved. Exit codes: 0 after a clean shutdown; 1 when the server cannot start (the port is \
            in use, the database is refused); 2 on usage errors.
            """
    )

    @Option(help: ArgumentHelp("The address to listen on (HLSQ_HOST; default 127.0.0.1).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one (HLSQ_PORT; default 8080).", valueName: "port"))
    var port: String?

    @Option(help: ArgumentHelp("The SQLite database, created with its folder when missing (HLSQ_DB; default var/hlsq.sqlite).", valueName: "path"))
    var db: String?

    @Option(name: .customLong("public"), help: ArgumentHelp("The dashboard's folder (HLSQ_PUBLIC; default Public/).", valueName: "folder"))
    var publicFolder: String?

    @Option(help: ArgumentHelp("The sample media served at /media/ (HLSQ_SAMPLES; default playlists/).", valueName: "folder"))
    var samples: String?

    @Option(name: .customLong("media-root"), help: ArgumentHelp(
        "A folder that file items (file: URLs, absolute paths) may come from; repeat for several (HLSQ_MEDIA_ROOT). Without one, file items are refused.",
        valueName: "folder"))
    var mediaRoots: [String] = []

    @Option(help: ArgumentHelp(
        "Require Authorization: Bearer <token> on the API (HLSQ_TOKEN; prefer the variable: arguments show in ps).",
        valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp(
        "What an acknowledged change survives: process-crash (SQLite synchronous=NORMAL) or power-loss (FULL, an fsync per change) (HLSQ_DURABILITY; default process-crash).",
        valueName: "level"))
    var durability: String?

    @Option(help: ArgumentHelp(
        "How many items after the current one start loading ahead (HLSQ_PRELOAD; default 1).", valueName: "count"))
    var preload: String?

    @Flag(name: .customLong("resume-playback"), help: ArgumentHelp(
        "Queues that were playing when the server stopped play again on start, instead of waiting paused (HLSQ_RESUME_PLAYBACK=1)."))
    var resumesPlayback = false

    /// The options after the environment has filled in what the command line left out.
    struct Settings {
        var host: String
        var port: UInt16
        var database: String
        var publicFolder: String
        var samples: String
        var mediaRoots: [String]
        var token: String?
        var durability: Store.Durability
        var preloadCount: Int
        var resumesPlayback: Bool
    }

    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        func value(_ option: String?, _ variable: String, _ fallback: String) -> String {
            option ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        }
        let portText = value(port, "HLSQ_PORT", "8080")
        guard let port = UInt16(portText) else {
            throw ValidationError("the port must be a number from 0 to 65535, not \"\(portText)\"")
        }
        let roots = mediaRoots.isEmpty
            ? (environment["HLSQ_MEDIA_ROOT"] ?? "").split(separator: ":").map(String.init)
            : mediaRoots
        for root in roots where !FileManager.default.fileExists(atPath: root) {
            throw ValidationError("the media root \(root) does not exist")
        }
        let token = token ?? environment["HLSQ_TOKEN"]
        let durabilityText = value(durability, "HLSQ_DURABILITY", "process-crash")
        let durability: Store.Durability
        switch durabilityText {
        case "process-crash": durability = .survivesProcessCrash
        case "power-loss": durability = .survivesPowerLoss
        default: throw ValidationError("the durability must be process-crash or power-loss, not \"\(durabilityText)\"")
        }
        let preloadText = value(preload, "HLSQ_PRELOAD", "1")
        guard let preloadCount = Int(preloadText), (0...100).contains(preloadCount) else {
            throw ValidationError("the preload count must be a number from 0 to 100, not \"\(preloadText)\"")
        }
        let resumeText = resumesPlayback ? "1" : value(nil, "HLSQ_RESUME_PLAYBACK", "0")
        guard resumeText == "1" || resumeText == "0" else {
            throw ValidationError("HLSQ_RESUME_PLAYBACK must be 1 or 0, not \"\(resumeText)\"")
        }
        return Settings(
            host: value(host, "HLSQ_HOST", "127.0.0.1"), port: port, database: value(db, "HLSQ_DB", "var/hlsq.sqlite"),
            publicFolder: value(publicFolder, "HLSQ_PUBLIC", "Public"), samples: value(samples, "HLSQ_SAMPLES", "playlists"),
            mediaRoots: roots, token: token.flatMap { $0.isEmpty ? nil : $0 },
            durability: durability, preloadCount: preloadCount, resumesPlayback: resumeText == "1")
    }

    func run() async throws {
        let settings = try settings()
        let server: HLSQServer
        do {
            server = try await Self.start(settings)
        } catch {
            printError("hlsq serve: \(error)")
            throw ExitCode(1)
        }
        let dashboard = server.baseURL + "/"
        FileHandle.standardOutput.write(Data("hlsq serve: the dashboard is at \(dashboard) (API under \(dashboard)api/)\n".utf8))
        if !FileManager.default.fileExists(atPath: settings.publicFolder) {
            printError("hlsq serve: warning: the dashboard folder \(settings.publicFolder) does not exist")
        }
        let signal = await TerminationSignals.next()
        printError("hlsq serve: \(signal == SIGINT ? "interrupted" : "terminated"), shutting down")
        await server.stop()
    }

    /// Opens the database, starts serving, and seeds the demo queue on a first run.
    static func start(_ settings: Settings) async throws -> HLSQServer {
        let folder = URL(fileURLWithPath: settings.database).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let client = try HTTPClient()
        let engine = try await Engine(configuration: EngineConfiguration(
            databasePath: settings.database, durability: settings.durability, loaders: ItemLoaders(client: client),
            preloadCount: settings.preloadCount, resumesPlaybackAfterRestart: settings.resumesPlayback))
        let server: HLSQServer
        do {
            server = try HLSQServer(
                engine: engine,
                configuration: ServerConfiguration(
                    publicFolder: settings.publicFolder, mediaFolder: settings.samples, mediaRoots: settings.mediaRoots,
                    token: settings.token, playlistClient: client),
                http: HTTPServer.Configuration(host: settings.host, port: settings.port))
        } catch {
            await engine.shutdown()
            throw error
        }
        do {
            _ = try await engine.seedDemoQueue(DemoContent.items(baseURL: server.baseURL), name: DemoContent.queueName)
        } catch {
            await server.stop()
            throw error
        }
        return server
    }
}

/// SIGINT and SIGTERM, delivered to Swift code instead of ending the process. The first
/// signal starts a clean shutdown; a second one, while that runs, ends the process at once.
enum TerminationSignals {
    private static let queue = DispatchQueue(label: "hlsq-signals")

    /// Waits for the first SIGINT or SIGTERM and returns its number.
    static func next() async -> Int32 {
        await withCheckedContinuation { continuation in
            queue.sync {
                var resumed = false
                for number in [SIGINT, SIGTERM] {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler {
                        guard !resumed else { _exit(128 + number) }
                        resumed = true
                        continuation.resume(returning: number)
                    }
                    source.resume()
                    sources.append(source)
                }
            }
        }
    }

    /// The installed sources, kept alive for the life of the process. Only touched on `queue`.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
}
