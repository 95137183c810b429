@testable import Engine
import Foundation
import Loader
import MediaTime
import OriginSupport
import Testing

/// Events as the Engine publishes them, and the Engine's life cycle.
@Suite struct EngineEventTests {
    @Test func answersToChangesListAtMostTheEventLimit() async throws {
        let fixture = try await EngineFixture { $0.eventItemLimit = 3 }
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Long").id
        let items = try await engine.importItems((0..<5).map { NewItem(url: Shared.localMovie, title: "\($0)") }, into: queue)
        let moved = try await engine.moveItem(items[4].id, in: queue, to: .index(1))
        #expect(moved.items.map(\.id) == [0, 4, 1].map { items[$0].id })
        #expect(moved.itemCount == 5)
        let renamed = try await engine.updateQueue(queue, QueueChanges(name: "Longer"))
        #expect(renamed.name == "Longer" && renamed.items.count == 3 && renamed.itemCount == 5)
        // Pausing a paused queue publishes nothing: its answer is built, as short.
        let paused = try await engine.perform(.pause, on: queue)
        #expect(paused.queue.items.count == 3 && paused.queue.itemCount == 5)
        let whole = try await engine.queue(queue)
        #expect(whole.items.map(\.id) == [0, 4, 1, 2, 3].map { items[$0].id })
    }

    @Test func subscribersSeeTheirQueuesEventsInOrder() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let everything = EventRecorder(engine.events.subscribe())
        let first = try await engine.createQueue(name: "First").id
        let second = try await engine.createQueue(name: "Second").id
        let onlySecond = EventRecorder(engine.events.subscribe(queue: second))
        _ = try await engine.addItem(NewItem(url: Shared.localMovie), to: first)
        _ = try await engine.addItem(NewItem(url: Shared.localMovie), to: second)
        try await engine.deleteQueue(first)
        try await everything.wait(for: "the deletion") { if case .queueDeleted = $0.payload { true } else { false } }
        try await onlySecond.wait(for: "the second queue's update") {
            if case .queueUpdated(let state) = $0.payload { state.items.count == 1 } else { false }
        }
        #expect(onlySecond.events.allSatisfy { $0.queueID == second })
        #expect(Set(everything.events.map(\.queueID)) == [first, second])
        #expect(everything.names.first == "queueCreated")
        let ids = everything.events.map(\.id.rawValue)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 + 1 == $1 }, "one sequence for all queues, without gaps")
    }

    @Test func aSnapshotsLastEventIDIsWhereASubscriptionResumes() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Resume").id
        let item = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        let snapshot = try await engine.queue(queue)
        let resumed = EventRecorder(engine.events.subscribe(queue: queue, after: snapshot.lastEventID))
        let playing = try await engine.perform(.play, on: queue)
        try await resumed.wait(for: "the play's queueUpdated") {
            if case .queueUpdated(let state) = $0.payload { state.rate == 1 } else { false }
        }
        #expect(resumed.events.first?.id == EventID(snapshot.lastEventID.rawValue + 1), "nothing missed, nothing twice")
        #expect(resumed.events.last?.id == playing.queue.lastEventID)
        #expect(resumed.names.contains("rateChanged") && resumed.names.contains("timeControlStatusChanged"))
        guard case .events(let replayed) = engine.events.replay(after: snapshot.lastEventID, queue: queue) else {
            Issue.record("the events are in the ring")
            return
        }
        #expect(replayed.map(\.id) == resumed.events.map(\.id))
    }

    @Test func seeksAnswerWithAnIDAndCompleteWithAnEvent() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Seek").id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        let item = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        let result = try await engine.perform(.seek(to: seconds(7), toleranceBefore: .zero, toleranceAfter: .zero), on: queue)
        let seek = try #require(result.seekID)
        #expect(result.queue.currentTime == seconds(7))
        try await recorder.wait(for: "seekCompleted") {
            if case .seekCompleted(seek, true) = $0.payload { true } else { false }
        }
        try await recorder.wait(for: "timeJumped from 0 to 7") {
            if case .timeJumped(item.id, .zero, seconds(7)) = $0.payload { true } else { false }
        }
        let skipped = try await engine.perform(.skip(by: seconds(-10)), on: queue)
        #expect(skipped.queue.currentTime == .zero, "a skip is clamped into the seekable range")
    }

    @Test func eventIDsKeepRisingAcrossARestart() async throws {
        let folder = try TemporaryFolder()
        let first = try await EngineFixture(folder: folder)
        _ = try await first.engine.createQueue(name: "One")
        let lastOfFirstRun = first.engine.events.lastEventID
        await first.engine.shutdown()
        let second = try await EngineFixture(folder: folder)
        _ = try await second.engine.createQueue(name: "Two")
        #expect(second.engine.events.lastEventID > lastOfFirstRun)
        guard case .resync = second.engine.events.replay(after: lastOfFirstRun) else {
            Issue.record("an id of the previous run must ask for a resync")
            return
        }
        // Even a run that ended without shutdown (killed) never hands out an id again.
        let third = try await EngineFixture(folder: folder)
        #expect(third.engine.events.lastEventID > second.engine.events.lastEventID)
    }

    @Test func aSlowSubscriberIsDroppedAndTheEngineGoesOn() async throws {
        let fixture = try await EngineFixture { $0.events = EventHub.Configuration(subscriberBufferSize: 4) }
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Busy").id
        let slow = engine.events.subscribe(queue: queue)
        for index in 0..<10 {
            _ = try await engine.addItem(NewItem(url: Shared.localMovie, title: "\(index)"), to: queue)
        }
        #expect(try await engine.queue(queue).items.count == 10)
        var deliveries: [EventDelivery] = []
        for await delivery in slow { deliveries.append(delivery) }
        guard case .dropped = deliveries.last else {
            Issue.record("the slow subscriber is told it was dropped: \(deliveries)")
            return
        }
        #expect(deliveries.count == 5)
        #expect(engine.events.droppedSubscriberCount == 1)
    }

    @Test func hlsItemsWaitForAnHLSLoader() async throws {
        let noHLS = ItemLoaders(mediaFile: MediaFileLoader(client: Shared.client), client: Shared.client)
        let fixture = try await EngineFixture(loaders: noHLS)
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "HLS").id
        let item = try await engine.addItem(NewItem(url: Shared.origin.url("/vod-ts/index.m3u8")), to: queue)
        #expect(item.item.kind == .hls)
        let state = try await eventually("the error log says why") { () async throws -> ItemState? in
            let state = try await engine.item(item.id, in: queue)
            return state.item.errorLog.isEmpty ? nil : state
        }
        #expect(state.item.status == .loading, "without an HLS loader the item stays loading")
        #expect(state.item.errorLog.first?.comment.contains("no HLS loader") == true)
    }

    @Test func anItemWhoseURLDoesNotTellItsKindIsSniffed() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Sniff").id
        // No extension: the origin redirects to an HLS playlist, which the first bytes show.
        var redirect = Fault()
        redirect.redirectTo = Shared.origin.url("/vod-ts/index.m3u8")
        let stream = try await engine.addItem(NewItem(url: Shared.origin.url("/stream", faults: redirect)), to: queue)
        let missing = try await engine.addItem(NewItem(url: Shared.origin.baseURL + "/nothing-here"), to: queue)
        #expect(stream.item.kind == .unknown && missing.item.kind == .unknown)
        // The HLS loader follows the redirect and resolves the segments against where it led.
        let sniffed = try await eventually("the stream is found to be HLS and loads") { () async throws -> PlayerItem? in
            let item = try await engine.item(stream.id, in: queue).item
            return item.status == .readyToPlay && item.loadedTimeRanges.end == seconds(12) ? item : nil
        }
        #expect(sniffed.kind == .hls && sniffed.duration == seconds(12))
        #expect(sniffed.errorLog.isEmpty)
        // Anything else is left to the media-file loader, whose probe fails properly.
        let failed = try await eventually("the missing file fails") { () async throws -> PlayerItem? in
            let item = try await engine.item(missing.id, in: queue).item
            return item.isFailed ? item : nil
        }
        #expect(failed.failure?.domain == "hlsq.probe")
    }

    @Test func shutdownSavesStopsAndEndsWithinTwoSeconds() async throws {
        let folder = try TemporaryFolder()
        let fixture = try await EngineFixture(folder: folder)
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Stop").id
        // A slow download is in progress while the queue plays.
        let slow = Shared.origin.url("/chapters.mp4", faults: Fault(rate: 20_000)) + "&tag=\(UUID().uuidString)"
        let item = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        _ = try await engine.addItem(NewItem(url: slow), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        _ = try await engine.perform(.play, on: queue)
        let subscription = EventRecorder(engine.events.subscribe())
        fixture.clock.advance(by: .milliseconds(2_500))
        let started = ContinuousClock.now
        await engine.shutdown()
        #expect(ContinuousClock.now - started < .seconds(2))
        do {
            _ = try await engine.queue(queue)
            Issue.record("requests after shutdown must be refused")
        } catch {
            #expect(error.code == .unavailable)
        }
        #expect(engine.events.subscriberCount == 0)
        _ = subscription
        #expect(try StoredQueue(folder.databasePath, queue).items.first?.playhead == milliseconds(2_500))
    }

    @Test func theDemoQueueIsSeededOnlyIntoAnEmptyDatabase() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let items = [
            NewItem(url: Shared.origin.url("/vod-ts/index.m3u8"), title: "VOD (MPEG-TS)"),
            NewItem(url: Shared.origin.url("/chapters.mp4"), title: "Chapters"),
        ]
        do {
            _ = try await engine.seedDemoQueue(items + [NewItem(url: "not a url")])
            Issue.record("a bad URL must refuse the seeding")
        } catch {
            #expect(error.code == .validationFailed)
        }
        #expect(try await engine.queues().isEmpty, "no half-seeded queue")
        let demo = try #require(try await engine.seedDemoQueue(items))
        #expect(demo.name == "Demo")
        #expect(demo.items.map(\.item.title) == ["VOD (MPEG-TS)", "Chapters"])
        #expect(try await engine.seedDemoQueue(items) == nil)
        #expect(try await engine.queues().count == 1)
    }
}
