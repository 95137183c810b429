import MicroHTTPD

/// Reading request bodies: the content type (415), the JSON (400), and the members.
enum RequestBody {
    /// The media type of the body, lowercased, without parameters: `application/json`.
    static func mediaType(of request: HTTPRequest) -> String? {
        guard let value = request.headers["Content-Type"] else { return nil }
        let essence = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingWhitespace().lowercased() }
        return essence?.isEmpty == false ? essence : nil
    }

    static func isJSON(_ request: HTTPRequest) -> Bool {
        mediaType(of: request) == "application/json"
    }

    /// The body as a JSON object with only the `allowed` members: 415 when it is not
    /// declared as `application/json`, 400 when it is not a JSON object, 422 for a member the
    /// route does not know (a misspelled member would otherwise be silently ignored).
    static func jsonObject(_ request: HTTPRequest, allowed: Set<String>) throws(APIError) -> JSONFields {
        guard isJSON(request) else {
            throw .unsupportedMediaType(request.headers["Content-Type"], expected: "application/json")
        }
        return try JSONFields(parse(request.body), allowed: allowed)
    }

    /// The body parsed as JSON; 400 when it is not.
    static func parse(_ body: [UInt8]) throws(APIError) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .badRequest(error.description)
        }
    }
}

/// The members of a JSON object in a request, read with type checks.
///
/// A member of the wrong type is a 400 that names it (`settings.consume must be a boolean,
/// not a string`); an unknown member is a 422. Absent members read as nil; `null` is told
/// apart where it means something (``nullableString(_:)``: a PATCH that removes a title).
struct JSONFields {
    let object: JSONObject
    /// The path of this object in the body, for messages: `""` or `"settings."`.
    let path: String

    init(_ value: JSONValue, allowed: Set<String>, path: String = "") throws(APIError) {
        guard case .object(let object) = value else {
            let name = path.isEmpty ? "the body" : String(path.dropLast())
            throw .badRequest("\(name) must be a JSON object, not \(value.typeName)")
        }
        if let unknown = object.names.first(where: { !allowed.contains($0) }) {
            throw .validationFailed(
                field: path + unknown,
                "unknown member \"\(path + unknown)\"; expected \(allowed.sorted().joined(separator: ", "))")
        }
        self.object = object
        self.path = path
    }

    func contains(_ name: String) -> Bool { object.contains(name) }

    var isEmpty: Bool { object.members.isEmpty }

    private func wrongType(_ name: String, _ expected: String, _ value: JSONValue) -> APIError {
        var error = APIError.badRequest("\(path + name) must be \(expected), not \(value.typeName)")
        error.field = path + name
        return error
    }

    /// A string member; nil when absent. `null` is refused.
    func string(_ name: String) throws(APIError) -> String? {
        guard let value = object[name] else { return nil }
        guard case .string(let text) = value else { throw wrongType(name, "a string", value) }
        return text
    }

    /// A string member that may be `null`: nil when absent, `.some(nil)` for `null`.
    func nullableString(_ name: String) throws(APIError) -> String?? {
        guard let value = object[name] else { return nil }
        if value == .null { return .some(nil) }
        guard case .string(let text) = value else { throw wrongType(name, "a string or null", value) }
        return .some(text)
    }

    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let value = object[name] else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(name, "a boolean", value) }
        return flag
    }

    func number(_ name: String) throws(APIError) -> Double? {
        guard let value = object[name] else { return nil }
        guard case .number(let number) = value else { throw wrongType(name, "a number", value) }
        return number
    }

    /// A number member that may be `null`.
    func nullableNumber(_ name: String) throws(APIError) -> Double?? {
        guard let value = object[name] else { return nil }
        if value == .null { return .some(nil) }
        guard case .number(let number) = value else { throw wrongType(name, "a number or null", value) }
        return .some(number)
    }

    /// An integer member: a number without a fraction that fits in `Int`.
    func integer(_ name: String) throws(APIError) -> Int? {
        guard let value = object[name] else { return nil }
        guard case .number(let number) = value, number == number.rounded(), let integer = Int(exactly: number) else {
            throw wrongType(name, "an integer", value)
        }
        return integer
    }

    /// An integer member that may be `null`.
    func nullableInteger(_ name: String) throws(APIError) -> Int?? {
        guard let value = object[name] else { return nil }
        if value == .null { return .some(nil) }
        return .some(try integer(name))
    }

    /// A nested object with its own allowed members; nil when absent. `null` is refused.
    func object(_ name: String, allowed: Set<String>) throws(APIError) -> JSONFields? {
        guard let value = object[name] else { return nil }
        guard case .object = value else { throw wrongType(name, "an object", value) }
        return try JSONFields(value, allowed: allowed, path: path + name + ".")
    }

    /// A nested object that may be `null`.
    func nullableObject(_ name: String, allowed: Set<String>) throws(APIError) -> JSONFields?? {
        guard let value = object[name] else { return nil }
        if value == .null { return .some(nil) }
        return .some(try object(name, allowed: allowed))
    }
}
