/// A queue's identifier: `q-` followed by the number the Store assigned when the queue was
/// created. It never changes and is never reused.
public struct QueueID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The Store's number for the queue.
    public let number: Int64

    public init(number: Int64) {
        self.number = number
    }

    /// Parses `q-N`; nil for any other text.
    public init?(_ text: String) {
        guard text.hasPrefix("q-"), let number = Int64(text.dropFirst(2)), number > 0,
              String(number) == text.dropFirst(2) else { return nil }
        self.number = number
    }

    public var description: String { "q-\(number)" }

    public static func < (lhs: QueueID, rhs: QueueID) -> Bool {
        lhs.number < rhs.number
    }
}

/// An event's global sequence number: the `id:` of a server-sent event. Numbers rise across
/// restarts too (see ``EventHub``).
public struct EventID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Parses a decimal `Last-Event-ID`; nil for anything else.
    public init?(_ text: String) {
        guard let value = Int64(text), value >= 0 else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: EventID, rhs: EventID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
