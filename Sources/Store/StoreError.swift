/// Why the store refused an operation or a database file.
///
/// SQLite's own failures are ``DatabaseError``s; a `StoreError` is the store's judgement: the
/// file is corrupt or belongs to a newer hlsq, a queue or item does not exist, a value cannot
/// be stored. `code` says which, so callers can branch on it, and `message` says it in words
/// a person can act on (it names the file, the item or the value). New codes can be added
/// without breaking callers, because ``Code`` is a struct, not an enum.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of refusal.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case notADatabase, corrupt, foreignDatabase, newerSchema, unsupportedFileSystem
            case queueNotFound, itemNotFound, itemAlreadyInList, itemsInDifferentQueues
            case invalidPosition, invalidValue, outOfOrder, unreadableValue
            case fileNotFound, destinationExists
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// The file is not an SQLite database at all.
        public static let notADatabase = Code(.notADatabase)
        /// `PRAGMA quick_check` found damage; the file was left untouched.
        public static let corrupt = Code(.corrupt)
        /// The file is an SQLite database that hlsq did not create.
        public static let foreignDatabase = Code(.foreignDatabase)
        /// The file was migrated by a newer hlsq; it was left untouched.
        public static let newerSchema = Code(.newerSchema)
        /// The file system cannot hold a write-ahead log.
        public static let unsupportedFileSystem = Code(.unsupportedFileSystem)
        public static let queueNotFound = Code(.queueNotFound)
        public static let itemNotFound = Code(.itemNotFound)
        /// The item to put back into a list is in one already.
        public static let itemAlreadyInList = Code(.itemAlreadyInList)
        public static let itemsInDifferentQueues = Code(.itemsInDifferentQueues)
        /// A position is relative to an item that is itself being moved, or names an item
        /// twice.
        public static let invalidPosition = Code(.invalidPosition)
        /// A value cannot be stored as it is: a rate that is not finite, a negative count, an
        /// invalid time range, a payload that is not JSON.
        public static let invalidValue = Code(.invalidValue)
        /// A journal event's sequence number, or a history entry's serial, is not above the
        /// last one.
        public static let outOfOrder = Code(.outOfOrder)
        /// A stored value is not one this store writes (an order key, a time, a status): the
        /// file was changed by something else.
        public static let unreadableValue = Code(.unreadableValue)
        public static let fileNotFound = Code(.fileNotFound)
        public static let destinationExists = Code(.destinationExists)

        public var description: String {
            value.rawValue
        }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String {
        message
    }
}
