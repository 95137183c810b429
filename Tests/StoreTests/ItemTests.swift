import MediaTime
import Testing
@testable import Store

@Suite struct ItemTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    @Test func insertAtEveryPosition() throws {
        let (queue, items) = try fixture.queue(["b", "d"])
        let (b, d) = (items[0].id, items[1].id)
        try store.insertItem(StoreFixture.attributes("e"), into: queue.id, at: .last)
        try store.insertItem(StoreFixture.attributes("a"), into: queue.id, at: .first)
        try store.insertItem(StoreFixture.attributes("c"), into: queue.id, at: .after(b))
        try store.insertItem(StoreFixture.attributes("c2"), into: queue.id, at: .before(d))
        try store.insertItems(["b1", "b2", "b3"].map(StoreFixture.attributes), into: queue.id, at: .after(b))
        #expect(try fixture.titles(queue.id) == ["a", "b", "b1", "b2", "b3", "c", "c2", "d", "e"])
    }

    /// Bulk inserts go in by statements of 64 rows: every count returns exactly what was
    /// stored, ids included, in order.
    @Test(arguments: [1, 63, 64, 65, 130, 1_000])
    func bulkInsertReturnsTheStoredItems(count: Int) throws {
        let (queue, existing) = try fixture.queue(["first", "last"])
        let batch = (0..<count).map { index in
            var attributes = StoreFixture.attributes("new \(index)")
            attributes.kind = index % 2 == 0 ? .hls : .mediaFile
            attributes.mediaSelections = index % 3 == 0 ? ["audible": .option("track \(index)")] : [:]
            return attributes
        }
        let inserted = try store.insertItems(batch, into: queue.id, at: .after(existing[0].id))
        #expect(inserted.map(\.attributes) == batch)
        #expect(try store.items(in: queue.id) == [existing[0]] + inserted + [existing[1]])
        #expect(Set(inserted.map(\.id)).count == count)
    }

    @Test func idsAreStableAndNeverReused() throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        try store.removeItem(items[1].id)
        let next = try store.insertItem(StoreFixture.attributes("c"), into: queue.id)
        #expect(next.id > items[1].id)
        let reopened = try Store(path: fixture.path)
        #expect(try reopened.items(in: queue.id).map(\.id) == [items[0].id, next.id])
    }

    static let attributes: [Store.ItemAttributes] = [
        Store.ItemAttributes(url: "https://media.example/a.m3u8"),
        Store.ItemAttributes(
            url: "file:///media/Café \u{0} ünïcode/日本.mp4", title: "Ti\u{0}tle — 🎬", kind: .mediaFile,
            status: .failed(Store.ItemFailure(domain: "http", code: 404, message: "GET segment.ts: 404 Not Found")),
            playhead: MediaTime(value: 1001, timescale: 30000),
            preferences: Store.ItemPreferences(
                preferredForwardBufferDuration: MediaTime(value: 1001, timescale: 30000),
                preferredPeakBitRate: 2_500_000.5,
                forwardPlaybackEndTime: MediaTime(value: -7, timescale: 3),
                reversePlaybackEndTime: .indefinite),
            mediaSelections: ["audible": .option("Français"), "legible": .option("English \"CC\"")],
            loop: Store.ItemLoop(plays: 4, timeRange: TimeRange(start: MediaTime(seconds: 2),
                                                                end: MediaTime(value: 19, timescale: 2)))),
        Store.ItemAttributes(url: "", title: "", kind: .hls, status: .readyToPlay, playhead: .indefinite,
                             mediaSelections: ["legible": .off], loop: Store.ItemLoop()),
        Store.ItemAttributes(url: "https://media.example/live.m3u8", status: .loading, playhead: .invalid,
                             preferences: Store.ItemPreferences(forwardPlaybackEndTime: .invalid)),
        Store.ItemAttributes(url: "https://media.example/b.m3u8",
                             preferences: Store.ItemPreferences(reversePlaybackEndTime: MediaTime(seconds: 1))),
    ]

    @Test(arguments: attributes)
    func attributesRoundTrip(_ attributes: Store.ItemAttributes) throws {
        let queue = try store.createQueue(name: "q")
        let inserted = try store.insertItem(attributes, into: queue.id)
        #expect(inserted.attributes == attributes)
        let reopened = try Store(path: fixture.path)
        #expect(try reopened.item(inserted.id) == inserted)
        #expect(try reopened.items(in: queue.id) == [inserted])
    }

    /// Preferences equal to the defaults but written differently (0/1000 s is 0 s) keep
    /// their exact representation.
    @Test func preferencesKeepTheirExactTimescales() throws {
        let queue = try store.createQueue(name: "q")
        var attributes = StoreFixture.attributes("a")
        attributes.preferences.preferredForwardBufferDuration = MediaTime(value: 0, timescale: 1000)
        #expect(attributes.preferences == Store.ItemPreferences())
        let inserted = try store.insertItem(attributes, into: queue.id)
        let restored = try Store(path: fixture.path).item(inserted.id).preferences.preferredForwardBufferDuration
        #expect(restored.value == 0)
        #expect(restored.timescale == 1000)
    }

    @Test func updateWritesEverythingButTheURL() throws {
        let (queue, items) = try fixture.queue(["a"])
        var item = items[0]
        item.title = "renamed"
        item.kind = .hls
        item.status = .failed(Store.ItemFailure(domain: "curl", code: 28, message: "no answer in 10 s"))
        item.preferences.preferredPeakBitRate = 800_000
        item.preferences.forwardPlaybackEndTime = MediaTime(seconds: 30)
        item.mediaSelections = ["audible": .option("en"), "legible": .off]
        item.loop = Store.ItemLoop(plays: 2)
        item.playhead = MediaTime(value: 90_090, timescale: 90_000)
        try store.updateItem(item)
        #expect(try store.item(item.id) == item)

        var moved = item
        moved.url = "https://elsewhere.example/"
        try store.updateItem(moved)
        #expect(try store.item(item.id).url == items[0].url)
        #expect(try store.items(in: queue.id).count == 1)
    }

    @Test func invalidAttributesAreRefused() throws {
        let (queue, items) = try fixture.queue(["a"])
        for bitRate in [-1, Double.nan, .infinity] {
            var attributes = StoreFixture.attributes("bad")
            attributes.preferences.preferredPeakBitRate = bitRate
            let error = try #require(throws: StoreError.self) { try store.insertItem(attributes, into: queue.id) }
            #expect(error.code == .invalidValue)
            var item = items[0]
            item.preferences.preferredPeakBitRate = bitRate
            #expect(throws: StoreError.self) { try store.updateItem(item) }
        }
        #expect(try store.items(in: queue.id) == items)
    }

    /// A bulk import is one transaction: when its 3,000th row fails, none of it is there.
    @Test func aFailingBulkImportLeavesNothing() throws {
        let (queue, items) = try fixture.queue(["kept"])
        try store.database.execute("""
            CREATE TRIGGER refuse_poison BEFORE INSERT ON items WHEN NEW.title = 'poison'
            BEGIN SELECT RAISE(ABORT, 'poisoned item'); END
            """)
        var batch = (0..<5_000).map { StoreFixture.attributes("item \($0)") }
        batch[2_999].title = "poison"
        let before = store.database.totalChanges
        let error = try #require(throws: DatabaseError.self) { try store.insertItems(batch, into: queue.id) }
        #expect(error.message == "poisoned item")
        #expect(error.resultCode == .constraint)
        #expect(try store.items(in: queue.id) == items)
        // Thousands of rows were written before the failure, then undone: none can be read.
        #expect(store.database.totalChanges - before > 2_000)
        #expect(try store.database.integer("SELECT max(id) FROM items") == items[0].id.rawValue)
    }

    @Test func aFailingMutationInsideATransactionUndoesTheWholeTransaction() throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        struct Refusal: Error {}
        #expect(throws: Refusal.self) {
            try store.transaction {
                try store.insertItem(StoreFixture.attributes("c"), into: queue.id)
                try store.moveItem(items[1].id, to: .first)
                try store.removeItem(items[0].id)
                throw Refusal()
            }
        }
        #expect(try store.items(in: queue.id) == items)
    }

    @Test func aRefusedMutationInsideATransactionUndoesOnlyItself() throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        try store.transaction {
            try store.insertItem(StoreFixture.attributes("c"), into: queue.id)
            // Refused half-way: the first item was deleted before the unknown one failed.
            #expect(throws: StoreError.self) {
                try store.removeItems([items[0].id, Store.ItemID(rawValue: 999)])
            }
        }
        #expect(try fixture.titles(queue.id) == ["a", "b", "c"])
    }

    @Test func removeItemsAndClear() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c", "d"])
        try store.removeItems([items[1].id, items[3].id])
        #expect(try fixture.titles(queue.id) == ["a", "c"])
        try store.appendHistoryEntry(Store.HistoryEntry(serial: 1, item: items[0]))
        try store.removeAllItems(in: queue.id)
        #expect(try store.items(in: queue.id).isEmpty)
        #expect(try store.history(of: queue.id).map(\.item) == [items[0]])
        let error = try #require(throws: StoreError.self) { try store.removeItem(items[1].id) }
        #expect(error.code == .itemNotFound)
        #expect(error.message == "there is no \(items[1].id)")
    }

    /// An item that left the list comes back under its own id, with its attributes, wherever
    /// it is put; an id still in a list, or never assigned, is refused.
    @Test func reinsertingKeepsTheID() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        var gone = items[1]
        gone.playhead = MediaTime(value: 12, timescale: 1)
        try store.removeItem(gone.id)
        let written = try fixture.rowsWritten { try store.reinsertItem(gone, at: .first) }
        #expect(written == 1)
        #expect(try store.items(in: queue.id).map(\.id) == [gone.id, items[0].id, items[2].id])
        #expect(try store.item(gone.id) == gone)

        let twice = try #require(throws: StoreError.self) { try store.reinsertItem(gone, at: .last) }
        #expect(twice.code == .itemAlreadyInList)
        let invented = Store.Item(id: Store.ItemID(rawValue: 999), queueID: queue.id, attributes: gone.attributes)
        let never = try #require(throws: StoreError.self) { try store.reinsertItem(invented, at: .last) }
        #expect(never.code == .invalidValue)
        // New items still get new ids.
        #expect(try store.insertItem(StoreFixture.attributes("d"), into: queue.id).id > items[2].id)
    }

    @Test func savingAPlayheadWritesOneRowExactly() throws {
        let (_, items) = try fixture.queue(["a", "b"])
        for playhead in [MediaTime(value: 1001, timescale: 30000), .zero, MediaTime(value: 0, timescale: 90_000),
                         .indefinite, .invalid, MediaTime(value: -3, timescale: 7)] {
            #expect(try fixture.rowsWritten { try store.savePlayhead(playhead, of: items[1].id) } == 1)
            let restored = try Store(path: fixture.path).item(items[1].id).playhead
            #expect(restored.value == playhead.value && restored.timescale == playhead.timescale)
            #expect(restored.isIndefinite == playhead.isIndefinite && restored.isValid == playhead.isValid)
        }
        #expect(try store.item(items[0].id).playhead == .zero)
        let error = try #require(throws: StoreError.self) {
            try store.savePlayhead(.zero, of: Store.ItemID(rawValue: 99))
        }
        #expect(error.code == .itemNotFound)
    }

    @Test func refusedPositions() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        let (other, otherItems) = try fixture.queue(["x"], name: "other")
        let missing = Store.ItemID(rawValue: 999)
        let cases: [(StoreError.Code, () throws -> Void)] = [
            (.itemNotFound, { try store.moveItem(missing, to: .first) }),
            (.itemNotFound, { try store.moveItem(items[0].id, to: .after(missing)) }),
            (.itemNotFound, { try store.insertItem(StoreFixture.attributes("n"), into: queue.id, at: .before(missing)) }),
            (.itemsInDifferentQueues, { try store.moveItem(items[0].id, to: .after(otherItems[0].id)) }),
            (.itemsInDifferentQueues, { try store.moveItems([items[0].id, otherItems[0].id], to: .last) }),
            (.itemsInDifferentQueues, {
                try store.insertItem(StoreFixture.attributes("n"), into: other.id, at: .after(items[0].id))
            }),
            (.invalidPosition, { try store.moveItem(items[0].id, to: .after(items[0].id)) }),
            (.invalidPosition, { try store.moveItems([items[0].id, items[1].id], to: .before(items[1].id)) }),
            (.invalidPosition, { try store.moveItems([items[0].id, items[0].id], to: .last) }),
        ]
        let before = store.database.totalChanges
        for (code, refusal) in cases {
            let error = try #require(throws: StoreError.self) { try refusal() }
            #expect(error.code == code, "\(error)")
        }
        #expect(store.database.totalChanges == before)
        #expect(try fixture.titles(queue.id) == ["a", "b", "c"])
    }
}
