import MediaTime

// How times are stored: two columns per time, exactly (see `Schema`).

extension MediaTime {
    /// The stored timescale of an indefinite time.
    private static let indefiniteTimescale: Int64 = 0
    /// The stored timescale of an invalid time.
    private static let invalidTimescale: Int64 = -1

    /// The `_value` column: the numerator, or NULL for a time that is not numeric.
    var storedValue: Int64? {
        value
    }

    /// The `_timescale` column: the positive timescale, or a code for the non-numeric times.
    var storedTimescale: Int64 {
        if let timescale { return Int64(timescale) }
        return isIndefinite ? Self.indefiniteTimescale : Self.invalidTimescale
    }

    /// Whether both are stored alike: a stricter test than equality, for which 0/1 and
    /// 0/1000 are the same time.
    func isStored(like other: MediaTime) -> Bool {
        storedValue == other.storedValue && storedTimescale == other.storedTimescale
    }

    /// The time stored as `value` over `timescale`; nil when no writer of this store could
    /// have written that pair.
    init?(storedValue value: Int64?, storedTimescale timescale: Int64) {
        switch (value, timescale) {
        case (let value?, 1...Int64(Int32.max)):
            self.init(value: value, timescale: Int32(timescale))
        case (nil, Self.indefiniteTimescale):
            self = .indefinite
        case (nil, Self.invalidTimescale):
            self = .invalid
        default:
            return nil
        }
    }
}

extension Row {
    /// The time in columns `valueColumn` and `valueColumn + 1`. `name` says whose time it is
    /// in an error, and is built only then.
    func mediaTime(_ valueColumn: Int32, _ name: @autoclosure () -> String) throws -> MediaTime {
        let timescale = int64(valueColumn + 1)
        guard let time = MediaTime(storedValue: optionalInt64(valueColumn), storedTimescale: timescale) else {
            throw StoreError(.unreadableValue, "the stored \(name()) (\(optionalInt64(valueColumn).map(String.init) ?? "NULL")"
                + " over \(timescale)) is not a time")
        }
        return time
    }

    /// The time in columns `valueColumn` and `valueColumn + 1`, or nil when they are NULL.
    func optionalMediaTime(_ valueColumn: Int32, _ name: @autoclosure () -> String) throws -> MediaTime? {
        isNull(valueColumn + 1) ? nil : try mediaTime(valueColumn, name())
    }

    /// The range in the four columns from `startColumn`, or nil when they are NULL.
    func optionalTimeRange(_ startColumn: Int32, _ name: @autoclosure () -> String) throws -> TimeRange? {
        if isNull(startColumn + 1) { return nil }
        return TimeRange(start: try mediaTime(startColumn, "\(name()) start"),
                         end: try mediaTime(startColumn + 2, "\(name()) end"))
    }
}
