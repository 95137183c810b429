import CShims
import CSQLite
import Foundation

/// One prepared SQLite statement, finalized when this instance goes away.
///
/// A statement is used in three steps: `bind` its parameters, then `execute` it or read its
/// rows with `forEachRow` or `firstRow`. Each of those resets the statement when it returns,
/// even by throwing, so no statement ever keeps a read transaction open between uses and a
/// cached statement is always ready to bind again.
///
/// A statement belongs to the ``Database`` that prepared it and is used only on that
/// connection's executor. If it outlives the connection, `sqlite3_close_v2` keeps the
/// connection alive until this statement is finalized.
final class Statement {
    private let handle: OpaquePointer
    let sql: String

    /// Prepares the first statement of `text`, and sets `tail` to where the next one starts.
    /// Returns nil when `text` holds only white space and comments.
    private init?(connection: OpaquePointer, text: UnsafePointer<CChar>, flags: UInt32,
                  tail: inout UnsafePointer<CChar>?) throws {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, text, -1, flags, &prepared, &tail)
        let sql = (tail.map { String(decoding: UnsafeRawBufferPointer(start: text, count: $0 - text), as: UTF8.self) }
            ?? String(cString: text)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard code == SQLITE_OK else {
            throw DatabaseError(connection: connection, code: code, sql: sql)
        }
        guard let prepared else { return nil }
        self.handle = prepared
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Prepares `sql`, which must be exactly one statement, to be kept and run many times.
    static func prepare(_ sql: String, on connection: OpaquePointer) throws -> Statement {
        try sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
            guard let statement = try Statement(connection: connection, text: text, flags: flags, tail: &tail)
            else {
                throw DatabaseError(extendedResultCode: SQLITE_MISUSE, message: "no statement to prepare", sql: sql)
            }
            guard let tail, tail.pointee == 0 || String(cString: tail).allSatisfy(\.isWhitespace) else {
                throw DatabaseError(extendedResultCode: SQLITE_MISUSE,
                                    message: "more than one statement; run a script instead", sql: sql)
            }
            return statement
        }
    }

    /// Runs every statement of `script` in turn, each prepared, run and finalized.
    static func runScript(_ script: String, on connection: OpaquePointer) throws {
        try script.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let text = next, text.pointee != 0 {
                var tail: UnsafePointer<CChar>?
                try Statement(connection: connection, text: text, flags: 0, tail: &tail)?.execute()
                next = tail
            }
        }
    }

    // MARK: - Binding

    /// Binds `values` to the parameters `?firstIndex`, `?firstIndex + 1`, … in order.
    func bind<each Value: DatabaseBindable>(_ values: repeat each Value, from firstIndex: Int32 = 1) throws {
        var index = firstIndex
        for value in repeat each values {
            let code = value.bind(to: handle, at: index)
            guard code == SQLITE_OK else { throw error(code) }
            index += 1
        }
    }

    // MARK: - Running

    /// Runs the statement to completion, discarding any rows.
    func execute() throws {
        defer { sqlite3_reset(handle) }
        var code: Int32
        repeat { code = sqlite3_step(handle) } while code == SQLITE_ROW
        guard code == SQLITE_DONE else { throw error(code) }
    }

    /// Calls `body` with each row in turn.
    func forEachRow(_ body: (Row) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            try body(Row(handle: handle))
        }
    }

    /// Decodes the first row, or returns nil when there is none.
    func firstRow<Value>(_ decode: (Row) throws -> Value) throws -> Value? {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw error(code) }
        return try decode(Row(handle: handle))
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
    }
}

/// The current row of a statement, valid only inside the closure it was passed to.
///
/// Columns are numbered from 0 in the order of the `SELECT`.
struct Row {
    fileprivate let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func optionalInt64(_ column: Int32) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The column as text, decoded as UTF-8 over its exact byte length (so NUL bytes stay).
    func text(_ column: Int32) -> String {
        optionalText(column) ?? ""
    }

    func optionalText(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Whether the column is text (or a blob) whose bytes are exactly the UTF-8 of `text`,
    /// compared in place: reading a short code this way makes no String.
    func text(_ column: Int32, is text: String) -> Bool {
        // The blob accessor gives text's bytes without the NUL terminator the text accessor
        // may copy them to add.
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return text.utf8.elementsEqual(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// A Swift value that binds to a statement parameter.
protocol DatabaseBindable {
    /// Binds the value and returns SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int64: DatabaseBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
}

extension Int: DatabaseBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Int32: DatabaseBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Bool: DatabaseBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
}

extension Double: DatabaseBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
}

extension String: DatabaseBindable {
    /// Binds the UTF-8 bytes with their explicit length, so NUL characters survive, and with
    /// SQLITE_TRANSIENT, so SQLite copies them before the buffer goes away.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { buffer in
            guard let start = buffer.baseAddress, !buffer.isEmpty else {
                // No address would read as NULL: bind a real empty string.
                return sqlite3_bind_text64(statement, index, "", 0, hlsq_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
            return start.withMemoryRebound(to: CChar.self, capacity: buffer.count) { characters in
                sqlite3_bind_text64(statement, index, characters, UInt64(buffer.count),
                                    hlsq_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    }
}

extension Rank: DatabaseBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            sqlite3_bind_blob64(statement, index, buffer.baseAddress, UInt64(buffer.count), hlsq_sqlite_transient())
        }
    }
}

extension Optional: DatabaseBindable where Wrapped: DatabaseBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .some(let value): value.bind(to: statement, at: index)
        case .none: sqlite3_bind_null(statement, index)
        }
    }
}

extension DatabaseError {
    /// The error for a call on `connection` that returned `code`, with SQLite's message.
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        var extended = code
        var message = String(cString: sqlite3_errstr(code))
        // The connection describes its most recent failure: use it when it is this one.
        if let connection, sqlite3_extended_errcode(connection) & 0xFF == code & 0xFF {
            extended = sqlite3_extended_errcode(connection)
            message = String(cString: sqlite3_errmsg(connection))
        }
        self.init(extendedResultCode: extended, message: message, sql: sql)
    }
}
