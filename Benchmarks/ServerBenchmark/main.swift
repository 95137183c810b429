// The Server's routes against the issue's goals, on loopback, with the real Engine and
// database behind them:
// - GET /api/queues/{id} for a queue of 100 items against nginx serving a static 21 KB JSON
//   file, wrk -t2 -c32 -d5s, alternating rounds (goal: at least half of nginx's rate);
// - a mutation round trip over one keep-alive connection: moving an item to the end of a
//   three-item queue, which commits a transaction every time (goal: median at most 300 µs);
//   adding an item, for reference;
// - 1,000 clients on GET /api/events?queue=…: the time from a mutation until every client
//   has read its event (goal: 99th percentile at most 100 ms).
// Needs nginx-light and wrk (`scripts/bootstrap --bench`).
import BenchmarkSupport
import Engine
import Foundation
import HTTPBenchmarkSupport
import Loader
import MicroHTTPD
import Server

/// Waits until no event has been published for `quiet` (the items finished loading), at
/// most `timeout`.
func waitUntilQuiet(_ engine: Engine, quiet: Duration = .seconds(1), timeout: Duration = .seconds(30)) async throws {
    let deadline = ContinuousClock.now + timeout
    var last = engine.events.lastEventID
    var since = ContinuousClock.now
    while ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
        let now = engine.events.lastEventID
        if now != last {
            last = now
            since = ContinuousClock.now
        } else if ContinuousClock.now - since >= quiet {
            return
        }
    }
}

func measureSnapshotThroughput(server: HLSQServer, queue: QueueID, nginx: NginxReference, rounds: Int) throws {
    let snapshotURL = server.baseURL + "/api/queues/\(queue)"
    let probe = try KeepAliveProbe(port: server.http.port)
    _ = try probe.roundTrips(request: "GET /api/queues/\(queue) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 1)
    let size = server.router.cachedSnapshotSize(of: queue) ?? 0
    print("      GET /api/queues/\(queue): \(size) bytes for 100 items; best of \(rounds) alternating rounds")
    var serverRates: [Double] = []
    var nginxRates: [Double] = []
    var cpuPerRequest: [Double] = []
    for _ in 0..<rounds {
        let cpuBefore = processCPUTime()
        let load = try Wrk.run(url: snapshotURL)
        cpuPerRequest.append(microseconds(processCPUTime() - cpuBefore) / Double(max(1, load.requests)))
        let reference = try Wrk.run(url: "http://127.0.0.1:\(nginx.port)/static.json")
        for (name, result) in [("hlsq", load), ("nginx", reference)] where result.errors > 0 || result.requests == 0 {
            throw BenchmarkError("\(name) answered \(result.errors) of \(result.requests) requests with an error")
        }
        serverRates.append(load.requestsPerSecond)
        nginxRates.append(reference.requestsPerSecond)
    }
    let serverRate = serverRates.max() ?? 0
    let nginxRate = nginxRates.max() ?? 0
    report("GET /api/queues/{id}, 100 items, wrk -t2 -c32 -d5s", serverRate, "req/s")
    report("nginx, static 21 KB JSON, wrk -t2 -c32 -d5s", nginxRate, "req/s")
    report("GET /api/queues/{id} / nginx", serverRate / nginxRate, "ratio", goal: ">= 0.5")
    // CPU time is steadier than throughput on a machine shared with other work.
    report("GET /api/queues/{id}, CPU time per request (user + system)", cpuPerRequest.min() ?? 0, "µs")
}

/// A move request that puts `item` at the end of `queue`.
func moveToEnd(_ item: String, in queue: QueueID) -> String {
    let body = #"{"after":null}"#
    return "POST /api/queues/\(queue)/items/\(item)/move HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
}

/// Round trips of real moves: the second and third entries of a three-entry queue go to
/// the end in turn, so every request changes the order and commits a transaction.
func measureMutationRoundTrips(server: HLSQServer, queue: QueueID, items: [ItemState], addingTo adds: QueueID) async throws {
    let probe = try KeepAliveProbe(port: server.http.port)
    let requests = [moveToEnd(items[1].id.rawValue, in: queue), moveToEnd(items[2].id.rawValue, in: queue)]
    for index in 0..<200 { _ = try probe.roundTrips(request: requests[index % 2], count: 1) }
    let cpuBefore = processCPUTime()
    var moves: [Duration] = []
    for index in 0..<3_000 { moves += try probe.roundTrips(request: requests[index % 2], count: 1) }
    let cpuPerMove = microseconds(processCPUTime() - cpuBefore) / 3_000
    moves.sort()
    report("mutation round trip (move, one keep-alive client), median", microseconds(percentile(moves, 0.5)), "µs", goal: "<= 300")
    report("mutation round trip (move), p99", microseconds(percentile(moves, 0.99)), "µs")
    // Client and server share this process: the CPU time covers both sides of each trip.
    report("mutation round trip (move), CPU time per trip, both sides", cpuPerMove, "µs")

    // The same moves as direct Engine calls, without HTTP: what the route adds is the rest.
    var direct: [Duration] = []
    for index in 0..<1_000 {
        let start = ContinuousClock.now
        _ = try await server.engine.moveItem(items[1 + index % 2].id, in: queue, to: .end)
        direct.append(ContinuousClock.now - start)
    }
    direct.sort()
    report("the same move as a direct Engine call, median", microseconds(percentile(direct, 0.5)), "µs")

    let health = try probe.roundTrips(request: "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 2_000)
    report("GET /api/health round trip (a task and an Engine call), median", microseconds(percentile(health, 0.5)), "µs")

    let addBody = #"{"url":"\#(server.baseURL)/media/chapters.mp4?bench"}"#
    let add = "POST /api/queues/\(adds)/items HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(addBody.utf8.count)\r\n\r\n\(addBody)"
    let addTrips = try probe.roundTrips(request: add, count: 1_000)
    report("mutation round trip (add an item), median", microseconds(percentile(addTrips, 0.5)), "µs")
}

func measureFanOut(server: HLSQServer, queue: QueueID, itemCount: Int, streamCount: Int, events: Int) async throws {
    try raiseOpenFileLimit(to: 4 * streamCount + 256)
    let clients = try EventStreamClients(
        port: server.http.port, path: "/api/events?queue=\(queue)", count: streamCount,
        firstMarker: "retry: 1000", timeout: .seconds(60))
    var deliveries: [Duration] = []
    for index in 0..<events {
        let name = "fan-out \(index)"
        let start = ContinuousClock.now
        let engine = server.engine
        Task.detached { _ = try? await engine.updateQueue(queue, QueueChanges(name: name)) }
        deliveries += try clients.waitForMarker("\"name\":\"\(name)\"", since: start, timeout: .seconds(10))
        try await Task.sleep(for: .milliseconds(50))
    }
    deliveries.sort()
    let label = "SSE: \(streamCount) clients receive queueUpdated (\(itemCount) items)"
    report("\(label), median", microseconds(percentile(deliveries, 0.5)) / 1000, "ms")
    report("\(label), p99", microseconds(percentile(deliveries, 0.99)) / 1000, "ms", goal: itemCount <= 3 ? "<= 100" : nil)
    report("peak resident memory", Double(peakResidentMemoryBytes()) / 1_048_576, "MiB")
    withExtendedLifetime(clients) {}
}

let dataDirectory = URL(fileURLWithPath: "Benchmarks/data/server", isDirectory: true)
try? FileManager.default.removeItem(at: dataDirectory)
let root = dataDirectory.appendingPathComponent("nginx-root", isDirectory: true)
try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
try Data(sampleJSON(atLeast: 21 * 1024)).write(to: root.appendingPathComponent("static.json"))

let processors = HTTPServer.Configuration.processorCount
let client = try HTTPClient()
// No preloading: moving an entry would otherwise start and stop the loading of whichever
// entry becomes next, and the round trips would measure those downloads (from this very
// server) rather than the mutation.
let engine = try await Engine(configuration: EngineConfiguration(
    databasePath: dataDirectory.appendingPathComponent("hlsq.sqlite").path, loaders: ItemLoaders(client: client),
    preloadCount: 0))
let server = try HLSQServer(
    engine: engine,
    configuration: ServerConfiguration(publicFolder: "Public", mediaFolder: "playlists", playlistClient: client),
    http: HTTPServer.Configuration(threadPoolSize: processors))
let nginx = try NginxReference(root: root, workDirectory: dataDirectory.appendingPathComponent("nginx"), workers: processors)
print("Server: the real Engine and database; \(processors) server threads, nginx with \(processors) workers")
do {
    let big = try await engine.createQueue(name: "Hundred")
    _ = try await engine.importItems(
        (0..<100).map { NewItem(url: server.baseURL + "/media/chapters.mp4?item=\($0)", title: "Item \($0)") }, into: big.id)
    var small = QueueSettings()
    small.consume = false
    let moving = try await engine.createQueue(name: "Moves", settings: small)
    let three = try await engine.importItems(
        (0..<3).map { NewItem(url: server.baseURL + "/media/chapters.mp4?move=\($0)") }, into: moving.id)
    let adds = try await engine.createQueue(name: "Adds")
    try await waitUntilQuiet(engine)

    try measureSnapshotThroughput(server: server, queue: big.id, nginx: nginx, rounds: 3)
    nginx.stop()
    try await measureMutationRoundTrips(server: server, queue: moving.id, items: three, addingTo: adds.id)
    // Each mutation publishes queueUpdated with the queue's snapshot: what fans out grows
    // with the queue. The goal is measured on a small queue, and a 100-item one is shown.
    try await measureFanOut(server: server, queue: moving.id, itemCount: 3, streamCount: 1_000, events: 20)
    try await measureFanOut(server: server, queue: big.id, itemCount: 100, streamCount: 1_000, events: 5)
    await server.stop()
} catch {
    nginx.stop()
    await server.stop()
    print("ServerBenchmark failed: \(error)")
    exit(1)
}
