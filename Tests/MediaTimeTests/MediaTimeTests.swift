import MediaTime
import Testing

private func time(_ value: Int64, _ timescale: Int32) -> MediaTime {
    MediaTime(value: value, timescale: timescale)
}

@Suite struct MediaTimeArithmeticTests {
    @Test(arguments: [
        (time(1, 2), time(1, 3), time(5, 6)),
        (time(6006, 1000), time(6006, 1000), time(12012, 1000)),
        (time(3003, 90000), time(1, 1000), time(3093, 90000)),
        (time(-1, 4), time(1, 4), MediaTime.zero),
        (time(1, 48000), time(1, 44100), time(307, 7_056_000)),
        (MediaTime.indefinite, time(5, 1), MediaTime.indefinite),
        (time(5, 1), MediaTime.indefinite, MediaTime.indefinite),
        (MediaTime.invalid, MediaTime.indefinite, MediaTime.invalid),
        (time(5, 1), MediaTime.invalid, MediaTime.invalid),
    ])
    func addition(lhs: MediaTime, rhs: MediaTime, sum: MediaTime) {
        #expect(lhs + rhs == sum)
        #expect(rhs + lhs == sum)
    }

    @Test(arguments: [
        (time(5, 6), time(1, 3), time(1, 2)),
        (time(1, 1000), time(1, 90000), time(89, 90000)),
        (time(0, 1), time(3, 2), time(-3, 2)),
        (MediaTime.indefinite, time(1, 1), MediaTime.indefinite),
    ])
    func subtraction(lhs: MediaTime, rhs: MediaTime, difference: MediaTime) {
        #expect(lhs - rhs == difference)
    }

    @Test func sumOfHundredThousandSegmentsIsExact() {
        let segment = MediaTime(decimalSeconds: "6.006")!
        let total = MediaTime.sum(repeatElement(segment, count: 100_000))
        #expect(total == MediaTime(seconds: 600_600))
        #expect(total.value == 600_600_000)
        #expect(total.timescale == 1000)
    }

    @Test func sameTimescaleKeepsTimescale() {
        let sum = time(1, 90000) + time(2, 90000)
        #expect(sum.value == 3)
        #expect(sum.timescale == 90000)
    }

    @Test(arguments: [
        (time(.max, 1), time(1, 1)),
        (time(.min, 1), time(-1, 1)),
        (time(.max, 7), time(1, 11)),
        (time(1, .max), time(1, .max - 1)),
    ])
    func overflowIsDetectedNeverWrapped(lhs: MediaTime, rhs: MediaTime) {
        #expect(lhs + rhs == .invalid)
    }

    @Test func overflowRecoversThroughReduction() {
        // Both operands reduce to n/1, where the sum fits.
        let big = time(.max - 1, 2)
        #expect(big + time(2, 2) == time((.max - 1) / 2 + 1, 1))
        #expect(big + time(1, 1) == time((.max - 1) / 2 + 1, 1))
        #expect(big - time(-2, 2) == time((.max - 1) / 2 + 1, 1))
    }

    @Test(arguments: [
        (time(3, 2), Int64(4), time(6, 1)),
        (time(1001, 30000), Int64(30), time(1001, 1000)),
        (time(.max, 2), Int64(2), MediaTime.invalid),
        (time(.max - 1, 2), Int64(2), time(.max - 1, 1)),
        (MediaTime.indefinite, Int64(3), MediaTime.indefinite),
    ])
    func multiplication(time: MediaTime, factor: Int64, product: MediaTime) {
        #expect(time * factor == product)
    }

    @Test func negation() {
        #expect(-time(3, 2) == time(-3, 2))
        #expect(-time(.min, 1) == .invalid)
        #expect(-MediaTime.indefinite == .indefinite)
    }
}

@Suite struct MediaTimeComparisonTests {
    @Test(arguments: [
        (time(6006, 1000), time(3003, 500)),
        (time(0, 1), time(0, 90000)),
        (time(-2, 4), time(-1, 2)),
        (time(90000, 90000), MediaTime(seconds: 1)),
    ])
    func equalAcrossTimescales(a: MediaTime, b: MediaTime) {
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(!(a < b) && !(b < a))
    }

    @Test(arguments: [
        (time(1, 3), time(1, 2)),
        (time(-1, 2), time(-1, 3)),
        (time(.max, 3), time(.max, 2)),
        (time(.min, 2), time(.min, 3)),
        (time(.max, 1), MediaTime.indefinite),
        (MediaTime.indefinite, MediaTime.invalid),
        (time(.min, 1), MediaTime.invalid),
    ])
    func strictlyOrdered(smaller: MediaTime, larger: MediaTime) {
        #expect(smaller < larger)
        #expect(!(larger < smaller))
        #expect(smaller != larger)
    }

    @Test func nonNumericValuesEqualOnlyThemselves() {
        #expect(MediaTime.indefinite == .indefinite)
        #expect(MediaTime.invalid == .invalid)
        #expect(MediaTime.indefinite != .invalid)
        #expect(time(1, 0) == .invalid)
        #expect(time(1, -5) == .invalid)
        #expect(!MediaTime.indefinite.isNumeric && MediaTime.indefinite.isValid)
        #expect(!MediaTime.invalid.isValid)
        #expect(MediaTime.indefinite.seconds == nil)
    }
}

@Suite struct MediaTimeConversionTests {
    @Test(arguments: [
        ("6.006", time(6006, 1000)),
        ("6", time(6, 1)),
        ("6.000", time(6, 1)),
        ("10.", time(10, 1)),
        (".5", time(1, 2)),
        ("-1", time(-1, 1)),
        ("+2.5", time(5, 2)),
        ("0.033367", time(33367, 1_000_000)),
        ("1.123456789", time(1_123_456_789, 1_000_000_000)),
        ("1.0000000004", time(1, 1)),
        ("1.0000000005", time(1_000_000_001, 1_000_000_000)),
        ("-0.0000000005", time(-1, 1_000_000_000)),
        ("9223372036854775807", time(.max, 1)),
        ("-9223372036854775808", time(.min, 1)),
    ])
    func parsesDecimalSecondsExactly(text: String, expected: MediaTime) throws {
        let parsed = try #require(MediaTime(decimalSeconds: text))
        #expect(parsed == expected)
    }

    @Test func trailingZerosGiveTheSmallestPowerOfTen() throws {
        let parsed = try #require(MediaTime(decimalSeconds: "2.500"))
        #expect(parsed.value == 25)
        #expect(parsed.timescale == 10)
    }

    @Test(arguments: [
        "", "-", ".", "1.2.3", "1e3", " 1", "1 ", "abc", "--1", "1-", "0x10", "nan", "inf",
        "9223372036854775808", "922337203685477580.8", "-9223372036854775809",
    ])
    func rejectsWhatIsNotADecimal(text: String) {
        #expect(MediaTime(decimalSeconds: text) == nil)
    }

    @Test(arguments: [
        (time(6006, 1000), 9, "6.006"),
        (time(-3, 2), 9, "-1.5"),
        (time(1, 3), 6, "0.333333"),
        (time(2, 3), 3, "0.667"),
        (time(999_999, 1_000_000), 3, "1"),
        (time(-1, 3), 0, "0"),
        (time(-1, 1000), 2, "0"),
        (time(.max, 1), 9, "9223372036854775807"),
        (time(5, 1), 3, "5"),
    ])
    func writesDecimalSeconds(time: MediaTime, digits: Int, text: String) {
        #expect(time.decimalSeconds(maximumFractionDigits: digits) == text)
    }

    @Test func decimalRoundTrip() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let value = Int64(bitPattern: generator.next()) >> 20
            let scale = [1, 10, 1000, 1_000_000, 1_000_000_000][Int(generator.next() % 5)]
            let original = MediaTime(value: value, timescale: Int32(scale))
            let text = try #require(original.decimalSeconds())
            #expect(MediaTime(decimalSeconds: text) == original, "\(text)")
        }
    }

    @Test func descriptions() {
        #expect(time(6006, 1000).description == "6.006")
        #expect(time(1001, 30000).description == "1001/30000")
        #expect(MediaTime.indefinite.description == "indefinite")
        #expect(MediaTime.invalid.description == "invalid")
    }

    @Test(arguments: [
        (time(1001, 30000), Int32(90000), FloatingPointRoundingRule.toNearestOrAwayFromZero, time(3003, 90000)),
        (time(1, 3), Int32(1000), .toNearestOrAwayFromZero, time(333, 1000)),
        (time(2, 3), Int32(1000), .toNearestOrAwayFromZero, time(667, 1000)),
        (time(-2, 3), Int32(1000), .toNearestOrAwayFromZero, time(-667, 1000)),
        (time(2, 3), Int32(1000), .towardZero, time(666, 1000)),
        (time(-2, 3), Int32(1000), .down, time(-667, 1000)),
        (time(1, 3), Int32(1000), .up, time(334, 1000)),
        (time(1, 2), Int32(1), .toNearestOrEven, time(0, 1)),
        (time(3, 2), Int32(1), .toNearestOrEven, time(2, 1)),
        (time(.max, 1), Int32(2), .toNearestOrAwayFromZero, MediaTime.invalid),
        (time(1, 1), Int32(0), .toNearestOrAwayFromZero, MediaTime.invalid),
    ])
    func convertsTimescale(
        time: MediaTime, timescale: Int32, rule: FloatingPointRoundingRule, expected: MediaTime
    ) {
        let converted = time.converted(toTimescale: timescale, rounding: rule)
        #expect(converted == expected)
        if expected.isNumeric { #expect(converted.timescale == timescale) }
    }

    @Test func doubleAndDurationConversions() {
        #expect(MediaTime(seconds: 1.5, timescale: 1000) == time(3, 2))
        #expect(MediaTime(seconds: .nan) == .invalid)
        #expect(MediaTime(seconds: .infinity) == .invalid)
        #expect(MediaTime(seconds: 1e300) == .invalid)
        #expect(time(3, 2).seconds == 1.5)
        #expect(MediaTime(.milliseconds(1500)) == time(3, 2))
        #expect(MediaTime(.seconds(-2)) == time(-2, 1))
        #expect(time(1, 3).duration == .nanoseconds(333_333_333) + .nanoseconds(1) / 3)
        #expect(MediaTime.indefinite.duration == nil)
    }
}

@Suite struct MediaTimeAlgebraTests {
    private static func randomTime(_ generator: inout SplitMix64) -> MediaTime {
        let scales: [Int32] = [1, 2, 3, 25, 30, 600, 1000, 44100, 48000, 90000, 1_000_000]
        let scale = scales[Int(generator.next() % UInt64(scales.count))]
        let value = Int64(bitPattern: generator.next()) >> 34
        return MediaTime(value: value, timescale: scale)
    }

    @Test func additionIsAssociativeAndCommutative() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<5000 {
            let a = Self.randomTime(&generator)
            let b = Self.randomTime(&generator)
            let c = Self.randomTime(&generator)
            #expect((a + b) + c == a + (b + c))
            #expect(a + b == b + a)
            #expect((a + b) - b == a)
        }
    }

    @Test func orderIsConsistentWithSubtraction() {
        var generator = SplitMix64(seed: 9)
        for _ in 0..<5000 {
            let a = Self.randomTime(&generator)
            let b = Self.randomTime(&generator)
            let difference = a - b
            #expect((a < b) == (difference < .zero))
            #expect((a == b) == (difference == .zero))
            #expect(a.reduced == a)
        }
    }
}

/// A small deterministic random source, so property checks repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
