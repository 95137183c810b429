import Foundation
import Testing

/// `hlsq serve` as a real process, driven over real sockets.
///
/// The suite is serialized: each test starts its own server, and the latency assertion must
/// not compete with another test's server for the two cores.
@Suite(.serialized) struct ServeTests {
    @Test func anEphemeralPortServesTheAPIAndTheDemoQueue() throws {
        let server = try ServerProcess()
        #expect(server.port != 0)
        let connection = try HTTPConnection(port: server.port)
        let health = try connection.request("GET", "/api/health")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")

        // A first run seeds the demo queue, with URLs on the server's own port.
        let queues = try connection.request("GET", "/api/queues").json["queues"] as? [[String: Any]]
        #expect(queues?.map { $0["name"] as? String } == ["Demo"])
        let demo = try connection.request("GET", "/api/queues/q-1").json
        let urls = (demo["items"] as? [[String: Any]])?.compactMap { $0["url"] as? String } ?? []
        #expect(urls.count == 5)
        #expect(urls.allSatisfy { $0.hasPrefix(server.baseURL + "/") })
        #expect(urls.contains(server.baseURL + "/demo/live.m3u8"))
        // Every demo URL is served by the server itself.
        for url in urls {
            let path = String(url.dropFirst(server.baseURL.count))
            #expect(try connection.request("HEAD", path).status == 200, "\(path)")
        }
        let live = try connection.request("GET", "/demo/live.m3u8")
        #expect(live.text.contains("#EXT-X-PROGRAM-DATE-TIME:"))
        #expect(!live.text.contains("#EXT-X-ENDLIST"))

        let index = try connection.request("GET", "/")
        #expect(index.status == 200)
        #expect(index.header("Content-Type") == "text/html; charset=utf-8")
        let openAPI = try connection.request("GET", "/openapi.json")
        #expect(openAPI.status == 200)
        #expect(openAPI.json["openapi"] as? String == "3.1.0")

        let stopped = server.stop(signal: SIGINT)
        #expect(stopped.reason == .exit)
        #expect(stopped.status == 0)
        #expect(stopped.duration < .seconds(2))
    }

    @Test func mutationsOverKeepAliveAndTheErrorsTheSocketSees() throws {
        let server = try ServerProcess()
        let connection = try HTTPConnection(port: server.port)
        let created = try connection.request("POST", "/api/queues", json: #"{"name": "E2E"}"#)
        #expect(created.status == 201)
        let queue = try #require(created.json["id"] as? String)
        var ids: [String] = []
        for index in 0..<5 {
            let added = try connection.request("POST", "/api/queues/\(queue)/items", json: #"{"url": "\#(server.baseURL)/media/chapters.mp4?n=\#(index)"}"#)
            #expect(added.status == 201)
            ids.append(try #require(added.json["id"] as? String))
        }
        let moved = try connection.request("POST", "/api/queues/\(queue)/items/\(ids[4])/move", json: #"{"index": 1}"#)
        #expect((moved.json["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [ids[0], ids[4], ids[1], ids[2], ids[3]])
        #expect(try connection.request("DELETE", "/api/queues/\(queue)/items/\(ids[2])").status == 204)

        // Over the same connection: the errors a client meets.
        #expect(try connection.request("GET", "/api/nope").status == 404)
        let wrongMethod = try connection.request("DELETE", "/api/queues")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD, POST")
        #expect(try connection.request("POST", "/api/queues", json: "{").status == 400)
        #expect(try connection.request("POST", "/api/queues", headers: ["Content-Type": "text/plain"], body: Array("x".utf8)).status == 415)
        #expect(try connection.request("POST", "/api/queues", json: #"{"name": ""}"#).status == 422)
        #expect(try connection.request("POST", "/api/queues", headers: ["Origin": "http://evil.example"], json: #"{"name": "x"}"#).status == 403)
        #expect(try connection.request("POST", "/api/queues", headers: ["Origin": "http://127.0.0.1:\(server.port)"], json: #"{"name": "x"}"#).status == 201)

        // A body declared over the limit is refused from its head alone, before a byte of it is
        // read; the JSON shape holds. (Sending the body too would race the server's close: the
        // client's write can fail with EPIPE before it reads the answer.)
        let oversized = try HTTPConnection(port: server.port)
        try oversized.send(Array("POST /api/queues HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(2 << 20)\r\n\r\n".utf8))
        let tooLarge = try oversized.readResponse()
        #expect(tooLarge.status == 413)
        #expect(tooLarge.errorCode == "contentTooLarge")

        // Traversal attempts, sent byte for byte.
        for target in ["/../README.md", "/media/../README.md", "/media/%2e%2e/README.md", "/media/%252e%252e/README.md", "/media/..%2fREADME.md", "/%2e%2e/%2e%2e/etc/passwd"] {
            let answer = try HTTPConnection(port: server.port).request("GET", target)
            #expect([400, 404].contains(answer.status), "\(target) → \(answer.status)")
            #expect(!answer.text.contains("hlsq is a headless"), "\(target)")
        }
        let range = try connection.request("GET", "/media/vod-ts/segment1.ts", headers: ["Range": "bytes=-188"])
        #expect(range.status == 206)
        #expect(range.body.count == 188)
    }

    @Test func theTokenComesFromTheEnvironmentAndGuardsTheAPI() throws {
        let server = try ServerProcess(environment: ["HLSQ_TOKEN": "t0ken"])
        let connection = try HTTPConnection(port: server.port)
        let refused = try connection.request("GET", "/api/queues")
        #expect(refused.status == 401)
        #expect(refused.errorCode == "unauthorized")
        #expect(try connection.request("GET", "/api/queues", headers: ["Authorization": "Bearer t0ken"]).status == 200)
        #expect(try connection.request("GET", "/api/health").status == 200)
        let events = try HTTPConnection(port: server.port).openEventStream("/api/events?token=t0ken")
        #expect(events.status == 200)
    }

    @Test func anEventArrivesSoonAfterEachMutation() throws {
        let server = try ServerProcess()
        let mutations = try HTTPConnection(port: server.port)
        let queue = try #require(try mutations.request("POST", "/api/queues", json: #"{"name": "Latency"}"#).json["id"] as? String)
        let events = try HTTPConnection(port: server.port, timeout: .seconds(3))
        #expect(try events.openEventStream("/api/events?queue=\(queue)").status == 200)

        // The bound is the issue's 200 ms. On a machine whose run queue is longer than twice
        // its cores (other builds running), scheduling alone can exceed it, so the bound is
        // relaxed there and the test says so: a slow delivery on an idle machine still fails.
        let loaded = Self.isMachineLoaded()
        let bound: Duration = loaded ? .seconds(1) : .milliseconds(200)
        var latencies: [Duration] = []
        for index in 0..<10 {
            let sent = ContinuousClock.now
            let answer = try mutations.request("PATCH", "/api/queues/\(queue)", json: #"{"name": "Latency \#(index)"}"#)
            #expect(answer.status == 200)
            while true {
                guard let event = try events.nextEvent() else {
                    Issue.record("no event within 3 s of mutation \(index)")
                    return
                }
                if event.type == "queueUpdated", event.json["name"] as? String == "Latency \(index)" {
                    latencies.append(ContinuousClock.now - sent)
                    break
                }
            }
        }
        let slowest = latencies.max() ?? .zero
        print("SSE latency from mutation sent to event read: median \(latencies.sorted()[latencies.count / 2]), max \(slowest), bound \(bound)\(loaded ? " (machine loaded)" : "")")
        #expect(slowest <= bound)
    }

    @Test func lastEventIDResumesWithoutLossAndAnUnknownIDAsksForAResync() throws {
        let server = try ServerProcess()
        let mutations = try HTTPConnection(port: server.port)
        let queue = try #require(try mutations.request("POST", "/api/queues", json: #"{"name": "Resume"}"#).json["id"] as? String)

        let first = try HTTPConnection(port: server.port, timeout: .seconds(3))
        #expect(try first.openEventStream("/api/events").status == 200)
        _ = try mutations.request("PATCH", "/api/queues/\(queue)", json: #"{"name": "one"}"#)
        var lastID = ""
        var seen: [Int] = []
        while let event = try first.nextEvent() {
            seen.append(Int(event.id ?? "") ?? -1)
            lastID = event.id ?? ""
            if event.type == "queueUpdated", event.json["name"] as? String == "one" { break }
        }
        #expect(!lastID.isEmpty)

        // Changes made while the client is away…
        for name in ["two", "three", "four"] {
            _ = try mutations.request("PATCH", "/api/queues/\(queue)", json: #"{"name": "\#(name)"}"#)
        }
        let missed = try #require(try mutations.request("GET", "/api/queues/\(queue)").json["lastEventId"] as? Int)

        // …arrive on reconnection, in order, each once: by header and by query.
        for (target, headers) in [("/api/events", ["Last-Event-ID": lastID]), ("/api/events?lastEventId=\(lastID)", [:])] {
            let again = try HTTPConnection(port: server.port, timeout: .seconds(3))
            #expect(try again.openEventStream(target, headers: headers).status == 200)
            var ids: [Int] = []
            var names: [String] = []
            while let event = try again.nextEvent() {
                ids.append(Int(event.id ?? "") ?? -1)
                if event.type == "queueUpdated", event.json["queueId"] as? String == queue,
                   let name = event.json["name"] as? String {
                    names.append(name)
                }
                if ids.last == missed { break }
            }
            #expect(ids == Array((Int(lastID) ?? 0) + 1...missed))
            #expect(names == ["two", "three", "four"])
        }

        // An id the server never gave (from before a restart, or beyond the ring) → resync.
        let stale = try HTTPConnection(port: server.port, timeout: .seconds(3))
        #expect(try stale.openEventStream("/api/events", headers: ["Last-Event-ID": String(missed + 1_000_000)]).status == 200)
        let resync = try #require(try stale.nextEvent())
        #expect(resync.type == "resync")
        #expect((resync.json["reason"] as? String)?.isEmpty == false)
        #expect(Int(resync.id ?? "") ?? 0 >= missed)
    }

    @Test func aRestartKeepsQueuesItemsAndTheirIds() throws {
        let server = try ServerProcess()
        var connection = try HTTPConnection(port: server.port)
        let queue = try #require(try connection.request("POST", "/api/queues", json: #"{"name": "Kept", "settings": {"consume": false}}"#).json["id"] as? String)
        for index in 0..<4 {
            _ = try connection.request("POST", "/api/queues/\(queue)/items", json: #"{"url": "\#(server.baseURL)/media/chapters.mp4?k=\#(index)", "title": "Item \#(index)"}"#)
        }
        let before = try connection.request("GET", "/api/queues/\(queue)").json
        let beforeItems = (before["items"] as? [[String: Any]])?.map { [$0["id"] as? String, $0["title"] as? String, $0["url"] as? String] }
        let stopped = server.stop(signal: SIGTERM)
        #expect(stopped.status == 0)
        #expect(stopped.duration < .seconds(2))

        try server.start()
        connection = try HTTPConnection(port: server.port)
        let after = try connection.request("GET", "/api/queues/\(queue)").json
        #expect(after["name"] as? String == "Kept")
        #expect((after["settings"] as? [String: Any])?["consume"] as? Bool == false)
        let afterItems = (after["items"] as? [[String: Any]])?.map { [$0["id"] as? String, $0["title"] as? String, $0["url"] as? String] }
        #expect(afterItems == beforeItems)
        // The demo is seeded once: the restart did not add another.
        let names = (try connection.request("GET", "/api/queues").json["queues"] as? [[String: Any]])?.map { $0["name"] as? String }
        #expect(names == ["Demo", "Kept"])
        // Event ids keep rising across the restart.
        #expect((after["lastEventId"] as? Int ?? 0) > (before["lastEventId"] as? Int ?? 0))
    }

    /// A queue that was playing plays again after a restart only when resuming is asked for,
    /// by the option or by the variable; otherwise it waits paused where it was.
    @Test(arguments: [(["--resume-playback"], [:], 1.0), ([], ["HLSQ_RESUME_PLAYBACK": "1"], 1.0), ([], [:], 0.0)])
    func aRestartResumesPlaybackOnlyWhenAsked(arguments: [String], environment: [String: String], rateAfterRestart: Double) throws {
        let server = try ServerProcess(arguments: arguments, environment: environment)
        var connection = try HTTPConnection(port: server.port)
        let played = try connection.request("POST", "/api/queues/q-1/commands", json: #"{"command": "play"}"#)
        #expect(played.json["rate"] as? Double == 1)
        #expect(server.stop(signal: SIGTERM).status == 0)

        try server.start()
        connection = try HTTPConnection(port: server.port)
        let after = try connection.request("GET", "/api/queues/q-1").json
        #expect(after["rate"] as? Double == rateAfterRestart)
    }

    /// Whether the one-minute load average exceeds twice the processors.
    static func isMachineLoaded() -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
              let load = Double(text.split(separator: " ").first ?? "")
        else { return false }
        return load > 2 * Double(ProcessInfo.processInfo.activeProcessorCount)
    }
}
