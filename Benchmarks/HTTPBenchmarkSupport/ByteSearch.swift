extension Array where Element == UInt8 {
    /// The index just past the first occurrence of `needle`, or nil.
    ///
    /// The clients here time what they read, so searching must cost next to nothing: this
    /// plain loop over the bytes stands in for `firstRange(of:)`, whose generic search (from
    /// Foundation) took longer than some of the round trips it measured.
    func endOfFirst(_ needle: [UInt8]) -> Int? {
        guard let first = needle.first, count >= needle.count else { return nil }
        var start = 0
        while start + needle.count <= count {
            if self[start] == first, self[start..<start + needle.count].elementsEqual(needle) {
                return start + needle.count
            }
            start += 1
        }
        return nil
    }
}
