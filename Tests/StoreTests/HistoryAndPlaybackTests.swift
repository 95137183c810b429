import MediaTime
import Testing
@testable import Store

@Suite struct HistoryAndPlaybackTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture(configuration: Store.Configuration(historyLimit: 3))
    }

    /// What the Engine does when the player passes an item with consume on: the item leaves
    /// the list, and a copy goes to the history under the player's serial.
    private func pass(_ item: Store.Item, serial: Int64) throws {
        try store.transaction {
            try store.removeItem(item.id)
            try store.appendHistoryEntry(Store.HistoryEntry(serial: serial, item: item))
        }
    }

    @Test func historyEntriesAreCopiesInSerialOrder() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        var played = items[0]
        played.playhead = MediaTime(value: 6006, timescale: 1000)
        played.status = .readyToPlay
        #expect(try fixture.rowsWritten { try pass(played, serial: 10) } == 2)
        try pass(items[1], serial: 11)
        #expect(try fixture.titles(queue.id) == ["c"])
        let history = try Store(path: fixture.path).history(of: queue.id)
        #expect(history == [Store.HistoryEntry(serial: 10, item: played), Store.HistoryEntry(serial: 11, item: items[1])])
        let error = try #require(throws: StoreError.self) {
            try store.appendHistoryEntry(Store.HistoryEntry(serial: 11, item: items[2]))
        }
        #expect(error.code == .outOfOrder)
    }

    /// A queue that repeats with consume on: the item is in the history and in the list at
    /// once, under one id.
    @Test func anItemCanBeInTheHistoryAndTheListAtOnce() throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        try store.transaction {
            try pass(items[0], serial: 1)
            try store.reinsertItem(items[0], at: .last)
        }
        #expect(try store.items(in: queue.id).map(\.id) == [items[1].id, items[0].id])
        #expect(try store.history(of: queue.id).map(\.item.id) == [items[0].id])
    }

    /// `previous()` with consume on: the newest entry leaves the history and its item comes
    /// back first in the list, under its id.
    @Test func previousBringsAnItemBack() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        try pass(items[0], serial: 1)
        try pass(items[1], serial: 2)
        let entry = try #require(try store.history(of: queue.id).last)
        try store.transaction {
            try store.removeHistoryEntry(serial: entry.serial, of: queue.id)
            try store.reinsertItem(entry.item, at: .first)
        }
        #expect(try fixture.titles(queue.id) == ["b", "c"])
        #expect(try store.history(of: queue.id).map(\.serial) == [1])
        #expect(try store.item(items[1].id) == items[1])
        // Removing an entry that is gone already changes nothing.
        #expect(try fixture.rowsWritten { try store.removeHistoryEntry(serial: 2, of: queue.id) } == 0)
        try store.clearHistory(of: queue.id)
        #expect(try store.history(of: queue.id).isEmpty)
    }

    @Test func theHistoryLimitIsABackstop() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c", "d", "e"])
        for (index, item) in items.enumerated() {
            try pass(item, serial: Int64(index + 1))
        }
        // The limit is 3: the oldest entries went away.
        #expect(try store.history(of: queue.id).map(\.serial) == [3, 4, 5])
    }

    /// The queue player marks every history copy of an item failed when the item fails.
    @Test func aFailedItemMarksItsHistoryCopiesFailed() throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        try store.transaction {
            try pass(items[0], serial: 1)
            try store.reinsertItem(items[0], at: .last)
        }
        try pass(items[1], serial: 2)
        var failed = try store.item(items[0].id)
        let failure = Store.ItemFailure(domain: "http", code: 410, message: "gone")
        failed.status = .failed(failure)
        try store.updateItem(failed)
        let history = try store.history(of: queue.id)
        #expect(history.map(\.item.status) == [.failed(failure), .unknown])
        #expect(history[0].item.playhead == items[0].playhead)
    }

    @Test(arguments: [0, 1.5, -1, 0.5])
    func playbackRoundTrips(rate: Double) throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        let playback = Store.Playback(currentItemID: items[1].id, rate: rate)
        #expect(try fixture.rowsWritten { try store.savePlayback(playback, of: queue.id) } == 1)
        #expect(try Store(path: fixture.path).playback(of: queue.id) == playback)
    }

    @Test func theCurrentItemMustBeInTheQueuesList() throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        let (_, otherItems) = try fixture.queue(["x"], name: "other")
        try pass(items[0], serial: 1)
        let cases: [(Store.ItemID, StoreError.Code)] = [
            (items[0].id, .itemNotFound), (otherItems[0].id, .itemsInDifferentQueues),
            (Store.ItemID(rawValue: 99), .itemNotFound),
        ]
        for (item, code) in cases {
            let error = try #require(throws: StoreError.self) {
                try store.savePlayback(Store.Playback(currentItemID: item), of: queue.id)
            }
            #expect(error.code == code)
        }
        let error = try #require(throws: StoreError.self) {
            try store.savePlayback(Store.Playback(rate: .nan), of: queue.id)
        }
        #expect(error.code == .invalidValue)
        #expect(try store.playback(of: queue.id) == Store.Playback())
    }

    /// A current item is always in its queue's list: removing it or clearing the list leaves
    /// no current item, and the rate as it was.
    @Test(arguments: [false, true])
    func theCurrentItemLeavingTheListLeavesNoCurrentItem(clearing: Bool) throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        try store.savePlayback(Store.Playback(currentItemID: items[1].id, rate: 1), of: queue.id)
        try store.removeItem(items[0].id)
        #expect(try store.playback(of: queue.id).currentItemID == items[1].id)
        if clearing {
            try store.removeAllItems(in: queue.id)
        } else {
            try store.removeItem(items[1].id)
        }
        #expect(try store.playback(of: queue.id) == Store.Playback(currentItemID: nil, rate: 1))
    }

    @Test func restoreReadsEverythingOfEveryQueue() throws {
        let (first, items) = try fixture.queue(["a", "b", "c"])
        let (second, _) = try fixture.queue(["x"], name: "second")
        try pass(items[0], serial: 1)
        try store.savePlayhead(MediaTime(value: 12, timescale: 5), of: items[1].id)
        let playback = Store.Playback(currentItemID: items[1].id, rate: 1)
        try store.savePlayback(playback, of: first.id)

        let restored = try Store(path: fixture.path).restoreAllQueues()
        #expect(restored.map(\.queue.id) == [first.id, second.id])
        #expect(restored[0].items.map(\.id) == [items[1].id, items[2].id])
        #expect(restored[0].items[0].playhead == MediaTime(value: 12, timescale: 5))
        #expect(restored[0].history.map(\.item) == [items[0]])
        #expect(restored[0].playback == playback)
        #expect(restored[1].items.map(\.title) == ["x"])
    }
}
