import Foundation
import Store
import Testing

/// `hlsq backup` run as a real process: the copy and the exit codes.
@Suite final class BackupCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// The server's situation: the store is open, and its last commits are still in the
    /// write-ahead log, not in the database file.
    @Test func copiesADatabaseThatIsOpen() throws {
        let server = try Store(path: path("hlsq.sqlite"))
        let queue = try server.createQueue(name: "open")
        for index in 0..<50 {
            try server.insertItem(Store.ItemAttributes(url: "https://media.example/\(index).m3u8"), into: queue.id)
        }
        let log = try FileManager.default.attributesOfItem(atPath: path("hlsq.sqlite-wal"))[.size] as? Int
        #expect((log ?? 0) > 0)

        let run = try HLSQProcess.run("backup", "--db", path("hlsq.sqlite"), path("copy.sqlite"))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Copied"))
        let copy = try Store(path: path("copy.sqlite"))
        #expect(try copy.items(in: queue.id) == server.items(in: queue.id))
    }

    @Test func exitCodes() throws {
        _ = try Store(path: path("source.sqlite"))
        try Data("taken".utf8).write(to: URL(fileURLWithPath: path("taken.sqlite")))
        try Data(String(repeating: "not a database\n", count: 400).utf8)
            .write(to: URL(fileURLWithPath: path("notes.sqlite")))
        let cases: [(arguments: [String], status: Int32, message: String?)] = [
            (["backup", "--db", path("source.sqlite"), path("copy.sqlite")], 0, nil),
            (["backup", "--db", path("missing.sqlite"), path("other.sqlite")], 2,
             "there is no database at \(path("missing.sqlite"))"),
            (["backup", "--db", path("source.sqlite"), path("taken.sqlite")], 2, "taken.sqlite already exists"),
            (["backup", "--db", path("source.sqlite")], 2, "Missing expected argument '<dest>'"),
            (["backup", "--db", path("notes.sqlite"), path("notes-copy.sqlite")], 1, "file is not a database"),
        ]
        for (arguments, status, message) in cases {
            let run = try HLSQProcess.run(arguments: arguments)
            #expect(run.status == status, "\(arguments): \(run.errors)")
            if let message {
                #expect(run.errors.contains(message), "\(arguments): \(run.errors)")
            } else {
                #expect(run.errors.isEmpty)
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("taken.sqlite"))) == Data("taken".utf8))
        #expect(!FileManager.default.fileExists(atPath: path("notes-copy.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: path("other.sqlite")))
    }
}
