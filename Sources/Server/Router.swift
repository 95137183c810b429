import Engine
import Foundation
import enum Loader.HLSQVersion
import MicroHTTPD
import Playlist
import Synchronization

/// The HTTP face of hlsq: turns each request into a typed Engine call, a file, an event
/// stream or the metrics, and the outcome into the contract's answer (docs/API.md).
///
/// ## The order of checks
/// 1. Under `/api/` (except `GET /api/health`), the bearer token when one is configured: 401.
/// 2. The route, from the decoded path: 404 for no route.
/// 3. The method: 405 with `Allow`.
/// 4. For a request that can change something, its `Origin`: 403 (``AccessPolicy``).
/// 5. The route's handler: 415 for a wrong content type, 400 for malformed JSON or a member of
///    the wrong type, 422 for a value that breaks a rule, then the Engine's own answer.
///
/// The router is the edge: it validates shapes and types, and leaves every rule about queues
/// to the Engine, whose ``EngineError`` it maps onto statuses. It holds no queue state of its
/// own beyond caches that can never be stale (``SnapshotCache``). It needs no socket: tests
/// call ``respond(to:)`` directly, and ``HLSQServer`` gives it to an ``HTTPServer``.
public final class Router: HTTPHandler {
    let engine: Engine
    let configuration: ServerConfiguration
    let access: AccessPolicy
    let snapshots: SnapshotCache
    let eventStreams: EventStreams
    let requests = RequestCounter()
    let totals = EngineTotals()
    let publicFiles: FileResponder?
    let mediaFiles: FileResponder?
    let demoLive: DemoLiveStream?
    let mediaRoots: MediaRoots
    let startedAt = ContinuousClock.now
    private let isShuttingDown = Atomic(false)

    public init(engine: Engine, configuration: ServerConfiguration) {
        self.engine = engine
        self.configuration = configuration
        access = AccessPolicy(token: configuration.token.flatMap { $0.isEmpty ? nil : $0 })
        snapshots = SnapshotCache(hub: engine.events)
        eventStreams = EventStreams(hub: engine.events, configuration: EventStreams.Configuration(
            heartbeatInterval: configuration.heartbeatInterval, bufferLimit: configuration.eventStreamBufferLimit))
        publicFiles = ContainedPath(root: configuration.publicFolder).map {
            FileResponder(files: $0, cachePolicy: .revalidate, allowsRanges: false)
        }
        let media = ContainedPath(root: configuration.mediaFolder)
        mediaFiles = media.map { FileResponder(files: $0, cachePolicy: .media, allowsRanges: true) }
        demoLive = media.flatMap { Self.demoLiveStream(mediaFolder: $0) }
        mediaRoots = MediaRoots(folders: configuration.mediaRoots)
    }

    /// The demo stream over `vod-ts/index.m3u8` of the media folder, when it is there.
    static func demoLiveStream(mediaFolder: ContainedPath) -> DemoLiveStream? {
        guard let path = mediaFolder.resolve(["vod-ts", "index.m3u8"]), let file = FileSnapshot.read(path),
              let playlist = Playlist.parse(bytes: file.bytes).playlist.media
        else { return nil }
        return DemoLiveStream(vod: playlist, uriPrefix: "/media/vod-ts/")
    }

    /// From now on every API request gets 503 `unavailable`; files are still served.
    /// ``HLSQServer/stop()`` calls it first, so that requests that arrive while the server
    /// stops are refused rather than answered from caches or half-run.
    public func beginShutdown() {
        isShuttingDown.store(true, ordering: .relaxed)
    }

    /// The size of the cached snapshot JSON of `queue`, if it is cached and current.
    public func cachedSnapshotSize(of queue: QueueID) -> Int? {
        snapshots.json(for: queue)?.count
    }

    /// The number of event streams open now.
    public var eventStreamCount: Int { eventStreams.count }

    /// The one answer given at once, on libmicrohttpd's thread: a queue's snapshot that the
    /// cache holds and no event has outdated (see ``SnapshotCache``), to a request that
    /// passes the token check. Everything else, a cache miss included, goes to
    /// ``respond(to:)``. It only reads the cache's and the counters' locks.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        let components = request.pathComponents
        guard components.count == 3, components[0] == "api", components[1] == "queues",
              request.method == .get || request.method == .head,
              !isShuttingDown.load(ordering: .relaxed),
              access.authorize(request, isEventStream: false) == nil,
              let queue = QueueID(components[2]), let json = snapshots.json(for: queue)
        else { return nil }
        requests.record(route: Route.queue(components[2]).template, status: 200)
        return JSONBody.response(shared: json)
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let (route, response) = await dispatch(request)
        requests.record(route: route?.template ?? "unmatched", status: response.status.code)
        return response
    }

    private func dispatch(_ request: HTTPRequest) async -> (Route?, HTTPResponse) {
        let components = request.pathComponents
        let route = Route(components: components)
        if components.first == "api", route != .health || ![.get, .head].contains(request.method),
           let refusal = access.authorize(request, isEventStream: route == .events) {
            return (route, refusal.response)
        }
        guard let route else {
            return (nil, APIError.notFound("there is nothing at \(request.path)").response)
        }
        guard route.allowedMethods.contains(request.method) else {
            return (route, APIError.methodNotAllowed(request.method, allowed: route.allowedMethods).response)
        }
        if let refusal = AccessPolicy.checkOrigin(request) {
            return (route, refusal.response)
        }
        if route.isAPI, isShuttingDown.load(ordering: .relaxed) {
            return (route, APIError.unavailable().response)
        }
        do {
            return (route, try await handle(route, request))
        } catch {
            return (route, error.response)
        }
    }

    private func handle(_ route: Route, _ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        switch route {
        case .health: return try await health()
        case .queues:
            return request.method == .post ? try await createQueue(request) : try await listQueues()
        case .queue(let id):
            let queue = try Self.queueID(id)
            switch request.method {
            case .patch: return try await updateQueue(queue, request)
            case .delete: return try await deleteQueue(queue)
            default: return try await queueSnapshot(queue)
            }
        case .items(let id):
            return try await addItem(try Self.queueID(id), request)
        case .item(let id, let item):
            let queue = try Self.queueID(id)
            switch request.method {
            case .patch: return try await updateItem(ItemID(item), in: queue, request)
            case .delete: return try await removeItem(ItemID(item), from: queue)
            default: return try await itemDetails(ItemID(item), in: queue)
            }
        case .moveItem(let id, let item):
            return try await moveItem(ItemID(item), in: try Self.queueID(id), request)
        case .importPlaylist(let id):
            return try await importPlaylist(into: try Self.queueID(id), request)
        case .exportPlaylist(let id):
            return try await exportPlaylist(try Self.queueID(id))
        case .commands(let id):
            return try await perform(try Self.queueID(id), request)
        case .validate:
            return try validate(request)
        case .events:
            return try await openEventStream(request)
        case .metrics:
            return await metrics()
        case .demoLive:
            return try demoLivePlaylist()
        case .media(let components):
            return try file(components, from: mediaFiles, request)
        case .publicFile(let components):
            return try file(components, from: publicFiles, request)
        }
    }

    // MARK: - Helpers

    /// A queue id from the path; a text that is not `q-N` names no queue (404).
    static func queueID(_ text: String) throws(APIError) -> QueueID {
        guard let id = QueueID(text) else { throw .notFound("there is no queue \(text)") }
        return id
    }

    /// Runs an Engine call, turning its refusal into the contract's answer.
    func call<Value: Sendable>(
        _ body: (Engine) async throws(EngineError) -> Value
    ) async throws(APIError) -> Value {
        do {
            return try await body(engine)
        } catch {
            throw APIError(error)
        }
    }

    private func health() async throws(APIError) -> HTTPResponse {
        let queues = try await call { engine throws(EngineError) in try await engine.queues() }
        let uptime = ContinuousClock.now - startedAt
        return JSONBody.response { json in
            json.beginObject()
            json.member("status", "ok")
            json.member("version", HLSQVersion.current)
            json.member("uptime", seconds: uptime)
            json.member("queues", queues.count)
            json.endObject()
        }
    }
}

extension APIError {
    /// The contract's answer for an Engine refusal.
    init(_ error: EngineError) {
        switch error.code {
        case .notFound:
            self.init(status: .notFound, code: "notFound", message: error.message)
        case .cannotInsert:
            self.init(status: .conflict, code: "cannotInsert", message: error.message, reason: error.reason)
        case .commandRefused:
            self.init(status: .conflict, code: "commandRefused", message: error.message, reason: error.reason)
        case .validationFailed:
            self.init(status: .unprocessableContent, code: "validationFailed", message: error.message, field: error.field)
        case .unavailable:
            self.init(status: .serviceUnavailable, code: "unavailable", message: error.message)
        case .storageFailed:
            self.init(status: .internalServerError, code: "storageFailed", message: error.message)
        default:
            self.init(status: .internalServerError, code: "internalError", message: error.description)
        }
    }
}
