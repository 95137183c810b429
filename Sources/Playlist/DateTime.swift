import MediaTime

/// An instant on the wall clock, as `EXT-X-PROGRAM-DATE-TIME` and `EXT-X-DATERANGE` write it
/// (ISO 8601 / RFC 3339: `2010-02-19T14:54:23.031+08:00`).
///
/// The instant is exact: seconds since 1970-01-01T00:00:00Z as a ``MediaTime``, so that a
/// date-time extrapolated by adding segment durations never drifts. The time zone of the
/// text is not kept; the canonical form is UTC (`…Z`) with at least millisecond precision.
public struct DateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Exact seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: MediaTime

    public init(secondsSince1970: MediaTime) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: DateTime, rhs: DateTime) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The instant `duration` later.
    public static func + (lhs: DateTime, rhs: MediaTime) -> DateTime {
        DateTime(secondsSince1970: lhs.secondsSince1970 + rhs)
    }

    /// Parses an ISO 8601 date-time with a time zone (`Z`, `±hh:mm` or `±hhmm`). Fractions of
    /// a second are exact up to nine digits.
    public init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard let parsed = bytes.withUnsafeBufferPointer({ DateTime.parse($0, 0, $0.count) }) else { return nil }
        self = parsed
    }

    /// The last calendar day read, as its text `YYYY-MM-DD` and days since 1970: a
    /// playlist's dates fall on a few days, and a repeated day is not read again.
    struct DayMemo {
        fileprivate var text: UInt64 = 0
        fileprivate var tail: UInt16 = 0
        fileprivate var days: Int64?

        init() {}

        fileprivate init(text: UInt64, tail: UInt16, days: Int64) {
            self.text = text
            self.tail = tail
            self.days = days
        }
    }

    /// Parses `buffer[start..<end]`: `YYYY-MM-DDThh:mm:ss`, an optional fraction (`.` or `,`),
    /// then `Z`, `±hh:mm` or `±hhmm`.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> DateTime? {
        var memo = DayMemo()
        return parse(buffer, start, end, memo: &memo)
    }

    /// ``parse(_:_:_:)`` with the calendar day remembered in `memo`. The fixed part is read
    /// at fixed offsets, the digits of each half checked together.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, memo: inout DayMemo) -> DateTime? {
        guard end - start >= 20, let text = buffer.baseAddress.map({ $0 + start }) else { return nil }
        // A byte that is not a digit makes its value above 9; one comparison checks several.
        @inline(__always) func digit(_ offset: Int) -> Int64 { Int64(text[offset] &- UInt8(ascii: "0")) }
        let dayText = UnsafeRawPointer(text).loadUnaligned(as: UInt64.self)
        let dayTail = UnsafeRawPointer(text).loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        let days: Int64
        if let known = memo.days, memo.text == dayText, memo.tail == dayTail {
            days = known
        } else {
            let digits = (digit(0), digit(1), digit(2), digit(3), digit(5), digit(6), digit(8), digit(9))
            let highest = max(max(max(digits.0, digits.1), max(digits.2, digits.3)), max(max(digits.4, digits.5), max(digits.6, digits.7)))
            guard highest < 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-") else { return nil }
            let year = ((digits.0 * 10 + digits.1) * 10 + digits.2) * 10 + digits.3
            let month = digits.4 * 10 + digits.5
            let day = digits.6 * 10 + digits.7
            guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
            days = daysSince1970(year: year, month: month, day: day)
            memo = DayMemo(text: dayText, tail: dayTail, days: days)
        }
        let digits = (digit(11), digit(12), digit(14), digit(15), digit(17), digit(18))
        let highest = max(max(digits.0, digits.1), max(digits.2, digits.3), max(digits.4, digits.5))
        guard highest < 10, text[10] | 0x20 == UInt8(ascii: "t") || text[10] == UInt8(ascii: " "),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":") else { return nil }
        let hour = digits.0 * 10 + digits.1
        let minute = digits.2 * 10 + digits.3
        let second = digits.4 * 10 + digits.5
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        @inline(__always) func number(_ offset: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for position in offset..<offset + count {
                let next = digit(position)
                guard next < 10 else { return nil }
                value = value * 10 + next
            }
            return value
        }
        var index = start + 19
        var fraction: Int64 = 0
        var fractionScale: Int64 = 1
        if buffer[index] == UInt8(ascii: ".") || buffer[index] == UInt8(ascii: ",") {
            index += 1
            let fractionStart = index
            while index < end, buffer[index] &- UInt8(ascii: "0") < 10 {
                // Exact up to nanoseconds; further digits are below what any clock here keeps.
                if index - fractionStart < 9 {
                    fraction = fraction * 10 + Int64(buffer[index] &- UInt8(ascii: "0"))
                    fractionScale *= 10
                }
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        guard index < end else { return nil }
        var offsetSeconds: Int64 = 0
        switch buffer[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = buffer[index] == UInt8(ascii: "-") ? -1 : 1
            let zone = index + 1
            let hasColon = end - zone == 5 && buffer[zone + 2] == UInt8(ascii: ":")
            guard end - zone == (hasColon ? 5 : 4), let hours = number(zone - start, 2),
                  let minutes = number(zone - start + (hasColon ? 3 : 2), 2), hours < 24, minutes < 60 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
            index = end
        default:
            return nil
        }
        guard index == end else { return nil }
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // One multiplication instead of a sum of times with different timescales.
        let (scaled, overflowScaled) = whole.multipliedReportingOverflow(by: fractionScale)
        let (value, overflowSum) = scaled.addingReportingOverflow(fraction)
        guard !overflowScaled, !overflowSum else { return nil }
        return DateTime(secondsSince1970: MediaTime(value: value, timescale: Int32(fractionScale)))
    }

    /// `2010-02-19T06:54:23.031Z`: UTC, milliseconds at least, more digits when the instant
    /// has them (up to nanoseconds).
    public var iso8601: String {
        String(decoding: Output.bytes(estimatedCount: 32) { appendISO8601(to: &$0) }, as: UTF8.self)
    }

    /// Appends ``iso8601`` without building a string.
    func appendISO8601(to output: inout Output) {
        var memo = DayMemo()
        appendISO8601(to: &output, memo: &memo)
    }

    /// ``appendISO8601(to:)`` with the text of the calendar day remembered in `memo`. Built in a
    /// stack buffer and appended once.
    func appendISO8601(to output: inout Output, memo: inout DayMemo) {
        let nanoseconds = Self.nanoseconds(secondsSince1970)
        let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (wholeSeconds, fractionNanos) = fraction < 0 ? (seconds - 1, fraction + 1_000_000_000) : (seconds, fraction)
        let (days, secondOfDay) = Self.floorDivision(wholeSeconds, 86_400)
        var fractionDigits = 9
        var trimmed = fractionNanos
        while fractionDigits > 3 && trimmed % 10 == 0 {
            trimmed /= 10
            fractionDigits -= 1
        }
        if memo.days != days {
            let (year, month, day) = Self.civilDate(daysSince1970: days)
            guard (0...9999).contains(year) else {
                // Beyond four digits: written as is, and not remembered.
                output.append(string: String(year))
                memo = DayMemo()
                Self.appendTail(month: month, day: day, secondOfDay: secondOfDay, trimmed: trimmed,
                                fractionDigits: fractionDigits, to: &output)
                return
            }
            var text = (UInt64(0), UInt16(0))
            withUnsafeMutableBytes(of: &text) { bytes in
                func put(_ value: Int64, width: Int, at offset: Int) {
                    var value = value
                    for position in (offset..<offset + width).reversed() {
                        bytes[position] = UInt8(ascii: "0") + UInt8(value % 10)
                        value /= 10
                    }
                }
                put(year, width: 4, at: 0)
                bytes[4] = UInt8(ascii: "-")
                put(month, width: 2, at: 5)
                bytes[7] = UInt8(ascii: "-")
                put(day, width: 2, at: 8)
            }
            memo = DayMemo(text: text.0, tail: text.1, days: days)
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.storeBytes(of: memo.text, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: memo.tail, toByteOffset: 8, as: UInt16.self)
            var count = 10
            Self.putTime(secondOfDay: secondOfDay, trimmed: trimmed, fractionDigits: fractionDigits, into: buffer, at: &count)
            output.append(UnsafeRawBufferPointer(rebasing: raw[..<count]))
        }
    }

    /// `-MM-DD` and the time, after a year written elsewhere.
    private static func appendTail(month: Int64, day: Int64, secondOfDay: Int64, trimmed: Int64, fractionDigits: Int,
                                   to output: inout Output) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var count = 0
            put(UInt8(ascii: "-"), into: buffer, at: &count)
            put(month, width: 2, into: buffer, at: &count)
            put(UInt8(ascii: "-"), into: buffer, at: &count)
            put(day, width: 2, into: buffer, at: &count)
            putTime(secondOfDay: secondOfDay, trimmed: trimmed, fractionDigits: fractionDigits, into: buffer, at: &count)
            output.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<count])))
        }
    }

    /// `Thh:mm:ss.fffZ`.
    private static func putTime(secondOfDay: Int64, trimmed: Int64, fractionDigits: Int,
                                into buffer: UnsafeMutableBufferPointer<UInt8>, at count: inout Int) {
        put(UInt8(ascii: "T"), into: buffer, at: &count)
        put(secondOfDay / 3600, width: 2, into: buffer, at: &count)
        put(UInt8(ascii: ":"), into: buffer, at: &count)
        put(secondOfDay / 60 % 60, width: 2, into: buffer, at: &count)
        put(UInt8(ascii: ":"), into: buffer, at: &count)
        put(secondOfDay % 60, width: 2, into: buffer, at: &count)
        put(UInt8(ascii: "."), into: buffer, at: &count)
        put(trimmed, width: fractionDigits, into: buffer, at: &count)
        put(UInt8(ascii: "Z"), into: buffer, at: &count)
    }

    @inline(__always)
    private static func put(_ byte: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>, at count: inout Int) {
        buffer[count] = byte
        count += 1
    }

    @inline(__always)
    private static func put(_ value: Int64, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at count: inout Int) {
        var value = value
        var position = count + width
        count = position
        while position > count - width {
            position -= 1
            buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
    }

    /// Nanoseconds since 1970, rounded down; a multiplication when the timescale divides 10^9,
    /// as it does for every date parsed from text.
    private static func nanoseconds(_ time: MediaTime) -> Int64 {
        if let value = time.value, let timescale = time.timescale, 1_000_000_000 % Int64(timescale) == 0 {
            let (product, overflow) = value.multipliedReportingOverflow(by: 1_000_000_000 / Int64(timescale))
            if !overflow { return product }
        }
        return time.converted(toTimescale: 1_000_000_000, rounding: .down).value ?? 0
    }

    public var description: String { iso8601 }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
