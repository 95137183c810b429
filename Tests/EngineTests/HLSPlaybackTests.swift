@testable import Engine
import Foundation
import Loader
import MediaTime
import OriginSupport
import QueueCore
import Testing

/// HLS items through the Engine with the real HLS loader: the kind dispatch, the report
/// mapping into the queue core, and the live rejoin.
@Suite(.serialized) struct HLSPlaybackTests {
    @Test func aMultivariantItemLoadsPlaysAndShowsItsVariants() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "HLS").id
        let url = Shared.origin.url("/multivariant/master.m3u8") + "?tag=\(UUID().uuidString)"
        let item = try await engine.addItem(NewItem(url: url), to: queue)
        #expect(item.item.kind == .hls)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        let state = try await engine.item(item.id, in: queue)
        #expect(state.item.duration == seconds(12))
        #expect(state.item.seekableTimeRanges == TimeRangeSet([TimeRange(start: .zero, end: seconds(12))]))
        #expect(state.item.mediaInformation.variants.map(\.bandwidth) == [145_136, 286_512])
        #expect(state.item.mediaInformation.mediaSelectionGroups.count == 2)
        #expect(state.item.currentMediaSelection[.audible]?.name == "English")
        let variant = try #require(state.currentVariantURI)
        #expect(variant.hasSuffix("/video-low/index.m3u8") || variant.hasSuffix("/video-high/index.m3u8"))
        #expect([145_136, 286_512].contains(state.item.indicatedBitrate ?? 0))
        let entry = try #require(state.item.accessLog.last)
        #expect(entry.numberOfMediaRequests >= 6 && entry.numberOfBytesTransferred > 0)
        #expect(state.item.errorLog.isEmpty)

        _ = try await engine.perform(.play, on: queue)
        let playing = try await fixture.advance(.seconds(5), queue)
        #expect(playing.timeControlStatus == .playing)
        #expect(try await engine.item(item.id, in: queue).item.currentTime == seconds(5))
    }

    @Test func anotherAudioRenditionLoadsEvenAfterTheItemFinishedLoading() async throws {
        let origin = try TestOrigin()
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Audio").id
        let item = try await engine.addItem(NewItem(url: origin.url("/multivariant/master.m3u8")), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        let english = try await origin.requests().filter { $0.path.hasPrefix("/multivariant/audio-") }
        #expect(!english.isEmpty && english.allSatisfy { $0.path.hasPrefix("/multivariant/audio-en/") })

        _ = try await engine.updateItem(item.id, in: queue, ItemChanges(mediaSelections: [.audible: .option("Français")]))
        let french = try await origin.requests(atLeast: 7) { $0.path.hasPrefix("/multivariant/audio-fr/") && $0.path.hasSuffix(".ts") }
        #expect(french.count == 7, "every French segment loads: \(french.map(\.path))")
        try await fixture.waitUntilLoaded(item.id, in: queue)
        #expect(try await engine.item(item.id, in: queue).item.currentMediaSelection[.audible]?.name == "Français")
    }

    @Test func aMissingSegmentIsAHoleWherePlaybackStalls() async throws {
        let origin = try TestOrigin()
        try await origin.addRule(path: "/vod-ts/segment2.ts", faults: Fault(status: 404))
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Hole").id
        let item = try await engine.addItem(NewItem(url: origin.url("/vod-ts/index.m3u8")), to: queue)
        let loaded = try await eventually("both sides of the hole load") { () async throws -> ItemState? in
            let state = try await engine.item(item.id, in: queue)
            return state.item.loadedTimeRanges.ranges.count == 2 && state.item.loadedTimeRanges.end == seconds(12)
                ? state : nil
        }
        #expect(loaded.item.loadedTimeRanges == TimeRangeSet([
            TimeRange(start: .zero, end: seconds(4)), TimeRange(start: seconds(6), end: seconds(12)),
        ]))
        #expect(loaded.item.errorLog.contains { $0.statusCode == 404 && ($0.uri ?? "").hasSuffix("/vod-ts/segment2.ts") })
        _ = try await engine.perform(.play, on: queue)
        let stalled = try await fixture.advance(.seconds(5), queue)
        #expect(stalled.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(try await engine.item(item.id, in: queue).item.currentTime == seconds(4))
    }

    @Test func aPausedLiveItemRejoinsTheLiveEdgeWhenTheWindowSlidesPastIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-engine-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = try LiveEncoder(folder: folder, lifetime: 60)
        defer { encoder.stop() }
        let origin = try TestOrigin(root: folder)
        defer { origin.stop() }
        try await encoder.waitForSegments(3)

        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Live").id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        let item = try await engine.addItem(NewItem(url: origin.url("/" + LiveEncoder.playlistName)), to: queue)
        let ready = try await eventually("the live item is ready") { () async throws -> ItemState? in
            let state = try await engine.item(item.id, in: queue)
            return state.item.status == .readyToPlay && state.live != nil ? state : nil
        }
        #expect(ready.item.duration == .indefinite && ready.item.playbackType == .live)
        #expect(ready.live?.status.targetDuration == seconds(1) && ready.live?.status.targetLatency == seconds(3))

        // A live item that never played stays at the live edge; play a moment, then pause.
        try await eventually("a second is buffered at the playhead") { () async throws -> Bool? in
            let state = try await engine.item(item.id, in: queue)
            let buffered = state.item.loadedTimeRanges.range(containing: state.item.currentTime)
            return buffered.map { $0.end >= state.item.currentTime + seconds(2) } == true ? true : nil
        }
        _ = try await engine.perform(.play, on: queue)
        try await fixture.advance(.milliseconds(1_500), queue)
        _ = try await engine.perform(.pause, on: queue)

        // Paused, the playhead stays while the window slides: the window passes it, and the
        // Engine moves it to the live sync point, three seconds behind the edge; it falls
        // behind again as the edge moves on. The queue core alone would keep it at the
        // window's start, six seconds behind, from the first jump on.
        let jumped = try await recorder.wait(for: "a time jump") {
            if case .timeJumped(item.id, _, _) = $0.payload { true } else { false }
        }
        var latencies: [Double] = []
        for _ in 0..<8 {
            try await Task.sleep(for: .milliseconds(500))
            let state = try await engine.item(item.id, in: queue)
            if let latency = state.live?.latency.seconds { latencies.append(latency) }
            #expect(state.item.seekableTimeRanges.start.map { state.item.currentTime >= $0 } ?? false,
                    "the playhead stays inside the window")
        }
        #expect(latencies.count == 8 && latencies.allSatisfy { $0 >= 2.9 && $0 <= 6.01 }, "latencies \(latencies)")
        #expect(latencies.contains { $0 < 4.5 }, "the playhead rejoined near the sync point: \(latencies)")
        let jumps = recorder.events.compactMap { event -> MediaTime? in
            if case .timeJumped(item.id, _, let to) = event.payload { to } else { nil }
        }
        #expect(jumps.count >= 2, "the core's jump to the window's start, then the rejoin: \(jumps) after \(jumped)")
        await engine.shutdown()
    }
}
