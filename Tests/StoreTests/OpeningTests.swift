import CSQLite
import Foundation
import Testing
@testable import Store

/// Opening a file: migrations, and the files a store refuses and leaves untouched.
@Suite struct OpeningTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("hlsq.sqlite")
    }

    private static let first = Migration(id: "1-first", sql: "CREATE TABLE first (id INTEGER PRIMARY KEY) STRICT")
    private static let second = Migration(id: "2-second", sql: "CREATE TABLE second (id INTEGER PRIMARY KEY) STRICT")

    /// Runs `sql` on the file with a plain connection, as another program would.
    private func tamper(_ sql: String) throws {
        let database = try Database(path: path, create: true)
        try database.execute(sql)
    }

    private func tables(of store: Store) throws -> Set<String> {
        Set(try store.database.texts("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    }

    @Test func migratesAnEmptyFile() throws {
        let store = try Store(path: path)
        #expect(try tables(of: store) == ["schema_migrations", "queues", "items", "history", "playback", "events"])
        #expect(try store.database.texts("SELECT id FROM schema_migrations") == Schema.migrations.map(\.id))
        #expect(try store.database.integer("PRAGMA application_id") == Schema.applicationID)
        #expect(try store.database.text("PRAGMA journal_mode") == "wal")
        #expect(try store.database.integer("PRAGMA foreign_keys") == 1)
        #expect(try store.database.integer("PRAGMA synchronous") == 1) // NORMAL
        #expect(try store.database.integer("PRAGMA busy_timeout") == 5_000)
    }

    /// A checkpoint copies the committed log into the database file itself: a copy of that
    /// file alone, without its log, holds the commits.
    @Test func checkpointMovesTheLogIntoTheFile() throws {
        let store = try Store(path: path)
        let queue = try store.createQueue(name: "logged")
        try store.insertItems((0..<100).map { StoreFixture.attributes("\($0)") }, into: queue.id)
        func queuesInACopyOfTheFileAlone() throws -> Int {
            let copy = directory.path("copy-\(UUID().uuidString).sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            return try Store(path: copy).queues().count
        }
        #expect(try queuesInACopyOfTheFileAlone() == 0)
        try store.checkpoint()
        #expect(try queuesInACopyOfTheFileAlone() == 1)
        #expect(try store.database.integer("PRAGMA wal_autocheckpoint") == Int64(Store.autoCheckpointPages))
    }

    @Test func powerLossDurabilityIsSynchronousFull() throws {
        let store = try Store(path: path, configuration: Store.Configuration(durability: .survivesPowerLoss))
        #expect(try store.database.integer("PRAGMA synchronous") == 2) // FULL
    }

    @Test func reopeningKeepsDataAndAppliesNothingTwice() throws {
        let queue = try Store(path: path).createQueue(name: "kept")
        let store = try Store(path: path)
        #expect(try store.queues().map(\.id) == [queue.id])
        #expect(try store.database.integer("SELECT count(*) FROM schema_migrations") == Int64(Schema.migrations.count))
    }

    @Test func appliesOnlyTheMigrationsAFileLacks() throws {
        _ = try Store(path: path, configuration: .init(), migrations: [Self.first])
        try tamper("INSERT INTO first (id) VALUES (7)")
        let store = try Store(path: path, configuration: .init(), migrations: [Self.first, Self.second])
        #expect(try tables(of: store) == ["schema_migrations", "first", "second"])
        #expect(try store.database.integer("SELECT id FROM first") == 7)
        #expect(try store.database.texts("SELECT id FROM schema_migrations ORDER BY rowid") == ["1-first", "2-second"])
    }

    @Test func aFailingMigrationAppliesNothing() throws {
        let broken = Migration(id: "2-broken", sql: "CREATE TABLE broken (id INTEGER PRIMARY KEY); SELECT * FROM nowhere")
        let error = try #require(throws: DatabaseError.self) {
            try Store(path: path, configuration: .init(), migrations: [Self.first, broken])
        }
        #expect(error.message == "no such table: nowhere")
        #expect(error.sql == "SELECT * FROM nowhere")
        // The migrations run in one transaction: the first one's table is gone too.
        let store = try Store(path: path, configuration: .init(), migrations: [Self.first])
        #expect(try tables(of: store) == ["schema_migrations", "first"])
    }

    @Test func refusesANewerSchemaAndLeavesItUntouched() throws {
        _ = try Store(path: path, configuration: .init(), migrations: [Self.first, Self.second])
        let before = try directory.contents(startingWith: "hlsq.sqlite")
        let error = try #require(throws: StoreError.self) {
            try Store(path: path, configuration: .init(), migrations: [Self.first])
        }
        #expect(error.code == .newerSchema)
        #expect(error.message.contains("newer hlsq"))
        #expect(error.message.contains("2-second"))
        #expect(error.message.contains(path))
        #expect(try directory.contents(startingWith: "hlsq.sqlite") == before)
    }

    @Test func refusesANewerSchemaWithAnUncheckpointedLog() throws {
        // A newer hlsq that was killed leaves its last commits in the write-ahead log.
        do {
            let newer = try Store(path: path, configuration: .init(), migrations: [Self.first, Self.second])
            try newer.database.execute("INSERT INTO second (id) VALUES (1)")
            try newer.database.setCheckpointOnClose(false)
        }
        let before = try directory.contents(startingWith: "hlsq.sqlite")
        #expect(before["hlsq.sqlite-wal"]?.isEmpty == false)
        #expect(throws: StoreError.self) {
            try Store(path: path, configuration: .init(), migrations: [Self.first])
        }
        let after = try directory.contents(startingWith: "hlsq.sqlite")
        #expect(after["hlsq.sqlite"] == before["hlsq.sqlite"])
        #expect(after["hlsq.sqlite-wal"] == before["hlsq.sqlite-wal"])
        // The newer hlsq still finds its commit.
        let newer = try Store(path: path, configuration: .init(), migrations: [Self.first, Self.second])
        #expect(try newer.database.integer("SELECT count(*) FROM second") == 1)
    }

    @Test func refusesAForeignDatabaseAndLeavesItUntouched() throws {
        try tamper("CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('not hlsq')")
        let before = try directory.contents(startingWith: "hlsq.sqlite")
        let error = try #require(throws: StoreError.self) { try Store(path: path) }
        #expect(error.code == .foreignDatabase)
        #expect(try directory.contents(startingWith: "hlsq.sqlite") == before)
    }

    @Test(arguments: [Store.Configuration(historyLimit: -1), Store.Configuration(journalLimit: 0)])
    func refusesImpossibleLimits(_ configuration: Store.Configuration) throws {
        let error = try #require(throws: StoreError.self) { try Store(path: path, configuration: configuration) }
        #expect(error.code == .invalidValue)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFolderThatDoesNotExistIsNamed() throws {
        let missing = directory.path("no such folder/hlsq.sqlite")
        let error = try #require(throws: DatabaseError.self) { try Store(path: missing) }
        #expect(error.resultCode == .cannotOpen)
        #expect(error.message == "unable to open database file: \(missing)")
    }

    @Test func refusesAFileThatIsNotADatabase() throws {
        let text = Data(String(repeating: "#EXTM3U\n#EXTINF:10,\nsegment.ts\n", count: 200).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreError.self) { try Store(path: path) }
        #expect(error.code == .notADatabase)
        #expect(error.message.contains("not an SQLite database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }
}
