// The Engine at the scale the issue names: starting up with a queue of 100,000 items (the
// Store's file check, reading every row, and rebuilding the queue player), the resident
// memory each queued item costs once running, and what one acknowledged mutation costs in
// a queue of 100 and of 100,000 items (every mutation is applied to a copy of the player
// until its transaction commits).
import BenchmarkSupport
import Engine
import Foundation
import Loader
import MediaTime
import Store

let dataFolder = "Benchmarks/data"
let restorePath = "\(dataFolder)/engine-restore.sqlite"
let itemCount = 100_000

/// A loader that loads nothing: the benchmark measures the Engine, not the network.
struct IdleLoader: ItemLoader {
    func load(_ request: ItemLoadRequest, directives: AsyncStream<LoadingDirectives>) -> AsyncStream<LoaderReport> {
        AsyncStream { _ in }
    }
}

func configuration(_ path: String) -> EngineConfiguration {
    EngineConfiguration(databasePath: path, loaders: ItemLoaders(mediaFile: IdleLoader(), hls: IdleLoader()))
}

func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

// Memory is measured in a process of its own, so that nothing allocated before counts.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--memory" {
    let before = currentResidentMemoryBytes() ?? 0
    let engine = try await Engine(configuration: configuration(CommandLine.arguments[2]))
    let after = currentResidentMemoryBytes() ?? 0
    let count = try await engine.queues().reduce(0) { $0 + $1.itemCount }
    await engine.shutdown()
    print(Double(after - before) / Double(count), Double(peakResidentMemoryBytes() - before) / Double(count))
    exit(0)
}

try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
removeDatabase(restorePath)
do {
    let store = try Store(path: restorePath)
    let queue = try store.createQueue(name: "large")
    let items = (0..<itemCount).map { index in
        Store.ItemAttributes(url: "https://media.example.com/channels/\(index)/index.m3u8", title: "Channel \(index)", kind: .hls)
    }
    let inserted = try store.insertItems(items, into: queue.id)
    try store.savePlayback(Store.Playback(currentItemID: inserted[0].id), of: queue.id)
    try store.savePlayhead(MediaTime(value: 12_345, timescale: 1000), of: inserted[0].id)
}

print("Engine: start-up with one queue of \(itemCount) items")
// Other builds share this machine's two cores: the processor time each step used is
// reported beside its wall-clock time, as it depends far less on that load.
func processorTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// The median wall-clock and processor time of `runs` runs, after one to warm up. `body`
/// runs the work and returns its result, which `finish` disposes of untimed.
func timed<Result>(
    runs: Int = 5, _ body: () async throws -> Result, finish: (Result) async throws -> Void = { keep($0) }
) async throws -> (wall: Double, processor: Double) {
    var walls: [Double] = []
    var processors: [Double] = []
    for run in 0...runs {
        let (wallStart, processorStart) = (ContinuousClock.now, processorTime())
        let result = try await body()
        let (wallEnd, processorEnd) = (ContinuousClock.now, processorTime())
        try await finish(result)
        guard run > 0 else { continue }
        walls.append(Timing.nanoseconds(wallEnd - wallStart, per: 1) / 1e6)
        processors.append(Timing.nanoseconds(processorEnd - processorStart, per: 1) / 1e6)
    }
    return (walls.sorted()[runs / 2], processors.sorted()[runs / 2])
}

let open = try await timed { try Store(path: restorePath) }
let readingStore = try Store(path: restorePath)
let read = try await timed { try readingStore.restoreAllQueues() }
let start = try await timed {
    try await Engine(configuration: configuration(restorePath))
} finish: { engine in
    let restored = try await engine.queues()
    precondition(restored.first?.itemCount == itemCount)
    await engine.shutdown()
    // The loader tasks end, and the engine is freed, on other threads: not during the next
    // run, whose processor time would count it.
    try await Task.sleep(for: .milliseconds(500))
}
report("engine start-up, 100,000 items (median)", start.wall, "ms")
report("  processor time", start.processor, "ms")
report("  of which opening the file (quick_check)", open.wall, "ms")
report("restore 100,000 items through the engine", start.wall - open.wall, "ms", goal: "<= 300 ms")
report("  processor time", start.processor - open.processor, "ms", goal: "<= 300 ms")
report("  of which reading the rows (the Store)", read.wall, "ms")
report("  of which rebuilding the queue player", start.wall - open.wall - read.wall, "ms")
report("  processor time of the rebuilding", start.processor - open.processor - read.processor, "ms")

let child = Process()
child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
child.arguments = ["--memory", restorePath]
let output = Pipe()
child.standardOutput = output
try child.run()
let figures = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    .split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
child.waitUntilExit()
report("resident memory per queued item (running)", figures.first ?? .nan, "bytes", goal: "<= 1024 bytes")
report("peak memory per item during start-up", figures.last ?? .nan, "bytes")

// One acknowledged mutation: validate, write, apply, publish.
for size in [100, itemCount] {
    let path = "\(dataFolder)/engine-mutations-\(size).sqlite"
    removeDatabase(path)
    let engine = try await Engine(configuration: configuration(path))
    let queue = try await engine.createQueue(name: "mutations").id
    let items = (0..<size).map { NewItem(url: "https://media.example.com/\($0)/index.m3u8", title: "Item \($0)") }
    var ids = try await engine.importItems(items, into: queue).map(\.id)
    var timings: [Duration] = []
    var generator = SystemRandomNumberGenerator()
    for index in 0..<201 {
        let anchor = ids[Int.random(in: 1..<ids.count, using: &generator)]
        let started = ContinuousClock.now
        let added = try await engine.addItem(NewItem(url: "https://media.example.com/added/\(index).mp4"), to: queue, at: .after(anchor))
        timings.append(ContinuousClock.now - started)
        ids.append(added.id)
    }
    timings.sort()
    report("add one item in a queue of \(size), acknowledged (median)",
           Timing.nanoseconds(timings[timings.count / 2], per: 1) / 1e3, "µs")
    timings = []
    for _ in 0..<201 {
        let item = ids[Int.random(in: 1..<ids.count, using: &generator)]
        let anchor = ids[Int.random(in: 1..<ids.count, using: &generator)]
        guard item != anchor else { continue }
        let started = ContinuousClock.now
        _ = try await engine.moveItem(item, in: queue, to: .after(anchor))
        timings.append(ContinuousClock.now - started)
    }
    timings.sort()
    report("move one item in a queue of \(size), acknowledged (median)",
           Timing.nanoseconds(timings[timings.count / 2], per: 1) / 1e3, "µs")
    await engine.shutdown()
}
