/// A parsed JSON document, as a request body arrives: the API reads it field by field and
/// tells a malformed document (400) from a well-formed one that breaks a rule (422).
///
/// Objects keep their members in document order; a name that occurs twice is a parse error
/// (RFC 8259 leaves duplicates to the implementation, and a request saying two things at once
/// is more likely a mistake than an intent). Numbers are `Double`s, which holds every integer
/// the API takes (indexes, counts) exactly.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The name of the value's type as an error message says it.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The members of a JSON object, in document order, with names unique.
public struct JSONObject: Sendable, Equatable {
    public private(set) var members: [(name: String, value: JSONValue)]

    public init(_ members: [(name: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value of member `name`, or nil when the object has no such member. A member whose
    /// value is `null` is `.some(.null)`: "absent" and "null" mean different things in a PATCH.
    public subscript(name: String) -> JSONValue? {
        members.first { $0.name == name }?.value
    }

    public func contains(_ name: String) -> Bool {
        members.contains { $0.name == name }
    }

    public var names: [String] { members.map(\.name) }

    mutating func append(_ name: String, _ value: JSONValue) {
        members.append((name, value))
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
