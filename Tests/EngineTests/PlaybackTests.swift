@testable import Engine
import Foundation
import Loader
import MediaTime
import OriginSupport
import Testing

/// Real loaders against the real origin, on a manual clock.
@Suite struct PlaybackTests {
    @Test func aQueuePlaysThroughTwoMediaItemsAndAdvances() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Two items").id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        let remote = try await engine.addItem(NewItem(url: Shared.origin.url("/chapters.mp4"), title: "Remote"), to: queue)
        let local = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        #expect(remote.item.kind == .mediaFile)
        // The current item and the next one (preloading) both load.
        try await fixture.waitUntilLoaded(remote.id, in: queue)
        try await fixture.waitUntilLoaded(local.id, in: queue)

        var state = try await engine.perform(.play, on: queue).queue
        #expect(state.timeControlStatus == .playing)
        #expect(state.currentItemID == remote.id)
        state = try await fixture.advance(.seconds(5), queue)
        #expect(state.currentTime == seconds(5))
        state = try await fixture.advance(.seconds(8), queue)
        #expect(state.currentItemID == local.id, "the first item ended and the queue advanced")
        #expect(state.currentTime == seconds(1))
        #expect(state.history.map(\.id) == [remote.id])
        #expect(state.items.map(\.id) == [local.id])
        state = try await fixture.advance(.seconds(11), queue)
        #expect(state.items.isEmpty)
        #expect(state.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(state.reasonForWaitingToPlay == .noItemToPlay)

        try await recorder.wait(for: "queueUpdated with an empty list") {
            if case .queueUpdated(let state) = $0.payload { state.items.isEmpty } else { false }
        }
        let events = recorder.events
        let ends = events.compactMap { if case .didPlayToEndTime(let item) = $0.payload { item } else { nil } }
        #expect(ends == [remote.id, local.id])
        let changes = events.compactMap { event -> [ItemID?]? in
            if case .currentItemChanged(let item, let previous) = event.payload { [item, previous] } else { nil }
        }
        #expect(changes.contains([local.id, remote.id]))
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.id < $1.id }, "events come in sequence order")
    }

    @Test func anItemLoopsAsManyTimesAsConfigured() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let loop = ItemLoop(plays: 3, timeRange: TimeRange(start: seconds(2), end: seconds(6)))
        let queue = try await engine.createQueue(name: "Loop", settings: QueueSettings(loopMode: .item(loop))).id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        let item = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        var state = try await engine.perform(.play, on: queue).queue
        #expect(state.currentTime == seconds(2), "a play starts at the loop range's start")
        state = try await fixture.advance(.seconds(5), queue)
        #expect(state.currentTime == seconds(3), "4 s to the range's end, then 1 s into the second play")
        #expect(state.items.first?.item.loopCount == 1)
        state = try await fixture.advance(.seconds(8), queue)
        // Third play ended at 2 + 3 × 4 = 14 s: the item is done, the queue advances and empties.
        #expect(state.items.isEmpty)
        #expect(state.history.map(\.id) == [item.id])
        try await recorder.wait(for: "the item ended for good") {
            if case .currentItemChanged(nil, item.id) = $0.payload { true } else { false }
        }
        let jumps = recorder.events.compactMap { event -> (MediaTime, MediaTime)? in
            if case .timeJumped(_, let from, let to) = event.payload { (from, to) } else { nil }
        }
        #expect(jumps.filter { $0 == (seconds(6), seconds(2)) }.count == 2, "two restarts from the range's end: \(jumps)")
    }

    @Test func aQueueLoopPlaysItsItemsAgain() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Repeat", settings: QueueSettings(loopMode: .queue)).id
        let first = try await engine.addItem(NewItem(url: Shared.localMovie, title: "First"), to: queue)
        let second = try await engine.addItem(NewItem(url: Shared.origin.url("/chapters.mp4")), to: queue)
        try await fixture.waitUntilLoaded(first.id, in: queue)
        try await fixture.waitUntilLoaded(second.id, in: queue)
        _ = try await engine.perform(.play, on: queue)
        var state = try await fixture.advance(.seconds(12), queue)
        #expect(state.items.map(\.id) == [second.id, first.id], "the first item went round to the end")
        // The first item's loader stopped when it left the window and starts again.
        try await fixture.waitUntilLoaded(second.id, in: queue)
        state = try await fixture.advance(.seconds(12), queue)
        #expect(state.currentItemID == first.id)
        #expect(state.history.map(\.id) == [first.id, second.id])
        try await fixture.waitUntilLoaded(first.id, in: queue)
        state = try await fixture.advance(.seconds(3), queue)
        #expect(state.currentItemID == first.id && state.currentTime == seconds(3))
        #expect(state.timeControlStatus == .playing)
    }

    @Test func aThrottledDownloadStallsPlaybackUntilItCatchesUp() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Slow").id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        // 178,917 bytes at 40 kB/s: about 4.5 s for 12 s of media.
        let url = Shared.origin.url("/chapters.mp4", faults: Fault(rate: 40_000)) + "&tag=\(UUID().uuidString)"
        let item = try await engine.addItem(NewItem(url: url), to: queue)
        _ = try await engine.perform(.play, on: queue)
        let playing = try await recorder.wait(for: "playback starts") {
            if case .timeControlStatusChanged(let status) = $0.payload { status.timeControlStatus == .playing } else { false }
        }
        // The manual clock runs far ahead of the download: playback reaches the end of what
        // is loaded and stalls.
        var state = try await fixture.advance(.seconds(11), queue)
        #expect(state.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(state.reasonForWaitingToPlay == .toMinimizeStalls)
        let stalledAt = state.currentTime
        #expect(stalledAt > .zero && stalledAt < seconds(11))
        try await recorder.wait(for: "the stall") { if case .playbackStalled(item.id) = $0.payload { true } else { false } }
        // The download goes on in real time; playback resumes by itself.
        try await recorder.wait(for: "playback resumes") { event in
            guard event.id > playing.id, case .timeControlStatusChanged(let status) = event.payload else { return false }
            return status.timeControlStatus == .playing
        }
        state = try await fixture.advance(.milliseconds(500), queue)
        #expect(state.currentTime > stalledAt)
        let log = try await engine.item(item.id, in: queue).item.accessLog
        #expect(log.last?.numberOfStalls == 1)
        #expect((log.last?.numberOfBytesTransferred ?? 0) > 0)
        let metrics = await engine.metrics()
        #expect(metrics.queueCount == 1 && metrics.itemsByStatus["readyToPlay"] == 1)
        #expect(metrics.stallsTotal == 1)
        #expect(metrics.bytesTransferredTotal >= log.last?.numberOfBytesTransferred ?? .max)
        #expect(metrics.eventsTotal == engine.events.publishedCount && metrics.subscriberCount == 1)
    }
}
