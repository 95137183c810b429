import Foundation
import Synchronization
import Testing
@testable import Store

@Suite struct BackupTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    /// Opens `path` with a plain connection, as a person checking a backup would.
    private func integrityCheck(_ path: String) throws -> [String] {
        try Database(path: path, create: false).texts("PRAGMA integrity_check")
    }

    @Test func copiesAStoreThatIsOpen() throws {
        let (queue, items) = try fixture.queue((0..<500).map { "item \($0)" })
        try store.savePlayback(Store.Playback(currentItemID: items[3].id, rate: 1), of: queue.id)
        let destination = fixture.directory.path("copy.sqlite")
        try Store.backup(databaseAt: fixture.path, to: destination)

        #expect(try integrityCheck(destination) == ["ok"])
        let copy = try Store(path: destination)
        #expect(try copy.restoreQueue(queue.id).items == items)
        #expect(try copy.playback(of: queue.id).currentItemID == items[3].id)
        // One self-contained file, and no temporary file left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
        #expect(!names.contains { $0.contains("partial") })
    }

    /// Another connection writes continuously, committing each item with its event, from
    /// before the backup starts until after it ends: the copy is one consistent snapshot
    /// between two of its commits.
    @Test func copiesWhileAnotherConnectionWrites() throws {
        let queue = try store.createQueue(name: "busy")
        try store.insertItems((0..<20_000).map { StoreFixture.attributes("seed \($0)") }, into: queue.id)
        let path = fixture.path
        let progress = WriterProgress()
        let writer = Thread {
            do {
                let writing = try Store(path: path)
                var index = 0
                while !progress.stop.load(ordering: .acquiring) {
                    try writing.transaction {
                        try writing.insertItem(StoreFixture.attributes("written \(index)"), into: queue.id)
                        try writing.appendEvent(Store.JournalEvent(sequence: Int64(index + 1), queueID: queue.id,
                                                                   type: "itemsChanged", payload: "{}"))
                    }
                    index += 1
                    progress.committed.store(index, ordering: .releasing)
                }
            } catch {
                progress.failure.withLock { $0 = "\(error)" }
            }
            progress.finished.signal()
        }
        writer.start()
        func waitForCommits(_ count: Int) {
            while progress.committed.load(ordering: .acquiring) < count, progress.failure.withLock({ $0 }) == nil {
                usleep(1_000)
            }
        }
        waitForCommits(100)
        let destination = fixture.directory.path("copy.sqlite")
        try Store.backup(databaseAt: path, to: destination)
        let committedAfterBackup = progress.committed.load(ordering: .acquiring)
        waitForCommits(committedAfterBackup + 20)
        progress.stop.store(true, ordering: .releasing)
        progress.finished.wait()
        #expect(progress.failure.withLock { $0 } == nil)

        #expect(try integrityCheck(destination) == ["ok"])
        let copy = try Store(path: destination)
        let copied = try copy.items(in: queue.id).count - 20_000
        #expect(copied >= 100)
        #expect(copied <= committedAfterBackup)
        // Each item was committed with its event: a snapshot holds both or neither.
        #expect(try copy.lastEventSequence() == Int64(copied))
    }

    @Test func refusesAMissingSourceAndAnExistingDestination() throws {
        let missing = try #require(throws: StoreError.self) {
            try Store.backup(databaseAt: fixture.directory.path("nothing.sqlite"), to: fixture.directory.path("a.sqlite"))
        }
        #expect(missing.code == .fileNotFound)
        #expect(!FileManager.default.fileExists(atPath: fixture.directory.path("a.sqlite")))

        let existing = fixture.directory.path("existing.sqlite")
        let content = Data("precious".utf8)
        try content.write(to: URL(fileURLWithPath: existing))
        let exists = try #require(throws: StoreError.self) { try Store.backup(databaseAt: fixture.path, to: existing) }
        #expect(exists.code == .destinationExists)
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == content)
    }

    @Test func aFailedBackupLeavesNoFile() throws {
        let notADatabase = fixture.directory.path("notes.txt")
        try Data(String(repeating: "not a database\n", count: 500).utf8).write(to: URL(fileURLWithPath: notADatabase))
        let destination = fixture.directory.path("copy.sqlite")
        let error = try #require(throws: DatabaseError.self) { try Store.backup(databaseAt: notADatabase, to: destination) }
        #expect(error.resultCode == .notADatabase)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
        #expect(!names.contains { $0.hasPrefix("copy.sqlite") })
    }
}

/// What the writer thread reports to the test.
private final class WriterProgress: Sendable {
    let committed = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let failure = Mutex<String?>(nil)
    let finished = DispatchSemaphore(value: 0)
}
