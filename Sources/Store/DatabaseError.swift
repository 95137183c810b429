import CSQLite

/// A failure reported by SQLite, with everything needed to understand it.
///
/// `resultCode` is SQLite's primary result code (`SQLITE_CONSTRAINT` is 19), and
/// `extendedResultCode` the extended one that refines it (`SQLITE_CONSTRAINT_UNIQUE` is
/// 2067); the primary code is always the low byte of the extended one. `message` is SQLite's
/// own explanation, as `sqlite3_errmsg` gave it when the call failed, and `sql` is the
/// statement that was being prepared or run, when there was one.
///
/// The codes are SQLite's documented numbers, so callers compare them with the constants on
/// ``ResultCode`` instead of importing SQLite.
public struct DatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    public let resultCode: ResultCode
    public let extendedResultCode: Int32
    public let message: String
    public let sql: String?

    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = ResultCode(rawValue: extendedResultCode & 0xFF)
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        let name = sqlite3_errstr(extendedResultCode).map { String(cString: $0) } ?? "error"
        var text = "SQLite error \(extendedResultCode) (\(name)): \(message)"
        if let sql { text += " — while running: \(sql)" }
        return text
    }
}

/// A primary SQLite result code, such as `SQLITE_BUSY` or `SQLITE_CONSTRAINT`.
public struct ResultCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
}
