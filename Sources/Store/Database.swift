import CShims
import CSQLite
import Foundation

/// One SQLite connection, closed when this instance goes away.
///
/// The connection is opened in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`): SQLite
/// does no locking of its own, so the connection must never be used from two threads at
/// once. The type is deliberately not `Sendable`, so Swift's isolation checking confines each
/// instance to the one isolation domain that owns it (the owner of its ``Store``).
///
/// What it adds to the C API:
/// - statements prepared once per SQL text and kept (`cachedStatement`), finalized before
///   the connection closes;
/// - transactions as closures (`transaction`), nested ones as savepoints;
/// - every failure as a ``DatabaseError`` carrying the code, the message and the SQL.
final class Database {
    private let handle: OpaquePointer
    let path: String
    private var statements: [String: Statement] = [:]
    /// How many `transaction` calls are running; 0 outside any.
    private var transactionDepth = 0

    /// Opens the file at `path`, creating it when `create` is true.
    init(path: String, create: Bool) throws {
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = DatabaseError(connection: opened, code: code, sql: nil)
            // SQLite hands out a handle even when opening fails, and it must be closed.
            sqlite3_close_v2(opened)
            throw DatabaseError(extendedResultCode: error.extendedResultCode, message: "\(error.message): \(path)")
        }
        self.handle = opened
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        // Finalize the statements first, so the connection really closes now.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// The statement for `sql`, prepared on first use and kept for the connection's life.
    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement.prepare(sql, on: handle)
        statements[sql] = statement
        return statement
    }

    /// Runs `script`, which may hold several statements, without caching them.
    func execute(_ script: String) throws {
        try Statement.runScript(script, on: handle)
    }

    /// The first column of the first row of `sql` as text, or nil when there is no row.
    func text(_ sql: String) throws -> String? {
        try Statement.prepare(sql, on: handle).firstRow { $0.optionalText(0) } ?? nil
    }

    /// The first column of the first row of `sql` as an integer, or nil when there is no row.
    func integer(_ sql: String) throws -> Int64? {
        try Statement.prepare(sql, on: handle).firstRow { $0.optionalInt64(0) } ?? nil
    }

    /// Every row's first column of `sql`, as text.
    func texts(_ sql: String) throws -> [String] {
        var texts: [String] = []
        try Statement.prepare(sql, on: handle).forEachRow { texts.append($0.text(0)) }
        return texts
    }

    // MARK: - State

    static var libraryVersion: String {
        String(cString: sqlite3_libversion())
    }

    /// The rows inserted, updated or deleted on this connection since it opened.
    var totalChanges: Int64 {
        sqlite3_total_changes64(handle)
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int64 {
        sqlite3_changes64(handle)
    }

    var isInsideTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// How long a statement waits for another connection's lock before failing with
    /// SQLITE_BUSY.
    func setBusyTimeout(_ timeout: Duration) {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// Whether the database at `path` has a write-ahead log with frames in it: commits of a
    /// connection that has not checkpointed them yet, or that was killed.
    static func hasPendingLog(path: String) -> Bool {
        let size = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        return (size ?? 0) > 0
    }

    /// Whether closing the connection, when it is the file's last, may checkpoint the
    /// write-ahead log into the database file. Turned off while a file with a pending log is
    /// only being read, so that closing leaves both files as they were. (With an empty log,
    /// closing writes nothing to the database and deletes the log SQLite created.)
    func setCheckpointOnClose(_ enabled: Bool) throws {
        let code = hlsq_sqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1, nil)
        guard code == SQLITE_OK else { throw DatabaseError(connection: handle, code: code, sql: nil) }
    }

    /// A passive checkpoint of the write-ahead log into the database file.
    func checkpoint() throws {
        let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(connection: handle, code: code, sql: nil) }
    }

    // MARK: - Transactions

    enum TransactionKind {
        /// Takes the write lock at once, so a writer never fails half-way on a lock.
        case immediate
        /// Takes a read snapshot at the first read: for consistent reads.
        case deferred
    }

    /// Runs `body` in a transaction that commits when it returns, or rolls back and rethrows
    /// the first error when it throws or the commit fails. Inside another transaction, `body`
    /// runs in a savepoint instead: its failure undoes only its own changes.
    func transaction<Result>(_ kind: TransactionKind = .immediate, _ body: () throws -> Result) throws -> Result {
        if transactionDepth > 0 {
            return try savepoint(body)
        }
        if isInsideTransaction {
            // A transaction this type did not open (a failed rollback): end it first.
            try cachedStatement("ROLLBACK").execute()
        }
        try cachedStatement(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED").execute()
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body()
            try cachedStatement("COMMIT").execute()
            return result
        } catch {
            if isInsideTransaction {
                // The first error is the one worth reporting; a failed rollback is retried by
                // the next transaction.
                try? cachedStatement("ROLLBACK").execute()
            }
            throw error
        }
    }

    private func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        try cachedStatement("SAVEPOINT nested").execute()
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body()
            try cachedStatement("RELEASE nested").execute()
            return result
        } catch {
            try? cachedStatement("ROLLBACK TO nested").execute()
            try? cachedStatement("RELEASE nested").execute()
            throw error
        }
    }

    // MARK: - Backup

    /// Copies this whole database into `destination` with SQLite's online backup API, in
    /// one step, so the copy is one consistent snapshot even while other connections write.
    /// Retries while the source is locked, for up to `timeout`.
    func backup(into destination: Database, timeout: Duration) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw DatabaseError(connection: destination.handle, code: sqlite3_errcode(destination.handle), sql: nil)
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var code = sqlite3_backup_step(backup, -1)
        while code == SQLITE_BUSY || code == SQLITE_LOCKED, clock.now < deadline {
            sqlite3_sleep(10)
            code = sqlite3_backup_step(backup, -1)
        }
        // Finishing reports a failed step's error on the destination connection.
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finish == SQLITE_OK else {
            throw DatabaseError(connection: destination.handle, code: finish != SQLITE_OK ? finish : code, sql: nil)
        }
    }
}
