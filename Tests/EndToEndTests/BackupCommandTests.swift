import Foundation
import Store
import Testing

/// `hlsq backup`, run as the real binary.
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

    /// The hlsq binary, built next to this test bundle.
    private static let binary = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("hlsq")

    /// Runs `hlsq arguments…` in the temporary directory; returns its exit code and
    /// standard error.
    private func hlsq(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The server's situation: the store is open, and its last commits are still in the
    /// write-ahead log, not in the database file.
    @Test func copiesADatabaseThatIsOpen() throws {
        try FileManager.default.createDirectory(atPath: path("var"), withIntermediateDirectories: true)
        let server = try Store(path: path("var/hlsq.sqlite"))
        let queue = try server.createQueue(name: "open")
        for index in 0..<50 {
            try server.insertItem(Store.ItemAttributes(url: "https://media.example/\(index).m3u8"), into: queue.id)
        }
        let log = try FileManager.default.attributesOfItem(atPath: path("var/hlsq.sqlite-wal"))[.size] as? Int
        #expect((log ?? 0) > 0)

        let result = try hlsq(["backup", "copy.sqlite"])
        #expect(result.status == 0, "\(result.error)")
        let copy = try Store(path: path("copy.sqlite"))
        #expect(try copy.items(in: queue.id) == server.items(in: queue.id))
    }

    @Test func exitCodes() throws {
        _ = try Store(path: path("source.sqlite"))
        try Data("taken".utf8).write(to: URL(fileURLWithPath: path("taken.sqlite")))
        try Data(String(repeating: "not a database\n", count: 400).utf8)
            .write(to: URL(fileURLWithPath: path("notes.sqlite")))
        let cases: [(arguments: [String], status: Int32, message: String?)] = [
            (["backup", "--db", "source.sqlite", "copy.sqlite"], 0, nil),
            (["backup", "--db", "missing.sqlite", "other.sqlite"], 2, "there is no database at missing.sqlite"),
            (["backup", "--db", "source.sqlite", "taken.sqlite"], 2, "taken.sqlite already exists"),
            (["backup", "--db", "notes.sqlite", "notes-copy.sqlite"], 1, "file is not a database"),
        ]
        for (arguments, status, message) in cases {
            let result = try hlsq(arguments)
            #expect(result.status == status, "\(arguments): \(result.error)")
            if let message {
                #expect(result.error.contains(message), "\(arguments): \(result.error)")
            } else {
                #expect(result.error.isEmpty)
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("taken.sqlite"))) == Data("taken".utf8))
        #expect(!FileManager.default.fileExists(atPath: path("notes-copy.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: path("other.sqlite")))
    }
}
