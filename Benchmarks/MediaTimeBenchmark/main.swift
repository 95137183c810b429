// Rational time and loaded-range bookkeeping at the scale of a 12-hour VOD:
// 100,000 segments of 6.006 s. The loader's goal is at most 1 µs per segment.
import BenchmarkSupport
import MediaTime

let segmentCount = 100_000
let durationTexts = (0..<segmentCount).map { $0 % 7 == 0 ? "5.005" : "6.006" }

print("MediaTime: \(segmentCount) segments")

var total = MediaTime.zero
let parseAndSum = measure {
    total = .zero
    for text in durationTexts {
        total += MediaTime(decimalSeconds: text)!
    }
}
report("parse EXTINF decimal and sum exactly", parseAndSum.bestNanoseconds(per: segmentCount), "ns/segment")
let shortCount = Int64((segmentCount + 6) / 7)
let exactTotal = MediaTime(value: shortCount * 5005 + (Int64(segmentCount) - shortCount) * 6006, timescale: 1000)
precondition(total == exactTotal, "the sum \(total) is not \(exactTotal)")

let segments: [TimeRange] = {
    var start = MediaTime.zero
    return durationTexts.map { text in
        let duration = MediaTime(decimalSeconds: text)!
        defer { start += duration }
        return TimeRange(start: start, duration: duration)
    }
}()

var loaded = TimeRangeSet()
let inOrder = measure {
    loaded = TimeRangeSet()
    for segment in segments { loaded.formUnion(segment) }
}
precondition(loaded.count == 1)
report("loaded ranges, segments in order", inOrder.bestNanoseconds(per: segmentCount), "ns/segment", goal: "<= 1000")

// Every other segment first, then the gaps: the set grows to 50,000 ranges and merges back.
var generator = SystemRandomNumberGenerator()
let interleaved = segments.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    + segments.enumerated().filter { $0.offset % 2 == 1 }.map(\.element).shuffled(using: &generator)
let scattered = measure {
    loaded = TimeRangeSet()
    for segment in interleaved { loaded.formUnion(segment) }
}
precondition(loaded.count == 1)
// A worst case, not a loading pattern: each hole filled shifts the tail of a large array.
report("loaded ranges, worst case: 50,000 holes filled", scattered.bestNanoseconds(per: segmentCount), "ns/segment")

let lookups = measure {
    var found = 0
    for segment in segments where loaded.range(containing: segment.start) != nil { found += 1 }
    keep(found)
}
report("contiguous range around a time", lookups.bestNanoseconds(per: segmentCount), "ns/lookup")
