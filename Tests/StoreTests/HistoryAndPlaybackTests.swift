import MediaTime
import Testing
@testable import Store

@Suite struct HistoryAndPlaybackTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture(configuration: Store.Configuration(historyLimit: 3))
    }

    @Test func consumedItemsGoToABoundedHistory() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c", "d", "e"])
        for item in items.prefix(4) {
            #expect(try fixture.rowsWritten { try store.moveItemToHistory(item.id) } <= 2)
        }
        #expect(try fixture.titles(queue.id) == ["e"])
        // The limit is 3: the oldest went away for good.
        #expect(try store.history(of: queue.id).map(\.title) == ["b", "c", "d"])
        #expect(throws: StoreError.self) { try store.item(items[0].id) }
    }

    @Test func previousBringsAnItemBack() throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        try store.moveItemToHistory(items[0].id)
        try store.moveItemToHistory(items[1].id)
        let written = try fixture.rowsWritten { try store.restoreItemFromHistory(items[1].id, to: .first) }
        #expect(written == 1)
        #expect(try fixture.titles(queue.id) == ["b", "c"])
        #expect(try store.history(of: queue.id).map(\.id) == [items[0].id])
        // It keeps its id and attributes.
        #expect(try store.item(items[1].id) == items[1])

        let error = try #require(throws: StoreError.self) { try store.restoreItemFromHistory(items[2].id, to: .last) }
        #expect(error.code == .itemNotInHistory)
        try store.clearHistory(of: queue.id)
        #expect(try store.history(of: queue.id).isEmpty)
    }

    static let playheads: [MediaTime] = [
        .zero, MediaTime(value: 1001, timescale: 30000), MediaTime(value: 9_007_199_254_740_993, timescale: 1_000_000_007),
        MediaTime(value: -5, timescale: 2), .indefinite, .invalid,
    ]

    @Test(arguments: playheads)
    func playbackIsStoredExactly(_ playhead: MediaTime) throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        let playback = Store.Playback(currentItemID: items[1].id, playhead: playhead, rate: 1.25, completedLoops: 2)
        #expect(try fixture.rowsWritten { try store.savePlayback(playback, of: queue.id) } == 1)
        let restored = try Store(path: fixture.path).playback(of: queue.id)
        #expect(restored == playback)
        // Exactly the same value and timescale, not merely an equal time.
        #expect(restored.playhead.value == playhead.value)
        #expect(restored.playhead.timescale == playhead.timescale)
        #expect(restored.playhead.isIndefinite == playhead.isIndefinite)
        #expect(restored.playhead.isValid == playhead.isValid)
    }

    @Test func theCurrentItemMustBeInTheQueuesList() throws {
        let (queue, items) = try fixture.queue(["a", "b"])
        let (_, otherItems) = try fixture.queue(["x"], name: "other")
        try store.moveItemToHistory(items[0].id)
        let cases: [(Store.ItemID, StoreError.Code)] = [
            (items[0].id, .itemNotInList), (otherItems[0].id, .itemsInDifferentQueues),
            (Store.ItemID(rawValue: 99), .itemNotFound),
        ]
        for (item, code) in cases {
            let error = try #require(throws: StoreError.self) {
                try store.savePlayback(Store.Playback(currentItemID: item), of: queue.id)
            }
            #expect(error.code == code)
        }
        for playback in [Store.Playback(rate: .nan), Store.Playback(completedLoops: -1)] {
            let error = try #require(throws: StoreError.self) { try store.savePlayback(playback, of: queue.id) }
            #expect(error.code == .invalidValue)
        }
        #expect(try store.playback(of: queue.id) == Store.Playback())
    }

    /// A current item is always in its queue's list: removing it, clearing the list or
    /// consuming it leaves no current item, and the rest of the playback as it was.
    @Test(arguments: 0..<3)
    func theCurrentItemLeavingTheListLeavesNoCurrentItem(way: Int) throws {
        let (queue, items) = try fixture.queue(["a", "b", "c"])
        let playback = Store.Playback(currentItemID: items[1].id, playhead: MediaTime(seconds: 3), rate: 1)
        try store.savePlayback(playback, of: queue.id)
        // Another item leaving changes nothing.
        try store.moveItemToHistory(items[0].id)
        #expect(try store.playback(of: queue.id) == playback)
        switch way {
        case 0: try store.removeItem(items[1].id)
        case 1: try store.removeAllItems(in: queue.id)
        default: try store.moveItemToHistory(items[1].id)
        }
        var expected = playback
        expected.currentItemID = nil
        #expect(try store.playback(of: queue.id) == expected)
    }

    @Test func restoreReadsEverythingOfEveryQueue() throws {
        let (first, items) = try fixture.queue(["a", "b", "c"])
        let (second, _) = try fixture.queue(["x"], name: "second")
        try store.moveItemToHistory(items[0].id)
        let playback = Store.Playback(currentItemID: items[1].id, playhead: MediaTime(value: 12, timescale: 5))
        try store.savePlayback(playback, of: first.id)

        let restored = try Store(path: fixture.path).restoreAllQueues()
        #expect(restored.map(\.queue.id) == [first.id, second.id])
        #expect(restored[0].items.map(\.id) == [items[1].id, items[2].id])
        #expect(restored[0].history.map(\.id) == [items[0].id])
        #expect(restored[0].playback == playback)
        #expect(restored[1].items.map(\.title) == ["x"])
    }
}
