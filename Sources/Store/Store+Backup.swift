import Foundation

extension Store {
    /// Copies the database at `source` to a new file at `destination` with SQLite's online
    /// backup API, which is safe while a server has the source open and writes to it: the
    /// copy is one consistent snapshot, taken without blocking the server's writes.
    ///
    /// The copy is written beside `destination` under a temporary name, checked with
    /// `PRAGMA integrity_check`, and only then renamed, so a failed backup leaves no file.
    /// Throws ``StoreError`` with `fileNotFound` or `destinationExists` for a wrong path, and
    /// a ``DatabaseError`` or ``StoreError`` when the copy fails.
    public static func backup(databaseAt source: String, to destination: String,
                              timeout: Duration = .seconds(30)) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: source) else {
            throw StoreError(.fileNotFound, "there is no database at \(source)")
        }
        guard !files.fileExists(atPath: destination) else {
            throw StoreError(.destinationExists, "\(destination) already exists; choose a new path")
        }
        let temporary = destination + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        do {
            try copy(source, to: temporary, timeout: timeout)
            try files.moveItem(atPath: temporary, toPath: destination)
        } catch {
            try? files.removeItem(atPath: temporary)
            throw error
        }
    }

    private static func copy(_ source: String, to temporary: String, timeout: Duration) throws {
        let hasPendingLog = Database.hasPendingLog(path: source)
        let from = try Database(path: source, create: false)
        // A backup only reads: closing must not checkpoint a log into the source.
        if hasPendingLog { try from.setCheckpointOnClose(false) }
        from.setBusyTimeout(timeout)
        let to = try Database(path: temporary, create: true)
        try from.backup(into: to, timeout: timeout)
        // A single self-contained file, whatever the source's journal mode.
        _ = try to.text("PRAGMA journal_mode = DELETE")
        let findings = try to.texts("PRAGMA integrity_check")
        guard findings == ["ok"] else {
            throw StoreError(.corrupt, "the copy of \(source) failed its integrity check: "
                + findings.prefix(3).joined(separator: "; "))
        }
    }
}
