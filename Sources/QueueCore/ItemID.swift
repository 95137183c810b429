/// The stable identity of a ``PlayerItem``: the same value before and after a restart.
///
/// An id is opaque text. The Store assigns persistent ids; tests and the engine may use an
/// ``ItemIDGenerator`` instead. Two items are the same item exactly when their ids are equal,
/// so re-adding a URL under a new id makes a new item.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// Makes fresh item ids. Injected so that tests, and a Store that assigns its own ids, stay in
/// control of identity.
public protocol ItemIDGenerator: Sendable {
    mutating func nextID() -> ItemID
}

/// `prefix1`, `prefix2`, …: deterministic ids for tests and for callers that number items.
public struct SequentialItemIDGenerator: ItemIDGenerator {
    public let prefix: String
    public private(set) var nextNumber: Int

    public init(prefix: String = "item-", startingAt first: Int = 1) {
        self.prefix = prefix
        nextNumber = first
    }

    public mutating func nextID() -> ItemID {
        defer { nextNumber += 1 }
        return ItemID(prefix + String(nextNumber))
    }
}

/// Version-4 UUID strings (`0f8fad5b-d9cb-469f-a165-70867728950e`) drawn from an injected
/// random number generator: pass ``SplitMix64`` with a seed for reproducible ids, or the
/// system generator in production.
public struct UUIDItemIDGenerator<Source: RandomNumberGenerator & Sendable>: ItemIDGenerator {
    private var source: Source

    public init(source: Source) {
        self.source = source
    }

    public mutating func nextID() -> ItemID {
        var high = source.next()
        var low = source.next()
        // Version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
        high = (high & ~0xF000) | 0x4000
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)
        let hex = Self.hex(high, digits: 16) + Self.hex(low, digits: 16)
        let characters = Array(hex)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return ItemID(groups.joined(separator: "-"))
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: digits - text.count) + text
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64). The core uses it
/// wherever it needs randomness, so that a seed reproduces every decision exactly: tree
/// priorities, shuffles, test sequences.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
