import MediaTime

extension JSONWriter {
    /// A time as the API writes it: seconds as a JSON number, rounded to the microsecond
    /// (half away from zero) from the exact rational value, with no trailing zeros
    /// (`12.5`, `2.020133`, `0`); the string `"indefinite"` for an indefinite time; `null`
    /// for an invalid one.
    public mutating func seconds(_ time: MediaTime) {
        if time.isIndefinite { return string("indefinite") }
        guard let micro = time.converted(toTimescale: 1_000_000).value else { return null() }
        decimal(Self.decimalSeconds(microseconds: micro).utf8)
    }

    /// A time, or `null` for nil.
    public mutating func seconds(_ time: MediaTime?) {
        if let time { seconds(time) } else { null() }
    }

    public mutating func member(_ name: String, seconds time: MediaTime) {
        key(name)
        seconds(time)
    }

    public mutating func member(_ name: String, seconds time: MediaTime?) {
        key(name)
        seconds(time)
    }

    /// A duration in seconds, rounded to the microsecond like a ``MediaTime``.
    public mutating func member(_ name: String, seconds duration: Duration?) {
        key(name)
        seconds(duration.map { MediaTime($0) })
    }

    /// `{"start": s, "end": s}`.
    public mutating func timeRange(_ range: TimeRange) {
        beginObject()
        member("start", seconds: range.start)
        member("end", seconds: range.end)
        endObject()
    }

    /// A sorted array of `{"start", "end"}`.
    public mutating func timeRanges(_ ranges: TimeRangeSet) {
        beginArray()
        for range in ranges.ranges { timeRange(range) }
        endArray()
    }

    /// `-1.5` from -1,500,000 µs: the integer part, then up to six fraction digits without
    /// trailing zeros.
    static func decimalSeconds(microseconds: Int64) -> String {
        let negative = microseconds < 0
        let magnitude = microseconds.magnitude
        let whole = magnitude / 1_000_000
        var fraction = magnitude % 1_000_000
        var text = negative ? "-" : ""
        text += String(whole)
        guard fraction != 0 else { return text }
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let fractionText = String(fraction)
        text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        return text
    }
}
