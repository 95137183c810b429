/// An attribute as written, kept for the attributes hlsq has no field for (client `X-`
/// attributes, vendor extensions) so that they are written back unchanged.
///
/// `rawValue` is the exact value text: a quoted string keeps its quotes.
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var rawValue: String

    public init(name: String, rawValue: String) {
        self.name = name
        self.rawValue = rawValue
    }

    /// A quoted-string attribute.
    public init(name: String, quoted value: String) {
        self.init(name: name, rawValue: "\"\(value)\"")
    }

    /// The value without quotes when it is a quoted string, else nil.
    public var quotedValue: String? {
        guard rawValue.utf8.count >= 2, rawValue.hasPrefix("\""), rawValue.hasSuffix("\"") else { return nil }
        return String(rawValue.dropFirst().dropLast())
    }

    /// The value read as a quoted string, or as it is written otherwise.
    public var value: String { quotedValue ?? rawValue }
}
