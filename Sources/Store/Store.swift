/// hlsq's SQLite database: queues, their items in order, history, playback positions and
/// the event journal, in one file.
///
/// A `Store` owns one SQLite connection. It is deliberately not `Sendable`: its owner (the
/// Engine actor) keeps it in its own isolation domain and calls it synchronously, without a
/// suspension point, so no other mutation can slip in between validating a change, persisting
/// it and applying it, and no call pays for an executor hop.
///
/// Opening a file (``init(path:configuration:)``) checks it before changing anything:
/// - `PRAGMA quick_check` must pass, or the file is refused as corrupt;
/// - it must be empty or an hlsq database (`PRAGMA application_id`), and must not hold a
///   migration this build does not know (a newer hlsq wrote it).
///
/// A refused file is left untouched byte for byte. Only then does the store switch the file
/// to WAL mode, set the durability level and foreign keys, and apply the missing migrations
/// in one transaction.
///
/// Every method that changes something is one transaction: it either commits entirely or
/// leaves nothing behind, and it has committed when it returns. ``transaction(_:)`` groups
/// several of them (say, a mutation and its journal event) into one; inside it, each method
/// runs in a savepoint, so a failing one undoes only itself.
///
/// Methods throw ``StoreError`` when they refuse (an unknown item, a value that cannot be
/// stored) and ``DatabaseError`` when SQLite fails.
public final class Store {
    /// How a store opens its file. The defaults suit the server.
    public struct Configuration: Sendable {
        /// What a committed change survives: see ``Durability``.
        public var durability: Durability
        /// How long a statement waits for another connection's lock (a backup, a second
        /// process) before failing with `SQLITE_BUSY`.
        public var busyTimeout: Duration
        /// How many serials of a queue's history are kept at most; older entries are
        /// deleted. A backstop: set it at least as high as the queue player's own limit,
        /// whose removals the Engine persists.
        public var historyLimit: Int
        /// How many of the newest sequence numbers the event journal keeps.
        public var journalLimit: Int64

        public init(durability: Durability = .survivesProcessCrash, busyTimeout: Duration = .seconds(5),
                    historyLimit: Int = 1_000, journalLimit: Int64 = 10_000) {
            self.durability = durability
            self.busyTimeout = busyTimeout
            self.historyLimit = historyLimit
            self.journalLimit = journalLimit
        }
    }

    /// What a committed transaction survives, which sets SQLite's `synchronous` level. In WAL
    /// mode, SQLite appends each commit to the log with `write()` before the commit returns.
    public enum Durability: Sendable {
        /// `synchronous = NORMAL`: the log is flushed to the disk only at checkpoints. A
        /// commit survives any crash of the process (`kill -9`, a trap); an operating-system
        /// crash or a power cut can undo the last commits, never corrupt the file. A commit
        /// costs no `fsync`.
        case survivesProcessCrash
        /// `synchronous = FULL`: the log is flushed to the disk at every commit, which then
        /// survives a power cut too, for the price of one `fsync` per commit.
        case survivesPowerLoss
    }

    let database: Database
    let configuration: Configuration

    /// The path of the database file.
    public var path: String { database.path }

    /// The version of the SQLite library in use, such as "3.40.1".
    public static var sqliteVersion: String { Database.libraryVersion }

    /// Opens the database at `path`, creating it when it does not exist, and brings its
    /// schema up to date; throws ``StoreError`` when the file is refused.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        try self.init(path: path, configuration: configuration, migrations: Schema.migrations)
    }

    init(path: String, configuration: Configuration, migrations: [Migration]) throws {
        guard configuration.historyLimit >= 0, configuration.journalLimit >= 1 else {
            throw StoreError(.invalidValue, "a history limit cannot be negative (\(configuration.historyLimit)), "
                + "and a journal limit must be at least 1 (\(configuration.journalLimit))")
        }
        let hasPendingLog = Database.hasPendingLog(path: path)
        let database = try Database(path: path, create: true)
        // Until the file is accepted, closing must not checkpoint a pending log into it.
        if hasPendingLog { try database.setCheckpointOnClose(false) }
        database.setBusyTimeout(configuration.busyTimeout)
        try Self.checkIntegrity(of: database)
        try Self.checkOwnership(of: database, knownMigrations: migrations)
        if hasPendingLog { try database.setCheckpointOnClose(true) }
        try Self.configure(database, durability: configuration.durability)
        try Self.migrate(database, to: migrations)
        self.database = database
        self.configuration = configuration
    }

    /// The most memory, in KiB, the connection's page cache may hold (SQLite's default is
    /// 2 MiB). A file of 100,000 items is about 14 MiB: with the whole file cached, start-up
    /// reads each page from the operating system once, for the integrity check, and the
    /// restore that follows reads the cache. The cache grows only as pages are read.
    static let pageCacheKiB = 32 * 1024

    /// How many pages the write-ahead log may hold before a commit also checkpoints it into
    /// the database file (SQLite's default is 1,000). A checkpoint copies the log and flushes
    /// the file to the disk, which can cost a commit tens of milliseconds; ``checkpoint()``,
    /// called when the store is idle, keeps commits from paying for it, and this limit, 16 MiB
    /// of 4 KiB pages, is the backstop.
    static let autoCheckpointPages = 4096

    /// Copies the write-ahead log into the database file, as far as no reader prevents it,
    /// without waiting for anyone: SQLite's passive checkpoint. The owner calls it when the
    /// store is idle, so that commits seldom reach ``autoCheckpointPages`` and checkpoint
    /// themselves.
    public func checkpoint() throws {
        try database.checkpoint()
    }

    /// Runs `body` as one transaction: everything the store's methods change inside it
    /// commits together when it returns, or is rolled back when it throws, and the first
    /// error is rethrown.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try database.transaction(.immediate, body)
    }

    // MARK: - Opening

    private static func checkIntegrity(of database: Database) throws {
        let findings: [String]
        do {
            // Sized before the check, which reads every page: the queues restored right after
            // it then come from this cache, not from the file again. It changes nothing in
            // the file, but reads its header, so a file that is no database fails here.
            try database.execute("PRAGMA cache_size = -\(pageCacheKiB)")
            findings = try database.texts("PRAGMA quick_check")
        } catch let error as DatabaseError where error.resultCode == .notADatabase {
            throw StoreError(.notADatabase, "\(database.path) is not an SQLite database; it was left untouched.")
        } catch let error as DatabaseError where error.resultCode == .corrupt {
            throw StoreError(.corrupt, "\(database.path) is corrupt (\(error.message)); it was left untouched. "
                + "Move it aside, or restore it from a backup made with `hlsq backup`.")
        }
        guard findings == ["ok"] else {
            let shown = findings.prefix(3).joined(separator: "; ") + (findings.count > 3 ? "; …" : "")
            throw StoreError(.corrupt, "\(database.path) is corrupt (PRAGMA quick_check: \(shown)); it was left "
                + "untouched. Move it aside, or restore it from a backup made with `hlsq backup`.")
        }
    }

    private static func checkOwnership(of database: Database, knownMigrations: [Migration]) throws {
        let applicationID = try database.integer("PRAGMA application_id") ?? 0
        let tableCount = try database.integer(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") ?? 0
        if applicationID == 0 && tableCount == 0 { return }
        guard applicationID == Schema.applicationID else {
            throw StoreError(.foreignDatabase, "\(database.path) is an SQLite database that hlsq did not create "
                + "(application_id \(applicationID)); it was left untouched.")
        }
        let applied = try database.texts("SELECT id FROM schema_migrations ORDER BY rowid")
        let known = Set(knownMigrations.map(\.id))
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            let newest = knownMigrations.last?.id ?? "none"
            throw StoreError(.newerSchema, "\(database.path) was written by a newer hlsq: it has the migrations "
                + "\(unknown.joined(separator: ", ")), and this build knows them only up to \(newest). It was "
                + "left untouched; open it with that newer hlsq.")
        }
    }

    private static func configure(_ database: Database, durability: Durability) throws {
        let journalMode = try database.text("PRAGMA journal_mode = WAL")
        guard journalMode == "wal" else {
            throw StoreError(.unsupportedFileSystem, "\(database.path) cannot use a write-ahead log "
                + "(journal mode stayed \(journalMode ?? "unknown")); put the database on a local file system.")
        }
        let synchronous = durability == .survivesPowerLoss ? "FULL" : "NORMAL"
        try database.execute("""
            PRAGMA synchronous = \(synchronous);
            PRAGMA foreign_keys = ON;
            PRAGMA wal_autocheckpoint = \(autoCheckpointPages)
            """)
    }

    private static func migrate(_ database: Database, to migrations: [Migration]) throws {
        try database.transaction {
            try database.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    id TEXT PRIMARY KEY NOT NULL,
                    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                ) STRICT
                """)
            let applied = Set(try database.texts("SELECT id FROM schema_migrations"))
            let record = try database.cachedStatement("INSERT INTO schema_migrations (id) VALUES (?1)")
            for migration in migrations where !applied.contains(migration.id) {
                try database.execute(migration.sql)
                try record.bind(migration.id)
                try record.execute()
            }
            try database.execute("PRAGMA application_id = \(Schema.applicationID)")
        }
    }
}

@available(*, unavailable, message: "a Store is confined to the isolation domain that owns it")
extension Store: Sendable {}
