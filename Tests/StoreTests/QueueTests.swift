import MediaTime
import Testing
@testable import Store

@Suite struct QueueTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    static let settings: [Store.QueueSettings] = [
        Store.QueueSettings(),
        Store.QueueSettings(actionAtItemEnd: .pause, consume: false, loopMode: .queue, defaultRate: 1.5,
                            automaticallyWaitsToMinimizeStalling: false),
        Store.QueueSettings(actionAtItemEnd: .none, loopMode: .item(Store.ItemLoop())),
        Store.QueueSettings(loopMode: .item(Store.ItemLoop(plays: 3, timeRange: TimeRange(
            start: MediaTime(value: 1001, timescale: 30000), end: MediaTime(value: 90, timescale: 1))))),
        Store.QueueSettings(loopMode: .item(Store.ItemLoop(plays: 1, timeRange: TimeRange(
            start: .zero, end: .indefinite))), defaultRate: -0.5),
    ]

    @Test(arguments: settings)
    func settingsRoundTrip(_ settings: Store.QueueSettings) throws {
        let created = try store.createQueue(name: "Ünïcode \u{0} name", settings: settings)
        #expect(try store.queue(created.id) == created)
        #expect(created.settings == settings)
        // Through a new connection too: nothing came from a cache.
        let reopened = try Store(path: fixture.path)
        #expect(try reopened.queue(created.id).settings == settings)
        #expect(try reopened.queue(created.id).name == "Ünïcode \u{0} name")
    }

    @Test func aNewQueueIsEmptyAndPaused() throws {
        let queue = try store.createQueue(name: "new")
        let restored = try store.restoreQueue(queue.id)
        #expect(restored.items.isEmpty)
        #expect(restored.history.isEmpty)
        #expect(restored.playback == Store.Playback())
    }

    @Test func renameUpdateAndDelete() throws {
        let first = try store.createQueue(name: "first")
        let second = try store.createQueue(name: "second")
        try store.renameQueue(first.id, to: "renamed")
        try store.updateQueueSettings(second.id, Self.settings[1])
        #expect(try store.queues() == [
            Store.Queue(id: first.id, name: "renamed", settings: Store.QueueSettings()),
            Store.Queue(id: second.id, name: "second", settings: Self.settings[1]),
        ])
        try store.deleteQueue(first.id)
        #expect(try store.queues().map(\.id) == [second.id])
        // A deleted queue's id is never handed out again.
        let third = try store.createQueue(name: "third")
        #expect(third.id > second.id)
    }

    @Test func deletingAQueueDeletesItsItems() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        try store.appendHistoryEntry(Store.HistoryEntry(serial: 1, item: items[0]))
        try store.deleteQueue(queue.id)
        #expect(try store.database.integer("SELECT count(*) FROM items") == 0)
        #expect(try store.database.integer("SELECT count(*) FROM history") == 0)
        #expect(try store.database.integer("SELECT count(*) FROM playback") == 0)
        #expect(throws: StoreError.self) { try store.item(items[1].id) }
    }

    @Test func unknownQueues() throws {
        let missing = Store.QueueID(rawValue: 42)
        let refusals: [() throws -> Void] = [
            { _ = try store.queue(missing) },
            { try store.renameQueue(missing, to: "x") },
            { try store.updateQueueSettings(missing, Store.QueueSettings()) },
            { try store.deleteQueue(missing) },
            { _ = try store.items(in: missing) },
            { _ = try store.history(of: missing) },
            { _ = try store.playback(of: missing) },
            { try store.savePlayback(Store.Playback(), of: missing) },
            { try store.insertItem(StoreFixture.attributes("a"), into: missing) },
        ]
        for refusal in refusals {
            let error = try #require(throws: StoreError.self) { try refusal() }
            #expect(error.code == .queueNotFound)
            #expect(error.message == "there is no queue 42")
        }
        #expect(try store.database.integer("SELECT count(*) FROM items") == 0)
    }

    @Test(arguments: [
        Store.QueueSettings(defaultRate: .nan),
        Store.QueueSettings(defaultRate: .infinity),
        Store.QueueSettings(loopMode: .item(Store.ItemLoop(plays: 0))),
        Store.QueueSettings(loopMode: .item(Store.ItemLoop(timeRange: TimeRange(
            start: MediaTime(seconds: 5), end: MediaTime(seconds: 2))))),
        Store.QueueSettings(loopMode: .item(Store.ItemLoop(timeRange: TimeRange(
            start: .invalid, end: MediaTime(seconds: 2))))),
    ])
    func invalidSettingsAreRefused(_ settings: Store.QueueSettings) throws {
        let error = try #require(throws: StoreError.self) { try store.createQueue(name: "bad", settings: settings) }
        #expect(error.code == .invalidValue)
        let queue = try store.createQueue(name: "good")
        #expect(throws: StoreError.self) { try store.updateQueueSettings(queue.id, settings) }
        #expect(try store.queues() == [queue])
    }
}
