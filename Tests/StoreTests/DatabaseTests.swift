import CSQLite
import Foundation
import Testing
@testable import Store

/// The connection layer: statements, text binding, typed errors and transactions.
@Suite struct DatabaseTests {
    let directory: TemporaryDirectory
    let database: Database

    init() throws {
        directory = try TemporaryDirectory()
        database = try Database(path: directory.path("plain.sqlite"), create: true)
        try database.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT UNIQUE) STRICT")
    }

    private func insert(_ body: String?) throws {
        let insert = try database.cachedStatement("INSERT INTO notes (body) VALUES (?1)")
        try insert.bind(body)
        try insert.execute()
    }

    private func bodies() throws -> [String?] {
        var bodies: [String?] = []
        try database.cachedStatement("SELECT body FROM notes ORDER BY id").forEachRow { bodies.append($0.optionalText(0)) }
        return bodies
    }

    @Test(arguments: ["", "plain", "Café crème", "nul\u{0}inside", "\u{0}", "日本語のタイトル", "emoji 🎬🎞️"])
    func textRoundTripsExactly(_ text: String) throws {
        try insert(text)
        #expect(try bodies() == [text])
        // The stored length is the UTF-8 length, NULs included: nothing was cut at a NUL.
        let length = try database.integer("SELECT length(CAST(body AS BLOB)) FROM notes")
        #expect(length == Int64(text.utf8.count))
    }

    @Test func longTextRoundTrips() throws {
        let text = String(repeating: "Ünïcödé\u{0}", count: 20_000)
        try insert(text)
        #expect(try bodies() == [text])
    }

    @Test func emptyTextIsNotNull() throws {
        try insert("")
        try insert(nil)
        #expect(try bodies() == ["", nil])
    }

    @Test func errorsCarryCodesMessageAndSQL() throws {
        let missing = #"SELECT * FROM "nowhere""#
        let error = try #require(throws: DatabaseError.self) { try database.cachedStatement(missing) }
        #expect(error.resultCode == .error)
        #expect(error.extendedResultCode == SQLITE_ERROR)
        #expect(error.message == "no such table: nowhere")
        #expect(error.sql == missing)
        #expect(error.description.contains("no such table: nowhere"))

        try insert("once")
        let duplicate = try #require(throws: DatabaseError.self) { try insert("once") }
        #expect(duplicate.resultCode == .constraint)
        #expect(duplicate.extendedResultCode == SQLITE_CONSTRAINT | 8 << 8) // SQLITE_CONSTRAINT_UNIQUE
        #expect(duplicate.message == "UNIQUE constraint failed: notes.body")
        #expect(duplicate.sql == "INSERT INTO notes (body) VALUES (?1)")
    }

    @Test func cachedStatementsArePreparedOnce() throws {
        let first = try database.cachedStatement("SELECT count(*) FROM notes")
        let second = try database.cachedStatement("SELECT count(*) FROM notes")
        #expect(first === second)
    }

    @Test func aStatementMustBeOne() throws {
        let error = try #require(throws: DatabaseError.self) {
            try database.cachedStatement("SELECT 1; SELECT 2")
        }
        #expect(error.resultCode == .misuse)
    }

    @Test func transactionCommits() throws {
        let result = try database.transaction(.immediate) {
            try insert("a")
            try insert("b")
            return "done"
        }
        #expect(result == "done")
        #expect(try bodies() == ["a", "b"])
        #expect(!database.isInsideTransaction)
    }

    struct Refusal: Error, Equatable {}

    @Test func transactionRollsBackAndRethrowsTheFirstError() throws {
        try insert("kept")
        #expect(throws: Refusal()) {
            try database.transaction(.immediate) {
                try insert("discarded")
                throw Refusal()
            }
        }
        #expect(try bodies() == ["kept"])
        #expect(!database.isInsideTransaction)

        // A failing statement rolls back what the same transaction did before it.
        #expect(throws: DatabaseError.self) {
            try database.transaction(.immediate) {
                try insert("discarded too")
                try insert("kept")
            }
        }
        #expect(try bodies() == ["kept"])
    }

    @Test func nestedTransactionUndoesOnlyItself() throws {
        try database.transaction(.immediate) {
            try insert("outer")
            #expect(throws: Refusal()) {
                try database.transaction(.immediate) {
                    try insert("inner")
                    throw Refusal()
                }
            }
            try database.transaction(.immediate) { try insert("second inner") }
        }
        #expect(try bodies() == ["outer", "second inner"])
        #expect(!database.isInsideTransaction)
    }
}
