import Engine
import Foundation
import Loader
import MicroHTTPD
import OriginSupport
import Testing

@testable import Server

/// The event stream on a real socket, in process, read by libcurl: what the route tests
/// cannot see without one.
@Suite struct EventStreamTests {
    /// Reads `url` until `enough` holds for the text received, for up to `timeout`.
    static func read(_ url: String, timeout: Duration = .seconds(5), until enough: @escaping @Sendable (String) -> Bool) async throws -> String {
        var request = Loader.HTTPRequest(url: url)
        request.limits = HTTPLimits(totalTimeout: timeout + .seconds(1))
        var text = ""
        let deadline = ContinuousClock.now + timeout
        for try await event in RouteTestShared.client.stream(request) {
            if case .bytes(let bytes) = event { text += String(decoding: bytes, as: UTF8.self) }
            if enough(text) || ContinuousClock.now > deadline { break }
        }
        return text
    }

    @Test func aStreamStartsWithRetryAndGetsHeartbeatsAndEvents() async throws {
        let fixture = try await RouterFixture()
        var configuration = ServerConfiguration(publicFolder: fixture.publicFolder.path, mediaFolder: TestOrigin.playlists.path)
        configuration.heartbeatInterval = .milliseconds(100)
        let server = try HLSQServer(
            engine: fixture.engine, configuration: configuration, http: HTTPServer.Configuration(host: "127.0.0.1", port: 0))
        let queue = try await fixture.engine.createQueue(name: "Watched")
        let engine = fixture.engine
        Task {
            try await Task.sleep(for: .milliseconds(300))
            _ = try await engine.updateQueue(queue.id, QueueChanges(name: "Renamed"))
        }
        let text = try await Self.read(server.baseURL + "/api/events?queue=\(queue.id)") { $0.contains("\"name\":\"Renamed\"") }
        #expect(text.hasPrefix("retry: 1000\n\n"))
        #expect(text.components(separatedBy: ": heartbeat\n\n").count - 1 >= 2)
        let event = try #require(text.components(separatedBy: "\n\n").first { $0.contains("event: queueUpdated") })
        let lines = event.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(Int(lines[0].dropFirst("id: ".count)) != nil)
        #expect(lines[1] == "event: queueUpdated")
        let data = try #require(lines[2].hasPrefix("data: ") ? Data(lines[2].dropFirst(6).utf8) : nil)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["queueId"] as? String == queue.id.description)
        #expect(json["name"] as? String == "Renamed")
        await server.stop()
        #expect(server.router.eventStreamCount == 0)
    }
}
