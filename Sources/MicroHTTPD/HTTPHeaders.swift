/// The header fields of a request or a response, in the order they were received or added.
///
/// Names compare case-insensitively (ASCII), as HTTP requires: `headers["content-type"]`
/// finds a field sent as `Content-Type`. A name may occur more than once; the subscript
/// returns the first value and `values(for:)` all of them. Names and values are kept exactly
/// as given, so a response's fields go out spelled the way the handler wrote them.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field] = []

    public init() {}

    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields.map { Field(name: $0.name, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name`, or nil when it is absent.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field called `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Adds a field after the existing ones, even when the name is already present.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value`.
    public mutating func set(name: String, value: String) {
        remove(name: name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field called `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison, without allocating lowercased copies.
    static func namesMatch(_ first: String, _ second: String) -> Bool {
        let a = first.utf8
        let b = second.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { lowercasedASCII($0) == lowercasedASCII($1) }
    }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
