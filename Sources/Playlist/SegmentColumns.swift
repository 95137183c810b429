import MediaTime

// The column types ``MediaSegmentList`` stores its segments in. Each keeps a per-segment value
// in as few bytes as the common case allows and holds no reference per segment, so that
// parsing 100,000 segments writes little memory and retains nothing.

/// A `MediaTime` in eight bytes when its timescale is a power of ten, as every decimal a
/// playlist writes is; otherwise a marker telling the reader to look in a side column.
///
/// Bits 0–3 hold the exponent of the timescale (0–9); the other 60 bits hold the value,
/// signed. Exponent 15 marks a time kept elsewhere (another timescale, a value beyond
/// ±2^59, indefinite or invalid).
struct PackedTime: Equatable {
    var bits: UInt64

    private static let elsewhereTag: UInt64 = 15

    /// The marker for a time kept in a side column.
    static let elsewhere = PackedTime(bits: elsewhereTag)

    private init(bits: UInt64) {
        self.bits = bits
    }

    /// The packed form of `time`, or ``elsewhere`` when it does not fit.
    @inline(__always)
    init(_ time: MediaTime) {
        // 10^k is 2^k × 5^k: its trailing zero bits give k.
        guard let value = time.value, let timescale = time.timescale,
              case let exponent = UInt64(timescale.trailingZeroBitCount), exponent <= 9,
              UInt64(truncatingIfNeeded: timescale) == MediaTime.powerOfTen(Int(exponent)), value >= -(1 << 59), value < 1 << 59 else {
            self = .elsewhere
            return
        }
        bits = UInt64(bitPattern: value << 4) | exponent
    }

    /// `value / 10^exponent`, or nil when it does not fit.
    @inline(__always)
    init?(value: Int64, exponent: Int) {
        guard exponent >= 0, exponent <= 9, value >= -(1 << 59), value < 1 << 59 else { return nil }
        bits = UInt64(bitPattern: value << 4) | UInt64(exponent)
    }

    /// The exact sum in the larger power of ten, as `MediaTime` adds decimals; nil when
    /// either is ``elsewhere`` or the sum does not fit.
    @inline(__always)
    func adding(_ other: PackedTime) -> PackedTime? {
        guard let (a, aExponent) = decimal, let (b, bExponent) = other.decimal else { return nil }
        if aExponent == bExponent { return PackedTime(value: a &+ b, exponent: aExponent) }
        var (scaledA, scaledB) = (a, b)
        var factor: Int64 = 1
        for _ in 0..<abs(aExponent - bExponent) { factor &*= 10 }
        let overflow: Bool
        if aExponent < bExponent {
            (scaledA, overflow) = a.multipliedReportingOverflow(by: factor)
        } else {
            (scaledB, overflow) = b.multipliedReportingOverflow(by: factor)
        }
        let (sum, sumOverflows) = scaledA.addingReportingOverflow(scaledB)
        guard !overflow, !sumOverflows else { return nil }
        return PackedTime(value: sum, exponent: max(aExponent, bExponent))
    }

    /// The value and the exponent of the timescale, or nil for ``elsewhere``.
    @inline(__always)
    var decimal: (value: Int64, fractionDigits: Int)? {
        let exponent = bits & 15
        guard exponent != Self.elsewhereTag else { return nil }
        return (Int64(bitPattern: bits) >> 4, Int(exponent))
    }

    /// The time, or nil for ``elsewhere``.
    @inline(__always)
    var time: MediaTime? {
        let exponent = bits & 15
        guard exponent != Self.elsewhereTag else { return nil }
        return MediaTime(value: Int64(bitPattern: bits) >> 4, timescale: Int32(MediaTime.powerOfTen(Int(exponent))))
    }
}

/// A per-segment value that most playlists leave at a default (no title, no byte range, no
/// date): no storage at all until one segment has another value, then one slot per segment.
///
/// Invariant: `values` is empty or holds exactly one value per segment of the list.
struct LazyColumn<Value: Equatable> {
    private(set) var values: [Value] = []
    /// The value of every segment while `values` is empty.
    let absent: Value

    init(absent: Value) {
        self.absent = absent
    }

    var isMaterialized: Bool { !values.isEmpty }

    @inline(__always)
    subscript(index: Int) -> Value {
        values.isEmpty ? absent : values[index]
    }

    /// Appends the value of segment `index`, the list's new last one. Storage, when this
    /// value is the first that needs it, is reserved for `capacity` segments.
    @inline(__always)
    mutating func append(_ value: Value, at index: Int, capacity: Int) {
        if values.isEmpty {
            if value == absent { return }
            materialize(count: index)
            values.reserveCapacity(capacity)
        }
        values.append(value)
    }

    mutating func set(_ value: Value, at index: Int, count: Int) {
        if values.isEmpty {
            if value == absent { return }
            materialize(count: count)
        }
        values[index] = value
    }

    /// Replaces the values of `range` in a list of `count` segments.
    mutating func replaceSubrange(_ range: Range<Int>, with newValues: some Collection<Value>, count: Int) {
        if values.isEmpty {
            if newValues.allSatisfy({ $0 == absent }) { return }
            materialize(count: count)
        }
        values.replaceSubrange(range, with: newValues)
    }

    /// Back to no storage, every segment having the default.
    mutating func removeAll() {
        values = []
    }

    mutating func reserveCapacity(_ capacity: Int) {
        if !values.isEmpty { values.reserveCapacity(capacity) }
    }

    private mutating func materialize(count: Int) {
        values = Array(repeating: absent, count: count)
    }

    func isValid(count: Int) -> Bool {
        values.isEmpty || values.count == count
    }
}

extension LazyColumn: Sendable where Value: Sendable {}

/// What a ``RunColumn`` stores once per run of segments.
protocol RunValue: Equatable {
    /// The value `distance` segments further along the same run.
    func advanced(by distance: Int) -> Self
}

/// A run value that stays the same along the run (discontinuity sequence numbers).
struct Repeated<Wrapped: Equatable>: RunValue {
    var value: Wrapped

    func advanced(by distance: Int) -> Repeated { self }
}

/// A run value that counts up by one per segment (media sequence numbers).
struct Counting: RunValue {
    var value: Int

    func advanced(by distance: Int) -> Counting { Counting(value: value &+ distance) }
}

/// A per-segment value that changes rarely along the list, stored once per run: the state in
/// force (one run per key or map change), the discontinuity sequence (one run per
/// discontinuity), the media sequence number (one counting run). Reading is a binary search
/// over the runs; a playlist without changes has one run.
///
/// Invariant: `starts` is strictly increasing, starts at 0 when the list is not empty, and
/// every start is below the list's count; `values` has one value per start.
struct RunColumn<Value: RunValue> {
    private(set) var starts: [Int] = []
    private(set) var values: [Value] = []

    /// The index of the run holding segment `index`.
    @inline(__always)
    private func run(containing index: Int) -> Int {
        let last = starts.count - 1
        if last == 0 || index >= starts[last] { return last }
        var (low, high) = (0, last)
        // starts[low] <= index < starts[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= index { low = middle } else { high = middle }
        }
        return low
    }

    @inline(__always)
    subscript(index: Int) -> Value {
        let run = run(containing: index)
        return values[run].advanced(by: index - starts[run])
    }

    /// Appends the value of segment `index`, the list's new last one; a new run starts only
    /// when the value does not continue the last run.
    @inline(__always)
    mutating func append(_ value: Value, at index: Int) {
        if let last = values.last, let start = starts.last, last.advanced(by: index - start) == value { return }
        starts.append(index)
        values.append(value)
    }

    /// Replaces the values of `range` in a list of `count` segments.
    mutating func replaceSubrange(_ range: Range<Int>, with newValues: some Collection<Value>, count: Int) {
        // The runs after the range keep their values, from a run that starts right after it.
        split(at: range.upperBound, count: count)
        let firstAfter = starts.partitionPoint { $0 >= range.upperBound }
        var tailStarts = Array(starts[firstAfter...])
        let tailValues = Array(values[firstAfter...])
        let firstInside = starts.partitionPoint { $0 >= range.lowerBound }
        starts.removeSubrange(firstInside...)
        values.removeSubrange(firstInside...)
        var index = range.lowerBound
        for value in newValues {
            append(value, at: index)
            index += 1
        }
        let shift = newValues.count - range.count
        for position in tailStarts.indices { tailStarts[position] += shift }
        for (start, value) in zip(tailStarts, tailValues) { append(value, at: start) }
    }

    /// Makes a run start at `index`, unless one does or `index` is the end.
    private mutating func split(at index: Int, count: Int) {
        guard index < count, !starts.isEmpty else { return }
        let run = run(containing: index)
        guard starts[run] != index else { return }
        let value = values[run].advanced(by: index - starts[run])
        starts.insert(index, at: run + 1)
        values.insert(value, at: run + 1)
    }

    mutating func removeAll() {
        starts = []
        values = []
    }

    func isValid(count: Int) -> Bool {
        guard starts.count == values.count else { return false }
        guard let first = starts.first else { return count == 0 }
        return first == 0 && zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 } && starts.last.map { $0 < count } == true
    }
}

extension RunColumn: Sendable where Value: Sendable {}

extension Repeated: Sendable where Wrapped: Sendable {}

extension Array {
    /// The index of the first element for which `isAfter` holds, in an array where it holds
    /// for a suffix (binary search).
    func partitionPoint(_ isAfter: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
