import CShims
import CSQLite
import Foundation
import Testing

/// SQLite opens a temporary file, commits a transaction, reads it back, and a rollback
/// leaves nothing.
@Suite struct SQLiteBindingTests {
    final class Database {
        let handle: OpaquePointer
        let path: String

        init() throws {
            path = FileManager.default.temporaryDirectory
                .appendingPathComponent("hlsq-binding-\(UUID().uuidString).sqlite").path
            var opened: OpaquePointer?
            let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
            handle = try #require(opened)
            try #require(code == SQLITE_OK)
        }

        deinit {
            sqlite3_close_v2(handle)
            try? FileManager.default.removeItem(atPath: path)
        }

        func execute(_ sql: String) -> Int32 {
            sqlite3_exec(handle, sql, nil, nil, nil)
        }

        func insert(_ name: String) -> Int32 {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, "INSERT INTO items(name) VALUES (?)", -1, &statement, nil) == SQLITE_OK
            else { return sqlite3_errcode(handle) }
            defer { sqlite3_finalize(statement) }
            let utf8 = Array(name.utf8)
            let bound = utf8.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text(statement, 1, $0.baseAddress, Int32($0.count), hlsq_sqlite_transient())
                }
            }
            guard bound == SQLITE_OK else { return bound }
            return sqlite3_step(statement)
        }

        func names() -> [String] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, "SELECT name FROM items ORDER BY id", -1, &statement, nil) == SQLITE_OK
            else { return [] }
            defer { sqlite3_finalize(statement) }
            var result: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                let length = Int(sqlite3_column_bytes(statement, 0))
                let text = sqlite3_column_text(statement, 0)!
                result.append(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
            }
            return result
        }
    }

    @Test func commitThenRollback() throws {
        let database = try Database()
        #expect(database.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL)") == SQLITE_OK)

        #expect(database.execute("BEGIN") == SQLITE_OK)
        // Text with an embedded NUL and non-ASCII letters proves the explicit length is used.
        #expect(database.insert("Café\u{0}latte") == SQLITE_DONE)
        #expect(database.insert("segment 2") == SQLITE_DONE)
        #expect(database.execute("COMMIT") == SQLITE_OK)
        #expect(database.names() == ["Café\u{0}latte", "segment 2"])

        #expect(database.execute("BEGIN") == SQLITE_OK)
        #expect(database.insert("discarded") == SQLITE_DONE)
        #expect(database.names().count == 3)
        #expect(database.execute("ROLLBACK") == SQLITE_OK)
        #expect(database.names() == ["Café\u{0}latte", "segment 2"])
    }

    @Test func reportsErrorsWithMessages() throws {
        let database = try Database()
        #expect(database.execute("SELECT * FROM nowhere") == SQLITE_ERROR)
        #expect(String(cString: sqlite3_errmsg(database.handle)) == "no such table: nowhere")
    }
}
