import ArgumentParser
import Foundation
import Store

/// `hlsq backup`: a consistent copy of the database, safe while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database to a new file, safely while the server is running.",
        discussion: """
            Uses SQLite's online backup API: the copy is one consistent snapshot, and the server \
            keeps writing meanwhile. The copy passes PRAGMA integrity_check before it appears at DEST.

            Exit codes: 0 copied; 1 the backup failed; 2 usage errors, a missing database, or an \
            existing DEST.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The database to copy.", valueName: "path"))
    var db = "var/hlsq.sqlite"

    @Argument(help: ArgumentHelp("Where to write the copy; must not exist yet.", valueName: "dest"))
    var destination: String

    func run() throws {
        do {
            try Store.backup(databaseAt: db, to: destination)
        } catch let error as StoreError where error.code == .fileNotFound || error.code == .destinationExists {
            FileHandle.standardError.write(Data("hlsq backup: \(error.message)\n".utf8))
            throw ExitCode(2)
        } catch {
            FileHandle.standardError.write(Data("hlsq backup: the backup of \(db) failed: \(error)\n".utf8))
            throw ExitCode(1)
        }
        print("Copied \(db) to \(destination).")
    }
}
