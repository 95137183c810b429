/// A sub-range of a resource, as `EXT-X-BYTERANGE` and the `BYTERANGE` attributes give it.
///
/// In a parsed segment the offset is always resolved: a range written without `@offset`
/// starts where the previous segment's range of the same resource ended.
public struct ByteRange: Sendable, Hashable, CustomStringConvertible {
    public var length: Int
    public var offset: Int

    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }

    /// One past the last byte.
    public var end: Int { offset + length }

    /// `length@offset`, the playlist syntax.
    public var description: String { "\(length)@\(offset)" }
}

/// A video resolution, `WIDTHxHEIGHT`.
public struct Resolution: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}
