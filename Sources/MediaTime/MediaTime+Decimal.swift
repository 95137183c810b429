// Decimal text in and out, without going through `Double`: playlists write durations such as
// `#EXTINF:6.006,`, and those must sum exactly.

extension MediaTime {
    /// The most fraction digits kept exactly when parsing; the timescale is then 10^9.
    public static let maximumDecimalFractionDigits = 9

    /// Parses a decimal number of seconds such as `6.006`, `-1`, `10.` or `.5`.
    ///
    /// The result is exact: `6.006` is `6006/1000`, and trailing zeros are dropped (`6.000`
    /// is `6/1`). Up to nine fraction digits are kept exactly; further digits are rounded to
    /// the nanosecond, half away from zero. Returns nil for anything else, including
    /// exponents, spaces and values beyond `Int64` nanoseconds' range.
    @inlinable
    public init?(decimalSeconds text: some StringProtocol) {
        self.init(decimalSecondsUTF8: text.utf8)
    }

    /// ``init(decimalSeconds:)`` over UTF-8 bytes, for parsers that never build a `String`.
    @inlinable
    public init?<Bytes: Sequence<UInt8>>(decimalSecondsUTF8 bytes: Bytes) {
        if let outcome = bytes.withContiguousStorageIfAvailable({ Self.parseShortDecimal($0) }), let decided = outcome {
            guard let decided else { return nil }
            self = decided
            return
        }
        // Read once: a global accessed from inlined code goes through an accessor each time.
        let digitLimit = Self.maximumDecimalFractionDigits
        var iterator = bytes.makeIterator()
        guard var byte = iterator.next() else { return nil }
        let negative = byte == UInt8(ascii: "-")
        if negative || byte == UInt8(ascii: "+") {
            guard let next = iterator.next() else { return nil }
            byte = next
        }
        var integer: UInt64 = 0
        var integerDigits = 0
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var trailingZeros = 0
        var roundsUp = false
        // The integer part, up to the point or the end. Up to 19 digits cannot overflow.
        while true {
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                integerDigits += 1
                if integerDigits < 20 {
                    integer = integer &* 10 &+ UInt64(digit)
                } else {
                    let (shifted, overflowShift) = integer.multipliedReportingOverflow(by: 10)
                    let (sum, overflowSum) = shifted.addingReportingOverflow(UInt64(digit))
                    if overflowShift || overflowSum { return nil }
                    integer = sum
                }
            } else if byte == UInt8(ascii: ".") {
                break
            } else {
                return nil
            }
            guard let next = iterator.next() else { byte = 0; break }
            byte = next
        }
        // The fraction part, when there was a point.
        if byte == UInt8(ascii: ".") {
            while let next = iterator.next() {
                let digit = next &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if fractionDigits < digitLimit {
                    fraction = fraction &* 10 &+ UInt64(digit)
                    trailingZeros = digit == 0 ? trailingZeros &+ 1 : 0
                } else if fractionDigits == digitLimit {
                    roundsUp = digit >= 5
                }
                fractionDigits &+= 1
            }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        fractionDigits = min(fractionDigits, digitLimit)
        if !roundsUp && trailingZeros > 0 {
            fraction /= Self.powerOfTen(trailingZeros)
            fractionDigits -= trailingZeros
        }
        let scale = Self.powerOfTen(fractionDigits)
        let (whole, overflowWhole) = integer.multipliedReportingOverflow(by: scale)
        let (magnitude, overflowSum) = whole.addingReportingOverflow(fraction &+ (roundsUp ? 1 : 0))
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard !overflowWhole, !overflowSum, magnitude <= limit else { return nil }
        let value = negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
        self.init(value: value, timescale: Int32(scale))
    }

    /// The common case of ``init(decimalSecondsUTF8:)`` (contiguous bytes, at most 18 of
    /// them and at most nine fraction digits, so that nothing overflows or rounds) in one
    /// pass that gathers integer and fraction digits into one value. Returns `.some(nil)` for
    /// text that is not a decimal, and nil when the general path must decide.
    @usableFromInline
    static func parseShortDecimal(_ buffer: UnsafeBufferPointer<UInt8>) -> MediaTime?? {
        let count = buffer.count
        guard count > 0, count <= 18, let bytes = buffer.baseAddress else { return count == 0 ? .some(nil) : nil }
        let negative = bytes[0] == UInt8(ascii: "-")
        var index = negative || bytes[0] == UInt8(ascii: "+") ? 1 : 0
        let integerStart = index
        // At most 18 digits: below 10^18 < 2^63.
        var value: UInt64 = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            index &+= 1
        }
        var digits = index &- integerStart
        var fractionDigits = 0
        if index < count {
            guard bytes[index] == UInt8(ascii: ".") else { return .some(nil) }
            index &+= 1
            let fractionStart = index
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return .some(nil) }
                value = value &* 10 &+ UInt64(digit)
                index &+= 1
            }
            fractionDigits = index &- fractionStart
            digits &+= fractionDigits
        }
        guard digits > 0 else { return .some(nil) }
        guard fractionDigits <= maximumDecimalFractionDigits else { return nil }
        while fractionDigits > 0 && value % 10 == 0 {
            value /= 10
            fractionDigits &-= 1
        }
        let signed = negative ? -Int64(value) : Int64(value)
        return .some(MediaTime(value: signed, timescale: Int32(powerOfTen(fractionDigits))))
    }

    /// 10^exponent for 0...9 (10^9 above), the timescale of a decimal with that many
    /// fraction digits. A switch, not a static array: reading a global array costs a
    /// lazy-initialization check, a bounds check and a retain on every call.
    @inlinable
    public static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        default: 1_000_000_000
        }
    }

    /// The time as decimal seconds with at most `maximumFractionDigits` digits after the
    /// point, rounded to nearest (half away from zero), trailing zeros dropped: `6.006`, `-1`,
    /// `0.033367`. Exact whenever the time has that many decimal digits or fewer. nil when the
    /// time is not numeric.
    public func decimalSeconds(maximumFractionDigits: Int = maximumDecimalFractionDigits) -> String? {
        guard case .numeric(let value, let timescale) = storage else { return nil }
        let digits = max(0, min(maximumFractionDigits, Self.maximumDecimalFractionDigits))
        var power: UInt64 = 1
        for _ in 0..<digits { power *= 10 }
        let scale = UInt64(timescale)
        var integer = value.magnitude / scale
        let remainder = value.magnitude % scale
        // remainder < 2^31 and power <= 10^9, so the product fits in 64 bits.
        let scaledRemainder = remainder * power
        var fraction = scaledRemainder / scale
        let fractionRemainder = scaledRemainder % scale
        if fractionRemainder != 0,
           roundsMagnitudeUp(.toNearestOrAwayFromZero, negative: value < 0, quotient: fraction,
                             remainder: fractionRemainder, divisor: scale) {
            fraction += 1
            if fraction == power {
                fraction = 0
                integer += 1
            }
        }
        var text = value < 0 && (integer != 0 || fraction != 0) ? "-" : ""
        text += String(integer)
        guard fraction != 0 else { return text }
        var fractionText = String(fraction)
        fractionText = String(repeating: "0", count: digits - fractionText.count) + fractionText
        while fractionText.last == "0" { fractionText.removeLast() }
        return text + "." + fractionText
    }
}

extension MediaTime: CustomStringConvertible {
    /// Exact decimal seconds when they have at most nine fraction digits (`6.006`), otherwise
    /// the fraction (`1001/30000`); `indefinite` or `invalid` for the non-numeric values.
    public var description: String {
        switch storage {
        case .numeric(let value, let timescale):
            let decimal = converted(toTimescale: 1_000_000_000, rounding: .towardZero)
            if decimal == self, let text = decimalSeconds() { return text }
            return "\(value)/\(timescale)"
        case .indefinite:
            return "indefinite"
        case .invalid:
            return "invalid"
        }
    }
}
