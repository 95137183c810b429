import MediaTime
import Testing

/// `[start, end)` in whole seconds.
private func range(_ start: Int64, _ end: Int64) -> TimeRange {
    TimeRange(start: MediaTime(seconds: start), end: MediaTime(seconds: end))
}

private func seconds(_ value: Int64) -> MediaTime {
    MediaTime(seconds: value)
}

@Suite struct TimeRangeTests {
    @Test func durationAndEnd() {
        let segment = TimeRange(start: MediaTime(decimalSeconds: "6.006")!, duration: MediaTime(decimalSeconds: "6.006")!)
        #expect(segment.end == MediaTime(decimalSeconds: "12.012")!)
        #expect(segment.duration == MediaTime(decimalSeconds: "6.006")!)
        let live = TimeRange(start: seconds(10), duration: .indefinite)
        #expect(live.isValid && !live.isEmpty)
        #expect(live.contains(seconds(1_000_000)))
        #expect(live.duration == .indefinite)
    }

    @Test(arguments: [
        (range(0, 2), true, false),
        (range(2, 2), true, true),
        (range(3, 2), false, true),
        (TimeRange(start: .indefinite, end: seconds(2)), false, true),
        (TimeRange(start: .zero, end: .invalid), false, true),
    ])
    func validity(range: TimeRange, valid: Bool, empty: Bool) {
        #expect(range.isValid == valid)
        #expect(range.isEmpty == empty)
        if !valid { #expect(range.duration == .invalid) }
    }

    @Test func containmentIsHalfOpen() {
        let r = range(2, 4)
        #expect(!r.contains(MediaTime(value: 1999, timescale: 1000)))
        #expect(r.contains(seconds(2)))
        #expect(r.contains(MediaTime(value: 3999, timescale: 1000)))
        #expect(!r.contains(seconds(4)))
        #expect(!r.contains(.indefinite))
        #expect(r.contains(range(2, 4)))
        #expect(r.contains(range(3, 4)))
        #expect(!r.contains(range(3, 5)))
    }

    @Test func intersectionAndClamp() {
        #expect(range(0, 4).intersection(range(2, 6)) == range(2, 4))
        #expect(range(0, 2).intersection(range(2, 6)) == nil)
        #expect(range(2, 4).clamp(seconds(1)) == seconds(2))
        #expect(range(2, 4).clamp(seconds(9)) == seconds(4))
        #expect(range(2, 4).clamp(seconds(3)) == seconds(3))
    }
}

@Suite struct TimeRangeSetTests {
    @Test(arguments: [
        ([range(0, 2), range(2, 4)], [range(0, 4)]),
        ([range(4, 6), range(0, 2)], [range(0, 2), range(4, 6)]),
        ([range(0, 2), range(4, 6), range(1, 5)], [range(0, 6)]),
        ([range(0, 2), range(4, 6), range(8, 10), range(3, 9)], [range(0, 2), range(3, 10)]),
        ([range(5, 6), range(0, 1), range(2, 3), range(1, 2)], [range(0, 3), range(5, 6)]),
        ([range(0, 10), range(2, 3)], [range(0, 10)]),
        ([range(2, 2), range(3, 1)], []),
        ([range(6, 8), range(4, 6), range(2, 4), range(0, 2)], [range(0, 8)]),
    ])
    func unionIsNormalized(inputs: [TimeRange], expected: [TimeRange]) {
        let set = TimeRangeSet(inputs)
        #expect(set.ranges == expected)
        #expect(set.checkInvariants())
        #expect(TimeRangeSet(inputs.reversed()) == set)
    }

    @Test func unionAcrossTimescales() {
        let a = TimeRange(start: .zero, end: MediaTime(value: 3003, timescale: 1000))
        let b = TimeRange(start: MediaTime(value: 270_270, timescale: 90000), end: seconds(6))
        let set = TimeRangeSet([a, b])
        #expect(set.ranges == [TimeRange(start: .zero, end: seconds(6))])
    }

    @Test func rangeContainingATime() {
        let set = TimeRangeSet([range(0, 2), range(4, 6)])
        #expect(set.range(containing: seconds(1)) == range(0, 2))
        #expect(set.range(containing: seconds(4)) == range(4, 6))
        #expect(set.range(containing: seconds(2)) == nil)
        #expect(set.range(containing: seconds(3)) == nil)
        #expect(set.range(containing: seconds(6)) == nil)
        #expect(set.range(containing: seconds(-1)) == nil)
        #expect(set.contains(MediaTime(value: 5999, timescale: 1000)))
        #expect(set.contains(range(4, 6)))
        #expect(!set.contains(range(1, 5)))
    }

    @Test func intersection() {
        let a = TimeRangeSet([range(0, 4), range(6, 10), range(12, 14)])
        let b = TimeRangeSet([range(2, 7), range(9, 13)])
        #expect(a.intersection(b).ranges == [range(2, 4), range(6, 7), range(9, 10), range(12, 13)])
        #expect(a.intersection(range(3, 12)).ranges == [range(3, 4), range(6, 10)])
        #expect(a.intersection(TimeRangeSet()).isEmpty)
    }

    @Test func totalDurationAndBounds() {
        let set = TimeRangeSet([range(0, 4), range(6, 10)])
        #expect(set.totalDuration == seconds(8))
        #expect(set.start == seconds(0))
        #expect(set.end == seconds(10))
        #expect(TimeRangeSet().totalDuration == .zero)
        let growing = set.union(TimeRange(start: seconds(20), duration: .indefinite))
        #expect(growing.totalDuration == .indefinite)
        #expect(growing.union(range(30, 40)).count == 3)
    }

    @Test func sequentialSegmentsStayOneRange() {
        let segment = MediaTime(decimalSeconds: "6.006")!
        var set = TimeRangeSet()
        var start = MediaTime.zero
        for _ in 0..<10_000 {
            set.formUnion(TimeRange(start: start, duration: segment))
            start += segment
        }
        #expect(set.count == 1)
        #expect(set.totalDuration == MediaTime(seconds: 60_060))
    }

    /// Checks the set against a brute-force model: a boolean per unit cell of the timeline.
    @Test func matchesAReferenceModel() {
        var generator = SplitMix64(seed: 2024)
        for _ in 0..<300 {
            var cellsA = [Bool](repeating: false, count: 72)
            var cellsB = cellsA
            var setA = TimeRangeSet()
            var setB = TimeRangeSet()
            for _ in 0..<Int(generator.next() % 12) {
                let (start, end) = Self.randomBounds(&generator)
                setA.formUnion(range(start, end))
                for cell in start..<max(start, end) { cellsA[Int(cell)] = true }
                let (startB, endB) = Self.randomBounds(&generator)
                setB.formUnion(range(startB, endB))
                for cell in startB..<max(startB, endB) { cellsB[Int(cell)] = true }
                #expect(setA.checkInvariants())
            }
            let union = setA.union(setB)
            let intersection = setA.intersection(setB)
            #expect(union.checkInvariants() && intersection.checkInvariants())
            #expect(union == setB.union(setA))
            #expect(intersection == setB.intersection(setA))
            for cell in 0..<72 {
                let time = MediaTime(value: Int64(cell) * 2 + 1, timescale: 2)
                #expect(setA.contains(time) == cellsA[cell])
                #expect(union.contains(time) == (cellsA[cell] || cellsB[cell]))
                #expect(intersection.contains(time) == (cellsA[cell] && cellsB[cell]))
            }
            let covered = Int64(cellsA.filter { $0 }.count)
            #expect(setA.totalDuration == MediaTime(seconds: covered))
        }
    }

    @Test func unionIsAssociative() {
        var generator = SplitMix64(seed: 77)
        for _ in 0..<300 {
            let sets = (0..<3).map { _ in
                TimeRangeSet((0..<4).map { _ in
                    let (start, end) = Self.randomBounds(&generator)
                    return range(start, end)
                })
            }
            #expect(sets[0].union(sets[1]).union(sets[2]) == sets[0].union(sets[1].union(sets[2])))
        }
    }

    private static func randomBounds(_ generator: inout SplitMix64) -> (Int64, Int64) {
        let start = Int64(generator.next() % 60)
        return (start, start + Int64(generator.next() % 8))
    }
}
