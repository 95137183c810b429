import Testing
@testable import Store

/// Fractional order keys: a key always fits between two others, and keys stay short.
@Suite struct RankTests {
    private func rank(_ hex: String) -> Rank? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return Rank(bytes: bytes)
    }

    /// The rank spelled `hex`, or nil for "" (an end of the list).
    private func bound(_ hex: String) throws -> Rank? {
        if hex.isEmpty { return nil }
        let parsed = try #require(rank(hex))
        return parsed
    }

    private func isAscending(_ ranks: [Rank]) -> Bool {
        zip(ranks, ranks.dropFirst()).allSatisfy { pair in pair.0 < pair.1 }
    }

    @Test(arguments: [
        ("", false), ("00", false), ("0000000000000000", false), ("0000000000000001", true),
        ("8000000000000000", true), ("800000000000000001", true), ("800000000000000010", true),
        ("800000000000000100", false), ("80000000000000", false),
    ])
    func wellFormedKeys(hex: String, valid: Bool) {
        #expect((rank(hex) != nil) == valid)
    }

    /// Each row: lower, upper, and the key expected between them ("" for the list's ends).
    @Test(arguments: [
        ("", "", "8000000000000000"),
        ("8000000000000000", "", "8000000000000001"),
        ("", "8000000000000000", "7fffffffffffffff"),
        ("8000000000000000", "8000000000000004", "8000000000000002"),
        ("8000000000000000", "8000000000000001", "800000000000000080"),
        ("8000000000000000", "800000000000000080", "800000000000000040"),
        ("8000000000000000", "800000000000000001", "80000000000000000080"),
        ("80000000000000000080", "800000000000000001", "800000000000000000c0"),
        ("800000000000000001", "8000000000000001", "800000000000000080"),
        ("80000000000000ff", "8000000000000100", "80000000000000ff80"),
        ("8000000000000000ff", "8000000000000001", "8000000000000000ff80"),
        ("800000000000000005", "800000000000000006", "80000000000000000580"),
        ("800000000000000005", "80000000000000000601", "800000000000000006"),
        ("", "0000000000000001", "000000000000000080"),
        ("", "000000000000000001", "00000000000000000080"),
        ("ffffffffffffffff", "", "ffffffffffffffff80"),
    ])
    func keyBetween(lower: String, upper: String, expected: String) throws {
        let lowerRank = try bound(lower)
        let upperRank = try bound(upper)
        let middle = try #require(Rank.between(lowerRank, upperRank))
        #expect(middle.description == expected)
        #expect(middle.isWellFormed)
        if let lowerRank { #expect(lowerRank < middle) }
        if let upperRank { #expect(middle < upperRank) }
    }

    @Test func noKeyBetweenUnorderedBounds() throws {
        let low = try #require(rank("8000000000000000"))
        let high = try #require(rank("8000000000000001"))
        #expect(Rank.between(high, low) == nil)
        #expect(Rank.between(low, low) == nil)
        #expect(Rank.sequence(count: 3, between: high, and: low) == nil)
    }

    @Test(arguments: [0, 1, 2, 3, 10, 1_000, 10_000])
    func sequencesAreOrderedAndShort(count: Int) throws {
        let low = try #require(rank("8000000000000000"))
        let high = try #require(rank("8000000000000001"))
        let bounds: [(Rank?, Rank?)] = [(nil, nil), (low, nil), (nil, low), (low, high)]
        for (lower, upper) in bounds {
            let ranks = try #require(Rank.sequence(count: count, between: lower, and: upper))
            #expect(ranks.count == count)
            let chain = [lower].compactMap { $0 } + ranks + [upper].compactMap { $0 }
            #expect(isAscending(chain))
            #expect(ranks.allSatisfy { $0.isWellFormed })
            // Bisection: about log2(count) bits of fraction at most, in whole bytes.
            let longest = ranks.map(\.bytes.count).max() ?? 8
            #expect(longest <= 8 + (count.bitWidth - count.leadingZeroBitCount) / 8 + 1)
        }
    }

    /// The worst case: every key goes into the gap the previous one left. Keys grow by one
    /// byte per eight placements, and no existing key ever changes.
    @Test func repeatedPlacementIntoOneGap() throws {
        let low = try #require(rank("8000000000000000"))
        var high = try #require(rank("8000000000000001"))
        for placement in 1...2_000 {
            let middle = try #require(Rank.between(low, high))
            #expect(low < middle && middle < high)
            #expect(middle.bytes.count <= 8 + placement / 8 + 1)
            high = middle
        }
    }

    /// Random placements anywhere keep a list in the order of its keys.
    @Test func randomPlacementsKeepOrder() throws {
        var generator = SystemRandomNumberGenerator()
        var keys: [Rank] = []
        for _ in 0..<3_000 {
            let slot = Int.random(in: 0...keys.count, using: &generator)
            let lower = slot > 0 ? keys[slot - 1] : nil
            let upper = slot < keys.count ? keys[slot] : nil
            let key = try #require(Rank.between(lower, upper))
            keys.insert(key, at: slot)
        }
        #expect(isAscending(keys))
        #expect(keys.allSatisfy { $0.isWellFormed })
        #expect(keys.map(\.bytes.count).max()! <= 12)
    }
}
