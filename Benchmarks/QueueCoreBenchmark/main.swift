// Queue operations on a queue of 100,000 items, and the playback clock with a periodic
// observer. Goals (issue 4): insert, move, remove and advance at most 20 µs each, with no
// operation linear in the queue's length; 10,000 periodic-observer ticks at most 10 ms.
import BenchmarkSupport
import MediaTime
import QueueCore

let operationsPerRound = 2_000
let rounds = 5

func makeQueue(count: Int, consume: Bool, clock: ManualClock) -> QueuePlayer {
    let items = (0..<count).map { PlayerItem(id: ItemID("item-\($0)"), url: "https://media.test/\($0).m3u8", kind: .hls) }
    let snapshot = QueueSnapshot(
        settings: QueueSettings(consume: consume, loopMode: .queue), items: items, currentItemID: items.first?.id)
    do {
        var player = try QueuePlayer(snapshot: snapshot, clock: clock)
        keep(player.tick())
        return player
    } catch {
        fatalError("the benchmark's snapshot is valid: \(error)")
    }
}

/// The best time per operation over `rounds` rounds of `operationsPerRound` operations.
func bestNanosecondsPerOperation(_ round: (Int) throws -> Duration) rethrows -> Double {
    try (0..<rounds).map { Timing.nanoseconds(try round($0), per: operationsPerRound) }.min() ?? .nan
}

func time(_ body: () throws -> Void) rethrows -> Duration {
    try ContinuousClock().measure(body)
}

/// Figures for one queue size: insert, move, remove, advance and lookups, in ns per operation.
func queueOperations(count: Int) throws -> [String: Double] {
    let clock = ManualClock()
    var player = makeQueue(count: count, consume: false, clock: clock)
    var generator = SplitMix64(seed: 42)
    var figures: [String: Double] = [:]
    func randomID() -> ItemID { ItemID("item-\(Int.random(in: 0..<count, using: &generator))") }

    var insertTimes: [Double] = []
    var removeTimes: [Double] = []
    for round in 0..<rounds {
        let fresh = (0..<operationsPerRound).map { PlayerItem(id: ItemID("new-\(round)-\($0)"), url: "https://media.test/new.m3u8") }
        let anchors = (0..<operationsPerRound).map { _ in randomID() }
        insertTimes.append(Timing.nanoseconds(try time {
            for (item, anchor) in zip(fresh, anchors) { keep(try player.insert(item, after: anchor)) }
        }, per: operationsPerRound))
        removeTimes.append(Timing.nanoseconds(try time {
            for item in fresh { keep(try player.remove(item.id)) }
        }, per: operationsPerRound))
    }
    figures["insert after an item"] = insertTimes.min()
    figures["remove"] = removeTimes.min()

    figures["insert at an index, then remove"] = try bestNanosecondsPerOperation { round in
        let fresh = (0..<operationsPerRound).map { PlayerItem(id: ItemID("indexed-\(round)-\($0)"), url: "https://media.test/new.m3u8") }
        let indices = (0..<operationsPerRound).map { _ in Int.random(in: 1...count, using: &generator) }
        return try time {
            for (item, index) in zip(fresh, indices) {
                keep(try player.insert(item, at: index))
                keep(try player.remove(item.id))
            }
        }
    }

    figures["move after an item"] = try bestNanosecondsPerOperation { _ in
        let pairs = (0..<operationsPerRound).map { _ in (randomID(), randomID()) }
        return try time {
            for (id, anchor) in pairs { keep(try player.move(id, after: anchor)) }
        }
    }

    figures["move to an index"] = try bestNanosecondsPerOperation { _ in
        let pairs = (0..<operationsPerRound).map { _ in (randomID(), Int.random(in: 0..<count, using: &generator)) }
        return try time {
            for (id, index) in pairs { keep(try player.move(id, to: index)) }
        }
    }

    figures["advance, consume off (pointer walks)"] = try bestNanosecondsPerOperation { _ in
        try time {
            for _ in 0..<operationsPerRound { keep(try player.advanceToNextItem()) }
        }
    }

    figures["index of an item, item at an index"] = bestNanosecondsPerOperation { _ in
        let ids = (0..<operationsPerRound).map { _ in randomID() }
        return time {
            for id in ids {
                if let index = player.index(of: id) { keep(player.item(at: index)) }
            }
        }
    }

    // With consume on and queue loop, the current entry goes to history and round to the
    // end: the queue keeps its size while every advance restructures it.
    var consuming = makeQueue(count: count, consume: true, clock: clock)
    figures["advance, consume on (item leaves for history)"] = try bestNanosecondsPerOperation { _ in
        try time {
            for _ in 0..<operationsPerRound { keep(try consuming.advanceToNextItem()) }
        }
    }
    precondition(player.checkInvariants() && consuming.checkInvariants())
    precondition(player.count == count && consuming.count == count)
    return figures
}

print("QueueCore: queue operations (ns per operation, best of \(rounds) rounds of \(operationsPerRound))")
let small = try queueOperations(count: 10_000)
let large = try queueOperations(count: 100_000)
for name in small.keys.sorted() {
    let atLarge = large[name] ?? .nan
    report("\(name), 100,000 items", atLarge, "ns/op", goal: "<= 20000")
    report("  the same, 10,000 items (growth x\(String(format: "%.2f", atLarge / (small[name] ?? .nan))))",
           small[name] ?? .nan, "ns/op")
}

// The playback clock: a playing item, fully loaded, with a periodic observer that fires on
// every tick of 10 ms.
let clock = ManualClock()
var player = try QueuePlayer(clock: clock)
let long = PlayerItem(id: ItemID("long"), url: "https://media.test/long.m3u8", kind: .hls)
keep(try player.insert(long, after: nil))
let duration = MediaTime(seconds: 1_000_000)
keep(try player.report(.readyToPlay(duration: duration, kind: .hls), for: long.id))
keep(try player.report(.loadedTimeRanges(TimeRangeSet([TimeRange(start: .zero, end: duration)])), for: long.id))
keep(try player.report(.seekableTimeRanges(TimeRangeSet([TimeRange(start: .zero, end: duration)])), for: long.id))
let observer = try player.addPeriodicTimeObserver(interval: MediaTime(value: 10, timescale: 1000))
keep(try player.play())
precondition(player.timeControlStatus == .playing)

let tickCount = 10_000
var fired = 0
let ticks = measure {
    fired = 0
    for _ in 0..<tickCount {
        clock.advance(nanoseconds: 10_000_000)
        for notification in player.tick().notifications {
            if case .periodicTime(let id, _, _) = notification, id == observer { fired += 1 }
        }
    }
}
precondition(fired == tickCount, "the observer fired \(fired) times in \(tickCount) ticks")
report("10,000 periodic-observer ticks", Timing.nanoseconds(ticks.best, per: 1) / 1e6, "ms", goal: "<= 10")
report("one tick", ticks.bestNanoseconds(per: tickCount), "ns")
report("peak resident memory", Double(peakResidentMemoryBytes()) / 1_048_576, "MiB")
