/// An exact point or span on a media timeline: `value / timescale` seconds.
///
/// `MediaTime` plays the role of CoreMedia's `CMTime`. A numeric time is a rational number
/// with an `Int64` value and a positive `Int32` timescale, so that the sum of many segment
/// durations never drifts: 100,000 segments of 6.006 s add up to exactly 600,600 s.
///
/// Besides numeric times there are two explicit non-numeric values, never NaN:
/// - ``indefinite``: a time that is not known yet, such as the duration of a live stream;
/// - ``invalid``: the result of a meaningless operation or of an overflow.
///
/// Semantics:
/// - Equality and ordering are those of the rational numbers, across timescales:
///   `6006/1000 == 3003/500`. Non-numeric values sort after every numeric one, in the order
///   numeric < indefinite < invalid, and each equals only itself.
/// - Arithmetic is exact. A result keeps the operands' timescale when they share one and
///   otherwise uses their least common multiple. When the exact result does not fit, even
///   after reducing the operands, the result is ``invalid``: overflow is detected, never
///   wrapped.
/// - Any operation with an ``invalid`` operand is ``invalid``; otherwise any operation with
///   an ``indefinite`` operand is ``indefinite``.
public struct MediaTime: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        /// Invariant: `timescale > 0`.
        case numeric(value: Int64, timescale: Int32)
        case indefinite
        case invalid
    }

    @usableFromInline
    let storage: Storage

    @inlinable
    init(storage: Storage) {
        self.storage = storage
    }

    /// The time `value / timescale` seconds. A timescale that is not positive makes the
    /// time ``invalid``.
    @inlinable
    public init(value: Int64, timescale: Int32) {
        storage = timescale > 0 ? .numeric(value: value, timescale: timescale) : .invalid
    }

    /// A whole number of seconds.
    @inlinable
    public init(seconds: Int64) {
        storage = .numeric(value: seconds, timescale: 1)
    }

    public static let zero = MediaTime(value: 0, timescale: 1)
    public static let indefinite = MediaTime(storage: .indefinite)
    public static let invalid = MediaTime(storage: .invalid)

    /// The numerator, or nil when the time is not numeric.
    @inlinable
    public var value: Int64? {
        if case .numeric(let value, _) = storage { return value }
        return nil
    }

    /// The denominator, or nil when the time is not numeric.
    @inlinable
    public var timescale: Int32? {
        if case .numeric(_, let timescale) = storage { return timescale }
        return nil
    }

    @inlinable
    public var isNumeric: Bool {
        if case .numeric = storage { return true }
        return false
    }

    @inlinable
    public var isIndefinite: Bool {
        if case .indefinite = storage { return true }
        return false
    }

    /// True for numeric and indefinite times.
    @inlinable
    public var isValid: Bool {
        if case .invalid = storage { return false }
        return true
    }

    /// The time in seconds as a `Double`, rounded; nil when the time is not numeric.
    public var seconds: Double? {
        guard case .numeric(let value, let timescale) = storage else { return nil }
        return Double(value) / Double(timescale)
    }

    /// The same time in lowest terms: `6000/1000` becomes `6/1`.
    public var reduced: MediaTime {
        guard case .numeric(let value, let timescale) = storage else { return self }
        let divisor = greatestCommonDivisor(value.magnitude, UInt64(timescale))
        guard divisor > 1 else { return self }
        return MediaTime(value: value / Int64(divisor), timescale: Int32(UInt64(timescale) / divisor))
    }
}

// MARK: - Equality and ordering

extension MediaTime: Comparable, Hashable {
    @inlinable
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.numeric(let a, let aScale), .numeric(let b, let bScale)):
            if aScale == bScale { return a == b }
            return compareCrossMultiplied(a, aScale, b, bScale) == 0
        case (.indefinite, .indefinite), (.invalid, .invalid):
            return true
        default:
            return false
        }
    }

    @inlinable @inline(__always)
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.numeric(let a, let aScale), .numeric(let b, let bScale)):
            if aScale == bScale { return a < b }
            return compareCrossMultiplied(a, aScale, b, bScale) < 0
        default:
            return lhs.orderRank < rhs.orderRank
        }
    }

    @usableFromInline
    var orderRank: Int {
        switch storage {
        case .numeric: 0
        case .indefinite: 1
        case .invalid: 2
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch reduced.storage {
        case .numeric(let value, let timescale):
            hasher.combine(value)
            hasher.combine(timescale)
        case .indefinite:
            hasher.combine(-1 as Int8)
        case .invalid:
            hasher.combine(-2 as Int8)
        }
    }
}

/// The sign of `a/aScale - b/bScale`, computed with 128-bit products so it never overflows.
/// Always inlined: comparing times of different timescales is common (a duration against a
/// limit) and the body is a few instructions.
@inlinable @inline(__always)
func compareCrossMultiplied(_ a: Int64, _ aScale: Int32, _ b: Int64, _ bScale: Int32) -> Int {
    let left = a.multipliedFullWidth(by: Int64(bScale))
    let right = b.multipliedFullWidth(by: Int64(aScale))
    if left.high != right.high { return left.high < right.high ? -1 : 1 }
    if left.low != right.low { return left.low < right.low ? -1 : 1 }
    return 0
}

// MARK: - Arithmetic

extension MediaTime {
    @inlinable
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        // Sums along a playlist share one timescale: that case needs no call.
        if case .numeric(let a, let aScale) = lhs.storage, case .numeric(let b, let bScale) = rhs.storage,
           aScale == bScale {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if !overflow { return MediaTime(storage: .numeric(value: sum, timescale: aScale)) }
        }
        return combine(lhs, rhs) { $0.addingReportingOverflow($1) }
    }

    @inlinable
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs) { $0.subtractingReportingOverflow($1) }
    }

    @inlinable
    public static prefix func - (time: MediaTime) -> MediaTime {
        .zero - time
    }

    @inlinable
    public static func += (lhs: inout MediaTime, rhs: MediaTime) {
        lhs = lhs + rhs
    }

    @inlinable
    public static func -= (lhs: inout MediaTime, rhs: MediaTime) {
        lhs = lhs - rhs
    }

    /// The time multiplied by an integer, exactly.
    @inlinable
    public static func * (lhs: MediaTime, rhs: Int64) -> MediaTime {
        guard case .numeric(let value, let timescale) = lhs.storage else { return lhs }
        let (product, overflow) = value.multipliedReportingOverflow(by: rhs)
        if !overflow { return MediaTime(value: product, timescale: timescale) }
        guard case .numeric(let reducedValue, let reducedScale) = lhs.reduced.storage,
              reducedScale != timescale else { return .invalid }
        let (reducedProduct, stillOverflows) = reducedValue.multipliedReportingOverflow(by: rhs)
        return stillOverflows ? .invalid : MediaTime(value: reducedProduct, timescale: reducedScale)
    }

    /// The exact sum of `times`; ``zero`` when there are none.
    public static func sum(_ times: some Sequence<MediaTime>) -> MediaTime {
        times.reduce(.zero, +)
    }

    /// Applies an integer operation to two times brought to a common timescale.
    @inlinable
    static func combine(
        _ lhs: MediaTime, _ rhs: MediaTime,
        _ operation: (Int64, Int64) -> (partialValue: Int64, overflow: Bool)
    ) -> MediaTime {
        switch (lhs.storage, rhs.storage) {
        case (.numeric(let a, let aScale), .numeric(let b, let bScale)):
            if let exact = combineNumeric(a, aScale, b, bScale, operation) {
                return exact
            }
            // Reduced operands have smaller values and may share a smaller timescale.
            guard case .numeric(let ra, let raScale) = lhs.reduced.storage,
                  case .numeric(let rb, let rbScale) = rhs.reduced.storage,
                  (ra, raScale) != (a, aScale) || (rb, rbScale) != (b, bScale) else { return .invalid }
            return combineNumeric(ra, raScale, rb, rbScale, operation) ?? .invalid
        case (.invalid, _), (_, .invalid):
            return .invalid
        default:
            return .indefinite
        }
    }

    /// The exact result in the least common timescale, or nil when it does not fit.
    @inlinable
    static func combineNumeric(
        _ a: Int64, _ aScale: Int32, _ b: Int64, _ bScale: Int32,
        _ operation: (Int64, Int64) -> (partialValue: Int64, overflow: Bool)
    ) -> MediaTime? {
        if aScale == bScale {
            let (result, overflow) = operation(a, b)
            return overflow ? nil : MediaTime(value: result, timescale: aScale)
        }
        let divisor = Int64(greatestCommonDivisor(UInt64(aScale), UInt64(bScale)))
        let common = Int64(aScale) / divisor * Int64(bScale)
        guard common <= Int64(Int32.max) else { return nil }
        let (scaledA, overflowA) = a.multipliedReportingOverflow(by: common / Int64(aScale))
        let (scaledB, overflowB) = b.multipliedReportingOverflow(by: common / Int64(bScale))
        guard !overflowA, !overflowB else { return nil }
        let (result, overflow) = operation(scaledA, scaledB)
        return overflow ? nil : MediaTime(value: result, timescale: Int32(common))
    }
}

@usableFromInline
func greatestCommonDivisor(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
}

// MARK: - Conversions

extension MediaTime {
    /// The time expressed in another timescale, rounded by `rule` when it is not exact.
    /// The result is ``invalid`` when it does not fit or the timescale is not positive.
    public func converted(
        toTimescale newScale: Int32,
        rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) -> MediaTime {
        guard case .numeric(let value, let oldScale) = storage else { return self }
        guard newScale > 0 else { return .invalid }
        if newScale == oldScale { return self }
        let divisor = UInt64(oldScale)
        let product = value.magnitude.multipliedFullWidth(by: UInt64(newScale))
        guard product.high < divisor else { return .invalid }
        var (quotient, remainder) = divisor.dividingFullWidth(product)
        let negative = value < 0
        if remainder != 0,
           roundsMagnitudeUp(rule, negative: negative, quotient: quotient, remainder: remainder, divisor: divisor) {
            quotient += 1
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard quotient <= limit else { return .invalid }
        let signed = negative ? Int64(truncatingIfNeeded: 0 &- quotient) : Int64(quotient)
        return MediaTime(value: signed, timescale: newScale)
    }

    /// The numeric time nearest to `seconds` in `timescale`; ``invalid`` for NaN, infinities
    /// and values that do not fit.
    public init(seconds: Double, timescale: Int32 = 1_000_000_000) {
        let scaled = (seconds * Double(timescale)).rounded(.toNearestOrAwayFromZero)
        guard timescale > 0, scaled.isFinite,
              let value = Int64(exactly: scaled) else {
            self = .invalid
            return
        }
        self.init(value: value, timescale: timescale)
    }

    /// A Swift `Duration`, exact to the nanosecond (timescale 1,000,000,000).
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (whole, overflowWhole) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowTotal) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        self = overflowWhole || overflowTotal ? .invalid : MediaTime(value: total, timescale: 1_000_000_000)
    }

    /// The time as a Swift `Duration`, rounded to the attosecond; nil when not numeric.
    public var duration: Duration? {
        guard case .numeric(let value, let timescale) = storage else { return nil }
        let seconds = value / Int64(timescale)
        let remainder = value % Int64(timescale)
        return .seconds(seconds) + .nanoseconds(remainder) * 1_000_000_000 / Int(timescale)
    }
}

/// Whether a division whose magnitude is `quotient + remainder / divisor` rounds up in
/// magnitude under `rule`. `remainder` is not zero.
func roundsMagnitudeUp(
    _ rule: FloatingPointRoundingRule, negative: Bool,
    quotient: UInt64, remainder: UInt64, divisor: UInt64
) -> Bool {
    let twice = remainder.multipliedFullWidth(by: 2)
    let pastHalf = twice.high > 0 || twice.low > divisor
    let exactlyHalf = twice.high == 0 && twice.low == divisor
    switch rule {
    case .towardZero: return false
    case .awayFromZero: return true
    case .up: return !negative
    case .down: return negative
    case .toNearestOrAwayFromZero: return pastHalf || exactlyHalf
    case .toNearestOrEven: return pastHalf || (exactlyHalf && quotient & 1 == 1)
    @unknown default: return pastHalf || exactlyHalf
    }
}
