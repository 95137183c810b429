import CSQLite
@testable import Engine
import Foundation
import MediaTime
import Store
import Testing

/// A second connection to a test's database. Holding SQLite's write lock, as a backup or
/// another process would, makes the Engine's writes really fail with `SQLITE_BUSY`; a
/// trigger that raises makes them fail half-way through a transaction.
final class WriteLock {
    private var handle: OpaquePointer?

    /// With `holding`, the connection takes the write lock at once.
    init(path: String, holding: Bool = true) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
              !holding || sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else {
            sqlite3_close_v2(handle)
            throw Timeout(what: "the write lock is taken")
        }
    }

    /// Runs `sql` on this connection.
    @discardableResult
    func execute(_ sql: String) -> Bool {
        sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK
    }

    /// The first column of the first row of `sql`, read inside the held transaction.
    func integer(_ sql: String) -> Int64? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : nil
    }

    func release() {
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        sqlite3_close_v2(handle)
        handle = nil
    }

    deinit {
        if handle != nil { release() }
    }
}

/// What the database holds about a queue, read through a connection of its own.
struct StoredQueue: Equatable {
    let queue: Store.Queue
    var items: [Store.Item]
    let history: [Store.HistoryEntry]
    let playback: Store.Playback

    init(_ path: String, _ id: QueueID) throws {
        let restored = try Store(path: path).restoreQueue(Store.QueueID(rawValue: id.number))
        queue = restored.queue
        items = restored.items
        history = restored.history
        playback = restored.playback
    }
}

/// The parts of a queue's snapshot a mutation could change.
struct QueueDigest: Equatable {
    let name: String
    let settings: QueueSettings
    let rate: Double
    let status: TimeControlStatus
    let current: ItemID?
    let time: MediaTime
    let items: [PlayerItem]
    let history: [ItemID]

    init(_ state: QueueState) {
        name = state.name
        settings = state.settings
        rate = state.rate
        status = state.timeControlStatus
        current = state.currentItemID
        time = state.currentTime
        items = state.items.map(\.item)
        history = state.history.map(\.id)
    }
}

@Suite struct PersistenceTests {
    @Test func aRestartResumesPausedAtTheSavedItemAndPosition() async throws {
        let folder = try TemporaryFolder()
        let first = try await EngineFixture(folder: folder)
        let queue = try await first.engine.createQueue(name: "Resume").id
        let a = try await first.engine.addItem(NewItem(url: Shared.localMovie, title: "A"), to: queue)
        let b = try await first.engine.addItem(NewItem(url: Shared.origin.url("/chapters.mp4"), title: "B"), to: queue)
        try await first.waitUntilLoaded(a.id, in: queue)
        try await first.waitUntilLoaded(b.id, in: queue)
        _ = try await first.engine.perform(.play, on: queue)
        let before = try await first.advance(.milliseconds(13_250), queue)
        #expect(before.currentItemID == b.id)
        await first.engine.shutdown()

        let second = try await EngineFixture(folder: folder)
        let after = try await second.engine.queue(queue)
        #expect(after.name == "Resume")
        #expect(after.currentItemID == b.id, "the same item, under the same id")
        #expect(after.currentTime == milliseconds(1_250), "exactly where it was")
        #expect(after.timeControlStatus == .paused && after.rate == 0)
        #expect(after.history.map(\.id) == [a.id])
        #expect(after.items.map(\.item.title) == ["B"])
        // Loading starts again, and playing goes on from the saved position.
        try await second.waitUntilLoaded(b.id, in: queue)
        _ = try await second.engine.perform(.play, on: queue)
        let resumed = try await second.advance(.seconds(2), queue)
        #expect(resumed.currentTime == milliseconds(3_250))
    }

    @Test func aCrashLosesAtMostThePlayheadSinceThePeriodicSave() async throws {
        let folder = try TemporaryFolder()
        let first = try await EngineFixture(folder: folder) { $0.playheadSaveInterval = .seconds(5) }
        let queue = try await first.engine.createQueue(name: "Crash").id
        let item = try await first.engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        try await first.waitUntilLoaded(item.id, in: queue)
        _ = try await first.engine.perform(.play, on: queue)
        // The timer sleeps until the next save; the clock passes it and the save happens
        // without any request.
        try await eventually("the timer is armed") { first.clock.sleeperCount > 0 ? true : nil }
        first.clock.advance(by: .milliseconds(5_400))
        try await eventually("the periodic save reaches the database") {
            try StoredQueue(folder.databasePath, queue).items.first?.playhead == milliseconds(5_400) ? true : nil
        }
        // The engine is abandoned without shutdown, as a killed process would be.
        let second = try await EngineFixture(folder: folder) { $0.resumesPlaybackAfterRestart = true }
        let state = try await second.engine.queue(queue)
        #expect(state.currentItemID == item.id)
        #expect(state.currentTime == milliseconds(5_400))
        #expect(state.rate == 1, "configured to resume playing")
        try await second.waitUntilLoaded(item.id, in: queue)
        let playing = try await second.advance(.seconds(1), queue)
        #expect(playing.timeControlStatus == .playing)
        #expect(playing.currentTime == milliseconds(6_400))
        withExtendedLifetime(first) {}
    }

    @Test func anAcknowledgedMutationIsInTheDatabase() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Durable").id
        let a = try await engine.addItem(NewItem(url: Shared.localMovie, title: "A"), to: queue)
        let b = try await engine.addItem(NewItem(url: Shared.localMovie, title: "B"), to: queue, at: .index(1))
        _ = try await engine.moveItem(b.id, in: queue, to: .end)
        _ = try await engine.updateItem(a.id, in: queue, ItemChanges(
            title: .some("A2"), preferences: PlayerItem.Preferences(preferredPeakBitRate: 800_000),
            loop: .some(ItemLoop(plays: 2))))
        _ = try await engine.updateQueue(queue, QueueChanges(name: "Durable 2", actionAtItemEnd: .pause, loopMode: .queue))
        let stored = try StoredQueue(fixture.folder.databasePath, queue)
        #expect(stored.queue.name == "Durable 2")
        #expect(stored.queue.settings.actionAtItemEnd == .pause && stored.queue.settings.loopMode == .queue)
        #expect(stored.items.map(\.id.rawValue) == [a.id, b.id].compactMap { Int64($0.rawValue) })
        #expect(stored.items.first?.attributes.title == "A2")
        #expect(stored.items.first?.attributes.preferences.preferredPeakBitRate == 800_000)
        #expect(stored.items.first?.attributes.loop == Store.ItemLoop(plays: 2))
        #expect(stored.playback.currentItemID?.rawValue == Int64(a.id.rawValue))
        try await engine.removeItem(a.id, from: queue)
        #expect(try StoredQueue(fixture.folder.databasePath, queue).items.map(\.attributes.title) == ["B"])
    }

    @Test func rejectedMutationsChangeNeitherTheStateNorTheDatabase() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Strict").id
        let a = try await engine.addItem(NewItem(url: Shared.localMovie, title: "A"), to: queue)
        let b = try await engine.addItem(NewItem(url: Shared.localMovie, title: "B"), to: queue)
        // B is preloaded: wait for it too, so that its status cannot change between the
        // snapshots taken around each refused mutation.
        try await fixture.waitUntilLoaded(a.id, in: queue)
        try await fixture.waitUntilLoaded(b.id, in: queue)
        _ = try await engine.perform(.play, on: queue)
        try await fixture.advance(.seconds(3), queue)

        let unknown = ItemID("999999")
        let attempts: [(String, EngineError.Code, String?, @Sendable (Engine) async throws -> Void)] = [
            ("insert after an unknown item", .cannotInsert, "anchorNotInQueue",
             { _ = try await $0.addItem(NewItem(url: Shared.localMovie), to: queue, at: .after(unknown)) }),
            ("insert past the end", .cannotInsert, "indexOutOfRange",
             { _ = try await $0.addItem(NewItem(url: Shared.localMovie), to: queue, at: .index(5)) }),
            ("insert before the current item", .cannotInsert, "indexOutOfRange",
             { _ = try await $0.addItem(NewItem(url: Shared.localMovie), to: queue, at: .index(0)) }),
            ("a URL that is not media", .validationFailed, nil,
             { _ = try await $0.addItem(NewItem(url: "ftp://host/x.mp4"), to: queue) }),
            ("an import with one bad entry", .validationFailed, nil,
             { _ = try await $0.importItems([NewItem(url: Shared.localMovie), NewItem(url: "relative.mp4")], into: queue) }),
            ("move an unknown item", .notFound, nil, { _ = try await $0.moveItem(unknown, in: queue, to: .end) }),
            ("move out of range", .commandRefused, "indexOutOfRange", { _ = try await $0.moveItem(b.id, in: queue, to: .index(9)) }),
            ("seek outside the item", .commandRefused, "outsideSeekableRange",
             { _ = try await $0.perform(.seek(to: seconds(100)), on: queue) }),
            ("a rate that is not a number", .validationFailed, nil, { _ = try await $0.perform(.setRate(.nan), on: queue) }),
            ("previous with no history", .commandRefused, "noHistory", { _ = try await $0.perform(.previous, on: queue) }),
            ("jump to an unknown item", .notFound, nil, { _ = try await $0.perform(.jump(unknown), on: queue) }),
            ("an empty name", .validationFailed, nil, { _ = try await $0.updateQueue(queue, QueueChanges(name: "  ")) }),
            ("a default rate of 5", .validationFailed, nil,
             { _ = try await $0.updateQueue(queue, QueueChanges(name: "Renamed", defaultRate: 5)) }),
            ("a loop that never plays", .validationFailed, nil,
             { _ = try await $0.updateItem(b.id, in: queue, ItemChanges(title: .some("B2"), loop: .some(ItemLoop(plays: 0)))) }),
            ("remove an unknown item", .notFound, nil, { try await $0.removeItem(unknown, from: queue) }),
            ("an unknown queue", .notFound, nil, { _ = try await $0.perform(.pause, on: QueueID(number: 4242)) }),
        ]
        for (what, code, reason, attempt) in attempts {
            let before = QueueDigest(try await engine.queue(queue))
            let storedBefore = try StoredQueue(fixture.folder.databasePath, queue)
            do {
                try await attempt(engine)
                Issue.record("\(what): accepted")
            } catch let error as EngineError {
                #expect(error.code == code, "\(what): \(error)")
                #expect(error.reason == reason, "\(what): \(error)")
                if code == .validationFailed { #expect(error.field != nil, "\(what) names its field") }
            }
            #expect(QueueDigest(try await engine.queue(queue)) == before, "\(what) changed the queue")
            #expect(try StoredQueue(fixture.folder.databasePath, queue) == storedBefore, "\(what) changed the database")
        }
    }

    @Test func aFailedWriteLeavesTheQueueAsItWas() async throws {
        let fixture = try await EngineFixture { $0.busyTimeout = .milliseconds(50) }
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Locked").id
        let a = try await engine.addItem(NewItem(url: Shared.localMovie, title: "A"), to: queue)
        try await fixture.waitUntilLoaded(a.id, in: queue)
        let before = QueueDigest(try await engine.queue(queue))
        let storedBefore = try StoredQueue(fixture.folder.databasePath, queue)

        let lock = try WriteLock(path: fixture.folder.databasePath)
        let attempts: [(String, @Sendable (Engine) async throws -> Void)] = [
            ("add", { _ = try await $0.addItem(NewItem(url: Shared.localMovie, title: "B"), to: queue) }),
            ("play", { _ = try await $0.perform(.play, on: queue) }),
            ("rename", { _ = try await $0.updateQueue(queue, QueueChanges(name: "Other")) }),
        ]
        for (what, attempt) in attempts {
            do {
                try await attempt(engine)
                Issue.record("\(what) succeeded without the database")
            } catch let error as EngineError {
                #expect(error.code == .storageFailed, "\(what): \(error)")
            }
            #expect(QueueDigest(try await engine.queue(queue)) == before, "\(what) was applied")
        }
        lock.release()
        #expect(try StoredQueue(fixture.folder.databasePath, queue) == storedBefore)
        let added = try await engine.addItem(NewItem(url: Shared.localMovie, title: "B"), to: queue)
        #expect(try StoredQueue(fixture.folder.databasePath, queue).items.map(\.attributes.title) == ["A", "B"])
        #expect(try await engine.queue(queue).items.map(\.id) == [a.id, added.id])
    }

    @Test func writesOfTheClockThatFailAreMadeLaterInOrder() async throws {
        let folder = try TemporaryFolder()
        let fixture = try await EngineFixture(folder: folder) { $0.busyTimeout = .milliseconds(20) }
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Later").id
        let a = try await engine.addItem(NewItem(url: Shared.localMovie, title: "A"), to: queue)
        let b = try await engine.addItem(NewItem(url: Shared.localMovie, title: "B"), to: queue)
        try await fixture.waitUntilLoaded(a.id, in: queue)
        try await fixture.waitUntilLoaded(b.id, in: queue)
        _ = try await engine.perform(.play, on: queue)

        let lock = try WriteLock(path: folder.databasePath)
        // The clock passes A's end while the database is locked: playback goes on (time
        // passing is a fact), and the edits wait.
        let state = try await fixture.advance(.seconds(13), queue)
        #expect(state.currentItemID == b.id)
        #expect(lock.integer("SELECT count(*) FROM history") == 0, "nothing written yet")
        lock.release()
        // The retry writes them (or the next request would).
        fixture.clock.advance(by: .seconds(2))
        try await eventually("the edits reach the database") {
            let stored = try StoredQueue(folder.databasePath, queue)
            return stored.items.map(\.attributes.title) == ["B"] && stored.history.count == 1 ? true : nil
        }
        await engine.shutdown()
        let restarted = try await EngineFixture(folder: folder)
        let restored = try await restarted.engine.queue(queue)
        #expect(restored.currentItemID == b.id)
        #expect(restored.history.map(\.id) == [a.id])
        #expect(restored.currentTime == seconds(3))
    }

    @Test func aWriteThatFailsAfterTheCommandRanRebuildsTheQueueFromTheDatabase() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Half-way").id
        let a = try await engine.addItem(NewItem(url: Shared.localMovie, title: "A"), to: queue)
        let b = try await engine.addItem(NewItem(url: Shared.localMovie, title: "B"), to: queue)
        let c = try await engine.addItem(NewItem(url: Shared.localMovie, title: "C"), to: queue)
        // B is preloaded: wait for it too, so that no status changes while the move fails.
        try await fixture.waitUntilLoaded(a.id, in: queue)
        try await fixture.waitUntilLoaded(b.id, in: queue)
        _ = try await engine.perform(.play, on: queue)
        let before = try await fixture.advance(.milliseconds(2_500), queue)
        let storedBefore = try StoredQueue(fixture.folder.databasePath, queue)

        // Moving C fails inside the transaction, after the player already moved it.
        let connection = try WriteLock(path: fixture.folder.databasePath, holding: false)
        #expect(connection.execute("""
            CREATE TRIGGER refuse_move BEFORE UPDATE OF rank ON items WHEN NEW.id = \(c.id.rawValue)
            BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
            """))
        do {
            _ = try await engine.moveItem(c.id, in: queue, to: .after(a.id))
            Issue.record("the move cannot have been saved")
        } catch {
            #expect(error.code == .storageFailed)
        }
        let after = try await engine.queue(queue)
        #expect(after.items.map(\.id) == [a.id, b.id, c.id], "the order is the database's, as before")
        #expect(after.currentItemID == a.id && after.currentTime == before.currentTime && after.rate == 1)
        // The engine may save the playhead it owes since `advance` before it tries the move, in
        // a transaction of its own: only the current item's playhead may differ, and only to
        // the time the player had reached.
        var storedAfter = try StoredQueue(fixture.folder.databasePath, queue)
        #expect([storedBefore.items[0].attributes.playhead, before.currentTime].contains(storedAfter.items[0].attributes.playhead))
        storedAfter.items[0].attributes.playhead = storedBefore.items[0].attributes.playhead
        #expect(storedAfter == storedBefore)
        // The rebuilt queue loads again and plays on.
        try await fixture.waitUntilLoaded(a.id, in: queue)
        let playing = try await fixture.advance(.seconds(1), queue)
        #expect(playing.currentTime == milliseconds(3_500))
        #expect(connection.execute("DROP TRIGGER refuse_move"))
        let moved = try await engine.moveItem(c.id, in: queue, to: .after(a.id))
        #expect(moved.items.map(\.id) == [a.id, c.id, b.id])
    }
}
