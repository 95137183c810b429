// The MicroHTTPD wrapper against nginx, side by side in one run, on loopback:
// - throughput: wrk -t2 -c32 -d5s against a static 21 KB JSON body on each server, in
//   alternating rounds;
// - latency: one keep-alive client's request round trip, median and 99th percentile;
// - fan-out: 1,000 clients each on an event stream; the time until every one has an event.
// The goals are for the Server's routes (GET /api/queues/{id}: at least half of
// nginx's rate; a mutation round trip: at most 300 µs median; 1,000 SSE clients receive an
// event within 100 ms at p99); this measures the wrapper alone, which bounds what the routes
// can reach. Needs nginx-light and wrk (`scripts/bootstrap --bench`).
import BenchmarkSupport
import Foundation
import HTTPBenchmarkSupport
import MicroHTTPD
import Synchronization

/// Keeps every event stream and writes each event to all of them, as the Server's event hub
/// will.
final class StreamHub: Sendable {
    private let streams = Mutex<[StreamingBody]>([])

    func add(_ stream: StreamingBody) {
        streams.withLock { $0.append(stream) }
    }

    var count: Int { streams.withLock { $0.count } }

    func broadcast(_ event: String) {
        let bytes = Array(event.utf8)
        for stream in streams.withLock({ $0 }) { stream.write(bytes) }
    }
}

/// Answers `/events` with an event stream and every other path with the same bytes, as
/// nginx answers with the file.
struct BenchmarkHandler: HTTPHandler {
    let body: [UInt8]
    let hub: StreamHub

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.path == "/events" else {
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], bytes: body)
        }
        let stream = StreamingBody()
        stream.write(": connected\n\n")
        hub.add(stream)
        return HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
    }
}

/// wrk against both servers in alternating rounds, keeping each server's best: other work
/// on the machine then skews the comparison less than one run of each would.
func measureThroughput(server: HTTPServer, nginx: NginxReference, rounds: Int) throws {
    print("      throughput is the best of \(rounds) alternating rounds of each")
    var wrapperLoads: [LoadResult] = []
    var nginxLoads: [LoadResult] = []
    var cpuPerRequest: [Double] = []
    for _ in 0..<rounds {
        let cpuBefore = processCPUTime()
        let wrapperLoad = try Wrk.run(url: "http://127.0.0.1:\(server.port)/static.json")
        cpuPerRequest.append(microseconds(processCPUTime() - cpuBefore) / Double(max(1, wrapperLoad.requests)))
        let nginxLoad = try Wrk.run(url: "http://127.0.0.1:\(nginx.port)/static.json")
        for (name, load) in [("MicroHTTPD", wrapperLoad), ("nginx", nginxLoad)] where load.errors > 0 || load.requests == 0 {
            throw BenchmarkError("\(name) answered \(load.errors) of \(load.requests) requests with an error")
        }
        wrapperLoads.append(wrapperLoad)
        nginxLoads.append(nginxLoad)
    }
    let wrapperRate = wrapperLoads.map(\.requestsPerSecond).max() ?? 0
    let nginxRate = nginxLoads.map(\.requestsPerSecond).max() ?? 0
    report("MicroHTTPD, static 21 KB, wrk -t2 -c32 -d5s", wrapperRate, "req/s")
    report("nginx, static 21 KB, wrk -t2 -c32 -d5s", nginxRate, "req/s")
    report("MicroHTTPD / nginx", wrapperRate / nginxRate, "ratio", goal: ">= 0.5 for GET /api/queues/{id}")
    // CPU time is steadier than throughput on a machine shared with other work.
    report("MicroHTTPD CPU time per request (user + system)", cpuPerRequest.min() ?? 0, "µs")
    if let p99 = wrapperLoads.compactMap(\.latencyP99).min() {
        report("MicroHTTPD latency under load, p99", microseconds(p99), "µs")
    }
    if let p99 = nginxLoads.compactMap(\.latencyP99).min() {
        report("nginx latency under load, p99", microseconds(p99), "µs")
    }
}

/// One keep-alive client's request round trips against each server.
func measureRoundTrips(server: HTTPServer, nginx: NginxReference) throws {
    let request = "GET /static.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    for (name, port) in [("MicroHTTPD", server.port), ("nginx", nginx.port)] {
        let probe = try KeepAliveProbe(port: port)
        _ = try probe.roundTrips(request: request, count: 200)
        let roundTrips = try probe.roundTrips(request: request, count: 5_000)
        report(
            "\(name) keep-alive round trip, median", microseconds(percentile(roundTrips, 0.5)), "µs",
            goal: name == "nginx" ? nil : "<= 300 for a mutation"
        )
        report("\(name) keep-alive round trip, p99", microseconds(percentile(roundTrips, 0.99)), "µs")
    }
}

/// `streamCount` clients on `/events`; each of 20 events is written to every stream from a
/// task, as the engine's events will be, while this thread reads all the sockets.
func measureFanOut(server: HTTPServer, hub: StreamHub, streamCount: Int) async throws {
    // Each server connection and each client socket is a descriptor.
    try raiseOpenFileLimit(to: 4 * streamCount)
    let clients = try EventStreamClients(
        port: server.port, path: "/events", count: streamCount, firstMarker: ": connected", timeout: .seconds(60)
    )
    var deliveries: [Duration] = []
    for index in 0..<20 {
        let start = ContinuousClock.now
        let event = "id: \(index)\ndata: {\"queue\":\"demo\",\"item\":\(index)}\n\n"
        Task.detached { hub.broadcast(event) }
        deliveries += try clients.waitForMarker("id: \(index)\n", since: start, timeout: .seconds(10))
        try await Task.sleep(for: .milliseconds(20))
    }
    deliveries.sort()
    report("SSE fan-out to \(streamCount) clients, median", microseconds(percentile(deliveries, 0.5)) / 1000, "ms")
    report("SSE fan-out to \(streamCount) clients, p99", microseconds(percentile(deliveries, 0.99)) / 1000, "ms", goal: "<= 100")
    report("peak resident memory, \(streamCount) streams open", Double(peakResidentMemoryBytes()) / 1_048_576, "MiB")
    withExtendedLifetime(clients) {}
}

let dataDirectory = URL(fileURLWithPath: "Benchmarks/data/http", isDirectory: true)
let root = dataDirectory.appendingPathComponent("root", isDirectory: true)
try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
let body = sampleJSON(atLeast: 21 * 1024)
try Data(body).write(to: root.appendingPathComponent("static.json"))

let processors = HTTPServer.Configuration.processorCount
let hub = StreamHub()
let server = try HTTPServer(
    configuration: HTTPServer.Configuration(threadPoolSize: processors),
    handler: BenchmarkHandler(body: body, hub: hub)
)
let nginx = try NginxReference(
    root: root, workDirectory: dataDirectory.appendingPathComponent("nginx"), workers: processors
)
print("HTTP: a \(body.count)-byte JSON body; \(processors) server threads, nginx with \(processors) workers;")
do {
    try measureThroughput(server: server, nginx: nginx, rounds: 3)
    try measureRoundTrips(server: server, nginx: nginx)
    nginx.stop()
    try await measureFanOut(server: server, hub: hub, streamCount: 1_000)
    await server.stop()
} catch {
    // nginx is a child process: it must not outlive a failed run.
    nginx.stop()
    await server.stop()
    print("HTTPServerBenchmark failed: \(error)")
    exit(1)
}
