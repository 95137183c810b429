import Engine
import Foundation
import Loader
import MicroHTTPD
import OriginSupport
import Playlist
import Testing

@testable import Server

/// What route tests share: one HTTP client for the Engine's loaders and the test origin that
/// serves the sample media.
enum RouteTestShared {
    static let client: HTTPClient = {
        do {
            return try HTTPClient()
        } catch {
            fatalError("no HTTP client: \(error)")
        }
    }()

    static let origin: TestOrigin = {
        do {
            return try TestOrigin()
        } catch {
            fatalError("the test origin did not start: \(error)")
        }
    }()
}

/// A router over a fresh Engine and database, called without a socket.
final class RouterFixture: Sendable {
    let folder: URL
    let engine: Engine
    let router: Router
    /// The folder the dashboard files come from.
    let publicFolder: URL
    /// A folder file items may come from.
    let mediaRoot: URL

    init(
        token: String? = nil, wallClock: (@Sendable () -> DateTime)? = nil,
        configureEngine: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-router-\(UUID().uuidString)")
        publicFolder = folder.appendingPathComponent("public")
        mediaRoot = folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: publicFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mediaRoot, withIntermediateDirectories: true)
        try Data("<!doctype html><title>hlsq</title>".utf8).write(to: publicFolder.appendingPathComponent("index.html"))
        try FileManager.default.copyItem(
            at: TestOrigin.playlists.appendingPathComponent("chapters.mp4"), to: mediaRoot.appendingPathComponent("movie.mp4"))
        var engineConfiguration = EngineConfiguration(
            databasePath: folder.appendingPathComponent("hlsq.sqlite").path,
            loaders: ItemLoaders(client: RouteTestShared.client))
        configureEngine(&engineConfiguration)
        engine = try await Engine(configuration: engineConfiguration)
        var configuration = ServerConfiguration(
            publicFolder: publicFolder.path, mediaFolder: TestOrigin.playlists.path, mediaRoots: [mediaRoot.path],
            token: token, playlistClient: RouteTestShared.client)
        if let wallClock { configuration.wallClock = wallClock }
        router = Router(engine: engine, configuration: configuration)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Requests

    /// An answer, with its body as text and as parsed JSON.
    struct Answer {
        let response: MicroHTTPD.HTTPResponse

        var status: Int { response.status.code }
        var headers: HTTPHeaders { response.headers }

        var bytes: [UInt8] { response.bodyBytes }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// The body parsed as JSON (Foundation's parser: independent of the writer under test).
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        }

        /// `error.code` of an error answer.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
    }

    func send(
        _ method: HTTPMethod, _ target: String, json: String? = nil, body: [UInt8]? = nil, headers: HTTPHeaders = HTTPHeaders()
    ) async throws -> Answer {
        var headers = headers
        if json != nil, !headers.contains("Content-Type") { headers.set(name: "Content-Type", value: "application/json") }
        if !headers.contains("Host") { headers.set(name: "Host", value: "127.0.0.1:8080") }
        let request = HTTPRequest(
            method: method, target: try HTTPRequestTarget(parsing: target), headers: headers,
            body: body ?? json.map { Array($0.utf8) } ?? [])
        return Answer(response: await router.respond(to: request))
    }

    func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async throws -> Answer {
        try await send(.get, target, headers: headers)
    }

    func post(_ target: String, _ json: String, headers: HTTPHeaders = HTTPHeaders()) async throws -> Answer {
        try await send(.post, target, json: json, headers: headers)
    }

    func patch(_ target: String, _ json: String, headers: HTTPHeaders = HTTPHeaders()) async throws -> Answer {
        try await send(.patch, target, json: json, headers: headers)
    }

    func delete(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async throws -> Answer {
        try await send(.delete, target, headers: headers)
    }

    /// Creates a queue and returns its id.
    func createQueue(_ name: String = "Test", headers: HTTPHeaders = HTTPHeaders()) async throws -> String {
        let answer = try await post("/api/queues", #"{"name": "\#(name)"}"#, headers: headers)
        #expect(answer.status == 201, "\(answer.text)")
        return try #require(answer.json["id"] as? String)
    }

    /// Adds an item and returns its id.
    func addItem(_ queue: String, url: String, extra: String = "") async throws -> String {
        let answer = try await post("/api/queues/\(queue)/items", #"{"url": "\#(url)"\#(extra)}"#)
        #expect(answer.status == 201, "\(answer.text)")
        return try #require(answer.json["id"] as? String)
    }

    /// Polls the item until `condition` holds for its JSON, for up to 10 s.
    func waitForItem(
        _ queue: String, _ item: String, sourceLocation: SourceLocation = #_sourceLocation,
        until condition: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(10)
        var last: [String: Any] = [:]
        while ContinuousClock.now < deadline {
            last = try await get("/api/queues/\(queue)/items/\(item)").json
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the item never reached the state: \(last)", sourceLocation: sourceLocation)
        return last
    }
}

extension MicroHTTPD.HTTPResponse {
    /// The body's bytes, whether owned or shared; empty for a stream.
    var bodyBytes: [UInt8] {
        switch body {
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        case .stream: []
        }
    }
}
