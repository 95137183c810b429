import MediaTime
import QueueCore
import Testing

@Suite struct SnapshotTests {
    @Test func aRestoredQueueResumesWhereItWas() throws {
        var harness = Harness(["a", "b", "c"], consume: false, loop: .queue)
        harness.ready("a", duration: 30)
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(12))
        harness.run { player throws(QueueRefusal) in try player.jump(to: ItemID("b")) }
        harness.run { player throws(QueueRefusal) in try player.setLoop(ItemLoop(plays: 2), of: ItemID("c")) }
        harness.run { player throws(QueueRefusal) in
            try player.setPreferences(PlayerItem.Preferences(preferredPeakBitRate: 1_000_000), of: ItemID("c"))
        }
        let saved = harness.player.snapshot()
        #expect(saved.items.map(\.id.rawValue) == ["a", "b", "c"] && saved.currentItemID == ItemID("b"))
        #expect(saved.history.map(\.item.id.rawValue) == ["a"])

        // What the Store keeps: identity, preferences, loop, playhead, failure; settings; order.
        let stored = QueueSnapshot(
            settings: saved.settings,
            items: saved.items.map {
                PlayerItem(id: $0.id, url: $0.url, title: $0.title, kind: $0.kind, preferences: $0.preferences, loop: $0.loop,
                           mediaSelections: $0.mediaSelections, currentTime: $0.currentTime, failure: $0.failure)
            },
            currentItemID: saved.currentItemID, history: saved.history, rate: 0)
        let clock = ManualClock()
        var restored = try QueuePlayer(snapshot: stored, clock: clock)
        #expect(restored.checkInvariants())
        #expect(restored.items.map(\.id) == saved.items.map(\.id))
        #expect(restored.currentItemID == ItemID("b") && restored.timeControlStatus == .paused)
        #expect(restored.item(ItemID("a"))?.currentTime == seconds(12), "the playhead survives")
        #expect(restored.item(ItemID("c"))?.loop == ItemLoop(plays: 2))
        #expect(restored.item(ItemID("c"))?.preferences.preferredPeakBitRate == 1_000_000)
        #expect(restored.settings == saved.settings && restored.history == saved.history)
        let first = restored.tick()
        #expect(first.effects == [.startLoading(ItemID("b")), .startLoading(ItemID("c"))], "the first tick asks for the loaders")
        // New history entries continue the serials.
        _ = try restored.advanceToNextItem()
        #expect(restored.history.map(\.serial) == [saved.history[0].serial, saved.history[0].serial + 1])
    }

    @Test func aRestoredFailedItemStaysFailed() throws {
        let failure = ItemFailure(domain: "http", code: 410, message: "gone")
        let snapshot = QueueSnapshot(
            items: [item("a"), PlayerItem(id: ItemID("b"), url: "https://media.test/b.m3u8", failure: failure)],
            currentItemID: ItemID("a"), rate: 1)
        var player = try QueuePlayer(snapshot: snapshot, clock: ManualClock())
        #expect(player.item(ItemID("b"))?.status == .failed(failure))
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate && player.reasonForWaitingToPlay == .evaluatingBufferingRate)
        #expect(player.tick().effects == [.startLoading(ItemID("a"))], "failed items are not loaded")
        #expect(throws: QueueRefusal.self) { try player.jump(to: ItemID("b")) }
    }

    static let a = item("a")
    static let b = item("b")

    @Test(arguments: [
        ("duplicate ids", QueueSnapshot(items: [a, b, a], currentItemID: a.id)),
        ("current not in the list", QueueSnapshot(items: [a, b], currentItemID: ItemID("z"))),
        ("no current item", QueueSnapshot(items: [a, b], currentItemID: nil)),
        ("consume with the current item second", QueueSnapshot(items: [a, b], currentItemID: b.id)),
        ("negative playhead", QueueSnapshot(items: [PlayerItem(id: a.id, url: a.url, currentTime: seconds(-1))], currentItemID: a.id)),
        ("invalid playhead", QueueSnapshot(items: [PlayerItem(id: a.id, url: a.url, currentTime: .invalid)], currentItemID: a.id)),
        ("a rate above 2", QueueSnapshot(items: [a], currentItemID: a.id, rate: 4)),
        ("history out of order", QueueSnapshot(history: [HistoryEntry(serial: 5, item: a), HistoryEntry(serial: 2, item: b)])),
        ("default rate of 0", QueueSnapshot(settings: QueueSettings(defaultRate: 0))),
    ])
    func invalidSnapshotsAreRefused(name: String, snapshot: QueueSnapshot) {
        #expect(throws: QueueRefusal.self, "\(name)") { try QueuePlayer(snapshot: snapshot, clock: ManualClock()) }
        do {
            _ = try QueuePlayer(snapshot: snapshot, clock: ManualClock())
        } catch {
            #expect(error.reason == .invalidSnapshot || error.reason == .invalidRate, "\(name): \(error)")
        }
    }

    @Test func idsComeFromTheInjectedGenerator() throws {
        var sequential = try QueuePlayer(clock: ManualClock(), idGenerator: SequentialItemIDGenerator(prefix: "q1-"))
        #expect(sequential.makeItem(url: "a").id == ItemID("q1-1"))
        #expect(sequential.makeItem(url: "b").id == ItemID("q1-2"))
        var first = try QueuePlayer(clock: ManualClock(), idGenerator: UUIDItemIDGenerator(source: SplitMix64(seed: 9)))
        var second = try QueuePlayer(clock: ManualClock(), idGenerator: UUIDItemIDGenerator(source: SplitMix64(seed: 9)))
        let id = first.makeItem(url: "a").id
        #expect(id == second.makeItem(url: "a").id, "a seed reproduces the ids")
        let text = id.rawValue
        #expect(text.count == 36 && Array(text)[14] == "4" && "89ab".contains(Array(text)[19]))
        #expect(first.makeItem(url: "a").id != id)
    }

    @Test func refusedCommandsStillLetTimePass() throws {
        var harness = Harness(["a"])
        harness.ready("a", duration: 30)
        harness.run { player throws(QueueRefusal) in try player.play() }
        let observer = try harness.player.addPeriodicTimeObserver(interval: seconds(1))
        harness.clock.advance(by: .seconds(2))
        #expect(throws: QueueRefusal.self) { try harness.player.jump(to: ItemID("nowhere")) }
        #expect(harness.time == seconds(2), "the refusal settled the playhead")
        let next = harness.record(harness.player.tick())
        #expect(next.notifications.contains(.periodicTime(observer, ItemID("a"), seconds(2))),
                "what passing time produced comes with the next outcome")
    }
}
