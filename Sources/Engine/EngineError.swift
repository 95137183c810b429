/// Why the Engine refused a request. A refused request changed nothing.
///
/// ``code`` is one of the API contract's error codes, which the Server turns into an HTTP
/// status; ``reason`` (for `cannotInsert` and `commandRefused`) and ``field`` (for
/// `validationFailed`) are the contract's extra members; ``message`` says it in words.
/// Codes are values of an open set, so new ones do not break callers.
public struct EngineError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case notFound, cannotInsert, commandRefused, validationFailed, unavailable, storageFailed
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        public var description: String { value.rawValue }

        /// No such queue or item (HTTP 404).
        public static let notFound = Code(.notFound)
        /// The queue refused an insertion (409); ``EngineError/reason`` is `alreadyQueued`,
        /// `itemFailed`, `anchorNotInQueue` or `indexOutOfRange`.
        public static let cannotInsert = Code(.cannotInsert)
        /// The player refused a command (409); ``EngineError/reason`` says why
        /// (`outsideSeekableRange`, `linearPlayback`, `noHistory`, `rateNotAllowed`,
        /// `noItem`, `itemNotReady`, `noNextItem`, `itemFailed`).
        public static let commandRefused = Code(.commandRefused)
        /// A value breaks a rule (422); ``EngineError/field`` names it.
        public static let validationFailed = Code(.validationFailed)
        /// The Engine is shutting down (503).
        public static let unavailable = Code(.unavailable)
        /// The database could not be opened, read or written (500): the mutation was not
        /// applied.
        public static let storageFailed = Code(.storageFailed)
    }

    public let code: Code
    /// The contract's `reason`, for `cannotInsert` and `commandRefused`.
    public let reason: String?
    /// The contract's `field`, for `validationFailed`.
    public let field: String?
    public let message: String

    public init(_ code: Code, reason: String? = nil, field: String? = nil, _ message: String) {
        self.code = code
        self.reason = reason
        self.field = field
        self.message = message
    }

    public var description: String {
        var text = "\(code)"
        if let reason { text += " (\(reason))" }
        if let field { text += " [\(field)]" }
        return text + ": " + message
    }

    static func queueNotFound(_ id: QueueID) -> EngineError {
        EngineError(.notFound, "there is no queue \(id)")
    }

    static func itemNotFound(_ id: ItemID, in queue: QueueID) -> EngineError {
        EngineError(.notFound, "queue \(queue) has no item \(id)")
    }

    static let shuttingDown = EngineError(.unavailable, "the engine is shutting down")
}
