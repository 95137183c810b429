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
}
