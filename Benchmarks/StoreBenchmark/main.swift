// The store at the scale the issue names: bulk imports of 10,000 items, single mutations
// committed one by one, and restoring a queue of 100,000 items at start-up. The writes are
// measured at both durability levels: survivesProcessCrash (synchronous = NORMAL, the
// default) and survivesPowerLoss (FULL, one fsync per commit). Restoring only reads.
import BenchmarkSupport
import Foundation
import MediaTime
import Store

let dataFolder = "Benchmarks/data"
try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)

/// Items as an import makes them: a long URL, a title, a known kind.
func items(_ count: Int, prefix: String) -> [Store.ItemAttributes] {
    (0..<count).map { index in
        Store.ItemAttributes(url: "https://media.example.com/channels/\(prefix)/\(index)/index.m3u8",
                             title: "Channel \(prefix) \(index)", kind: .hls)
    }
}

/// A new store file, deleting what a previous run left.
func freshStore(_ name: String, _ durability: Store.Durability) throws -> Store {
    let path = "\(dataFolder)/\(name).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    return try Store(path: path, configuration: Store.Configuration(durability: durability))
}

// Restoring measures memory in a process of its own, so that nothing allocated before counts.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--restore-memory" {
    let store = try Store(path: CommandLine.arguments[2])
    let queue = try store.queues()[0]
    let before = currentResidentMemoryBytes() ?? 0
    let restored = try store.restoreQueue(queue.id)
    let after = currentResidentMemoryBytes() ?? 0
    keep(restored)
    print(Double(after - before) / Double(restored.items.count))
    exit(0)
}

print("Store: SQLite \(Store.sqliteVersion), WAL mode")
print("MPD reference (over its protocol, nothing durable): 10,000 URL appends in 57 ms; 138–179 µs per add, move or delete")

for (durability, level) in [(Store.Durability.survivesProcessCrash, "NORMAL"), (.survivesPowerLoss, "FULL")] {
    print("\nsynchronous = \(level)")
    let store = try freshStore("bench-\(level)", durability)

    // Bulk import: one transaction of 10,000 inserts, committed.
    let importCount = 10_000
    let batch = items(importCount, prefix: "import")
    var importQueues = try (0..<8).map { try store.createQueue(name: "import \($0)").id }
    let bulk = measure {
        try! store.insertItems(batch, into: importQueues.removeLast())
    }
    report("bulk import of 10,000 items, committed (median)", bulk.medianNanoseconds(per: 1) / 1e6, "ms",
           goal: "<= 50 ms (MPD: 57 ms)")
    report("bulk import of 10,000 items, committed (best)", bulk.bestNanoseconds(per: 1) / 1e6, "ms")

    // Single mutations, each its own committed transaction, in a queue of 10,000 items.
    let queue = try store.createQueue(name: "single")
    var ids = try store.insertItems(items(10_000, prefix: "single"), into: queue.id).map(\.id)
    var generator = SystemRandomNumberGenerator()
    var added = 0
    let add = measure(repetitions: 1_001) {
        let item = try! store.insertItem(Store.ItemAttributes(url: "https://media.example.com/added/\(added).m3u8",
                                                              title: "Added \(added)"),
                                         into: queue.id, at: .after(ids.randomElement(using: &generator)!))
        ids.append(item.id)
        added += 1
    }
    report("add one item, committed (median)", add.medianNanoseconds(per: 1) / 1e3, "µs",
           goal: "<= 150 µs (MPD: 138–179 µs)")

    let move = measure(repetitions: 1_001) {
        let item = ids.randomElement(using: &generator)!
        var anchor = ids.randomElement(using: &generator)!
        while anchor == item { anchor = ids.randomElement(using: &generator)! }
        try! store.moveItem(item, to: .after(anchor))
    }
    report("move one item, committed (median)", move.medianNanoseconds(per: 1) / 1e3, "µs",
           goal: "<= 150 µs (MPD: 138–179 µs)")

    ids.shuffle(using: &generator)
    let delete = measure(repetitions: 1_001) {
        try! store.removeItem(ids.removeLast())
    }
    report("delete one item, committed (median)", delete.medianNanoseconds(per: 1) / 1e3, "µs",
           goal: "<= 150 µs (MPD: 138–179 µs)")

    // A different time each time: SQLite writes nothing for a row updated to what it holds.
    var frames: Int64 = 0
    let playhead = measure(repetitions: 1_001) {
        frames += 1001
        try! store.savePlayhead(MediaTime(value: frames, timescale: 30000), of: ids[0])
    }
    report("save the playhead, committed (median)", playhead.medianNanoseconds(per: 1) / 1e3, "µs")
}

// Restoring a queue of 100,000 items from a closed file, as at start-up.
print("\nrestoring a queue of 100,000 items")
let restoreCount = 100_000
let restorePath = "\(dataFolder)/bench-restore.sqlite"
do {
    let store = try freshStore("bench-restore", .survivesProcessCrash)
    let queue = try store.createQueue(name: "large")
    try store.insertItems(items(restoreCount, prefix: "restore"), into: queue.id)
    // Moves spread fractional keys through the list, as a queue edited for a while has.
    let ids = try store.items(in: queue.id).map(\.id)
    var generator = SystemRandomNumberGenerator()
    try store.transaction {
        for _ in 0..<10_000 {
            let item = ids.randomElement(using: &generator)!
            var anchor = ids.randomElement(using: &generator)!
            while anchor == item { anchor = ids.randomElement(using: &generator)! }
            try store.moveItem(item, to: .after(anchor))
        }
    }
}

let open = measure(repetitions: 5) {
    keep(try! Store(path: restorePath))
}
report("open the file: quick_check and migrations", open.medianNanoseconds(per: 1) / 1e6, "ms")

let restoringStore = try Store(path: restorePath)
let restoredQueue = try restoringStore.queues()[0].id
var restoredCount = 0
let restore = measure(repetitions: 5) {
    let restored = try! restoringStore.restoreQueue(restoredQueue)
    restoredCount = restored.items.count
    keep(restored)
}
precondition(restoredCount == restoreCount)
report("restore a queue of 100,000 items (median)", restore.medianNanoseconds(per: 1) / 1e6, "ms", goal: "<= 300 ms")
report("restore a queue of 100,000 items (best)", restore.bestNanoseconds(per: 1) / 1e6, "ms")

let child = Process()
child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
child.arguments = ["--restore-memory", restorePath]
let output = Pipe()
child.standardOutput = output
try child.run()
let perItem = Double(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
child.waitUntilExit()
report("resident memory per restored item (RSS delta)", perItem, "bytes", goal: "<= 1024 bytes")
