/// A fractional order key: the position of an item in its queue's list.
///
/// Items are listed in ascending rank. Between any two distinct ranks there is always
/// another one, so placing an item anywhere writes only that item's row: nothing is ever
/// renumbered.
///
/// A rank is a byte string, stored as an SQLite BLOB, that reads as a number in base 256:
/// - the first 8 bytes are a big-endian integer part;
/// - the bytes after them, if any, are the digits of a fraction, `0.d1 d2 d3…`, and the last
///   one is never zero (so one number has exactly one spelling).
///
/// Comparing two ranks byte by byte, a shorter one first when it is a prefix of the other,
/// is exactly comparing these numbers. That is SQLite's BLOB order (`memcmp`, then length),
/// so `ORDER BY rank` lists the queue.
///
/// Which key gets chosen:
/// - appending or prepending steps the integer part by one, so a list built by appends has
///   8-byte ranks for its first 2^63 items;
/// - between two integers more than one apart, the middle integer;
/// - otherwise the shortest fraction in the gap, about its middle: each placement into the
///   same gap halves it, so the key grows by one byte every eight placements into one gap,
///   and never otherwise;
/// - `count` keys for a bulk insert are spread evenly by bisecting the gap, so they grow by
///   at most `log2(count) / 8` bytes.
///
/// Invariant (`isWellFormed`): at least 8 bytes, and no trailing zero byte after them. The
/// smallest possible rank, 8 zero bytes, is never handed out, so there is always room before
/// the first item.
struct Rank: Hashable, Comparable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    private static let integerLength = 8

    /// A rank read back from the database; nil when it is not one this type writes.
    init?(bytes: [UInt8]) {
        self.bytes = bytes
        guard isWellFormed else { return nil }
    }

    private init(integer: UInt64, fraction: [UInt8]) {
        var bytes = withUnsafeBytes(of: integer.bigEndian, Array.init)
        bytes.append(contentsOf: fraction)
        self.bytes = bytes
        assert(isWellFormed)
    }

    var isWellFormed: Bool {
        if bytes.count > Self.integerLength { return bytes.last != 0 }
        return bytes.count == Self.integerLength && integer != 0
    }

    private var integer: UInt64 {
        bytes.prefix(Self.integerLength).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private var fraction: ArraySlice<UInt8> {
        bytes.dropFirst(Self.integerLength)
    }

    static func < (lhs: Rank, rhs: Rank) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    // MARK: - Choosing ranks

    /// A rank strictly between `lower` and `upper`, where nil stands for the start or the end
    /// of the list; nil when `lower` is not below `upper`.
    static func between(_ lower: Rank?, _ upper: Rank?) -> Rank? {
        if let lower, let upper, !(lower < upper) { return nil }
        guard let upper else {
            guard let lower else { return Rank(integer: 1 << 63, fraction: []) }
            if lower.integer < .max { return Rank(integer: lower.integer + 1, fraction: []) }
            return Rank(integer: .max, fraction: middleFraction(above: lower.fraction, below: nil))
        }
        if lower == nil, upper.integer >= 2 {
            return Rank(integer: upper.integer - 1, fraction: [])
        }
        // Without a lower bound, bisect towards the rank 0, which is never handed out.
        let (low, lowFraction) = lower.map { ($0.integer, $0.fraction) } ?? (0, [])
        let high = upper.integer
        if high - low >= 2 {
            return Rank(integer: low + (high - low) / 2, fraction: [])
        }
        if high - low == 1 {
            if !upper.fraction.isEmpty { return Rank(integer: high, fraction: []) }
            return Rank(integer: low, fraction: middleFraction(above: lowFraction, below: nil))
        }
        return Rank(integer: low, fraction: middleFraction(above: lowFraction, below: upper.fraction))
    }

    /// `count` ascending ranks strictly between `lower` and `upper`, spread so that later
    /// placements in any of the gaps stay short; nil when `lower` is not below `upper`.
    static func sequence(count: Int, between lower: Rank?, and upper: Rank?) -> [Rank]? {
        if let lower, let upper, !(lower < upper) { return nil }
        guard count > 0 else { return [] }
        // Appends and prepends step the integer part, as `between` does for one rank.
        if upper == nil {
            let start = lower?.integer ?? (1 << 63) - 1
            if UInt64.max - start >= UInt64(count) {
                return (1...UInt64(count)).map { Rank(integer: start + $0, fraction: []) }
            }
        }
        if lower == nil, let end = upper?.integer, end > UInt64(count) {
            return (1...UInt64(count)).reversed().map { Rank(integer: end - $0, fraction: []) }
        }
        var ranks: [Rank] = []
        ranks.reserveCapacity(count)
        appendBisecting(count: count, between: lower, and: upper, into: &ranks)
        return ranks
    }

    /// Appends `count` ranks in `(lower, upper)`, which must be ordered: the middle one, and
    /// each half recursively (depth `log2(count)`).
    private static func appendBisecting(count: Int, between lower: Rank?, and upper: Rank?,
                                        into ranks: inout [Rank]) {
        guard count > 0, let middle = between(lower, upper) else { return }
        let below = (count - 1) / 2
        appendBisecting(count: below, between: lower, and: middle, into: &ranks)
        ranks.append(middle)
        appendBisecting(count: count - 1 - below, between: middle, and: upper, into: &ranks)
    }

    /// The digits of a fraction strictly between `0.above` and `0.below` (nil: 1), about
    /// halfway, with as few digits as that takes and no trailing zero. `above` must be below
    /// `below`, and neither may end in a zero digit.
    private static func middleFraction(above: ArraySlice<UInt8>, below: ArraySlice<UInt8>?) -> [UInt8] {
        let lower = Array(above)
        var upper = below.map(Array.init)
        var digits: [UInt8] = []
        var position = 0
        while true {
            let low = position < lower.count ? Int(lower[position]) : 0
            // Once the digits fall below the upper bound's, it no longer constrains them: 1.0.
            let high = upper.map { position < $0.count ? Int($0[position]) : 0 } ?? 256
            assert(high >= low, "the fraction bounds are out of order")
            if high == low {
                digits.append(UInt8(low))
            } else if high - low > 1 {
                digits.append(UInt8((low + high) / 2))
                return digits
            } else if let bound = upper, bound.count > position + 1 {
                // `high` followed by nothing is below the longer upper bound, above the lower.
                digits.append(UInt8(high))
                return digits
            } else {
                digits.append(UInt8(low))
                upper = nil
            }
            position += 1
        }
    }
}
