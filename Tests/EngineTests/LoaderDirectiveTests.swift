@testable import Engine
import Foundation
import Loader
import MediaTime
import Synchronization
import Testing

/// An item loader the test drives by hand: it records the requests and directives the
/// Engine sends, and yields the reports the test pushes. It stands where the HLS loader
/// will, to check the Engine's side of the `ItemLoader` contract.
final class ScriptedLoader: ItemLoader {
    private struct State {
        var requests: [ItemLoadRequest] = []
        var directives: [LoadingDirectives] = []
        var reports: AsyncStream<LoaderReport>.Continuation?
        var stopped = 0
    }

    private let state = Mutex(State())

    func load(_ request: ItemLoadRequest, directives: AsyncStream<LoadingDirectives>) -> AsyncStream<LoaderReport> {
        let (reports, continuation) = AsyncStream<LoaderReport>.makeStream()
        let listener = Task {
            for await directive in directives {
                self.state.withLock { $0.directives.append(directive) }
            }
        }
        continuation.onTermination = { _ in
            listener.cancel()
            self.state.withLock { $0.stopped += 1 }
        }
        state.withLock {
            $0.requests.append(request)
            $0.reports = continuation
        }
        return reports
    }

    /// Yields `report` on the latest loading.
    func push(_ report: LoaderReport) {
        _ = state.withLock { $0.reports }?.yield(report)
    }

    var requests: [ItemLoadRequest] { state.withLock { $0.requests } }
    var directives: [LoadingDirectives] { state.withLock { $0.directives } }
    var stopped: Int { state.withLock { $0.stopped } }
}

@Suite struct LoaderDirectiveTests {
    static let stream = StreamDescription(
        duration: seconds(60),
        variants: [
            StreamVariant(uri: "http://cdn.test/low.m3u8", bandwidth: 300_000, width: 160, height: 90),
            StreamVariant(uri: "http://cdn.test/high.m3u8", bandwidth: 900_000, width: 320, height: 180),
        ],
        renditionGroups: [
            RenditionGroup(kind: .audio, renditions: [
                Rendition(name: "English", language: "en", isDefault: true), Rendition(name: "French", language: "fr"),
            ]),
            RenditionGroup(kind: .subtitles, renditions: [Rendition(name: "Subtitles", language: "en")]),
        ])

    @Test func theEngineTellsTheLoaderWhatThePlayerWants() async throws {
        let hls = ScriptedLoader()
        let fixture = try await EngineFixture(loaders: ItemLoaders(client: Shared.client, hls: hls))
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Directives").id
        let item = try await engine.addItem(NewItem(url: "http://cdn.test/master.m3u8"), to: queue)
        try await eventually("the HLS loader starts") { hls.requests.isEmpty ? nil : true }
        #expect(hls.requests.first?.kind == .hls && hls.requests.first?.url == "http://cdn.test/master.m3u8")

        hls.push(.streamDescribed(Self.stream))
        hls.push(.seekableTimeRanges(TimeRangeSet([TimeRange(start: .zero, end: seconds(60))])))
        hls.push(.loadedTimeRanges(TimeRangeSet([TimeRange(start: .zero, end: seconds(20))])))
        var low = Loader.AccessLogEntry(uri: "http://cdn.test/low.m3u8", indicatedBitrate: 300_000)
        low.numberOfMediaRequests = 3
        low.numberOfBytesTransferred = 90_000
        low.transferDuration = .milliseconds(300)
        hls.push(.accessLog(low))
        let ready = try await eventually("the item is ready") { () async throws -> ItemState? in
            let state = try await engine.item(item.id, in: queue)
            return state.item.status == .readyToPlay && !state.item.loadedTimeRanges.isEmpty ? state : nil
        }
        #expect(ready.item.kind == .hls && ready.item.duration == seconds(60))
        #expect(ready.item.mediaInformation.variants.count == 2)
        #expect(ready.item.currentMediaSelection[.audible]?.name == "English")
        #expect(ready.currentVariantURI == "http://cdn.test/low.m3u8")
        #expect(ready.item.indicatedBitrate == 300_000 && ready.item.accessLog.last?.numberOfMediaRequests == 3)

        // The playhead goes to the loader once it moved a second or more.
        _ = try await engine.perform(.play, on: queue)
        try await fixture.advance(.milliseconds(2_500), queue)
        try await eventually("the playhead directive") { hls.directives.last?.playhead == milliseconds(2_500) ? true : nil }
        // A seek past what is loaded asks the loader to load from there.
        let seek = try await engine.perform(.seek(to: seconds(40)), on: queue)
        #expect(seek.queue.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        let loadFrom = try await eventually("the load-from directive") { hls.directives.last?.loadFrom }
        #expect(loadFrom.time == seconds(40) && hls.directives.last?.playhead == seconds(40))
        // Preferences and rendition choices follow the item's.
        _ = try await engine.updateItem(item.id, in: queue, ItemChanges(
            preferences: PlayerItem.Preferences(preferredForwardBufferDuration: seconds(12), preferredPeakBitRate: 500_000),
            mediaSelections: [.audible: .option("French"), .legible: .off]))
        let changed = try await eventually("the preference directives") { () -> LoadingDirectives? in
            guard let last = hls.directives.last, last.preferredPeakBitRate == 500_000 else { return nil }
            return last
        }
        #expect(changed.preferredForwardBufferDuration == seconds(12))
        #expect(changed.audio == .named("French") && changed.subtitles == .off)
        #expect(changed.loadFrom == loadFrom, "the rest of the directives stays")
        // Loading what the seek asked for completes it.
        hls.push(.loadedTimeRanges(TimeRangeSet([TimeRange(start: .zero, end: seconds(20)), TimeRange(start: seconds(40), end: seconds(50))])))
        try await eventually("playback resumes at 40 s") { () async throws -> Bool? in
            try await engine.queue(queue).timeControlStatus == .playing ? true : nil
        }
        // Removing the item stops its loader.
        try await engine.removeItem(item.id, from: queue)
        try await eventually("the loader stops") { hls.stopped == 1 ? true : nil }
    }

    @Test func liveStatusAndHealthBecomeItemStateAndEvents() async throws {
        let hls = ScriptedLoader()
        let fixture = try await EngineFixture(loaders: ItemLoaders(client: Shared.client, hls: hls))
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Live").id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        let item = try await engine.addItem(NewItem(url: "http://cdn.test/live.m3u8"), to: queue)
        try await eventually("the HLS loader starts") { hls.requests.isEmpty ? nil : true }
        hls.push(.streamDescribed(StreamDescription(duration: .indefinite)))
        hls.push(.seekableTimeRanges(TimeRangeSet([TimeRange(start: seconds(100), end: seconds(124))])))
        hls.push(.loadedTimeRanges(TimeRangeSet([TimeRange(start: seconds(118), end: seconds(130))])))
        let reload = Date(timeIntervalSince1970: 1_800_000_000)
        let status = LiveStatus(
            liveEdge: seconds(130), targetLatency: seconds(6), wallClockLatency: .seconds(7), mediaSequence: 42,
            windowLength: seconds(30), targetDuration: seconds(2), reloadInterval: .seconds(2), lastReloadAt: reload,
            playlistAge: .milliseconds(800), isStale: false)
        hls.push(.liveStatus(status))
        hls.push(.liveHealth(LiveHealthChange(check: "stale", isFailing: true, message: "no new segment for 4 s", date: reload)))
        let live = try await recorder.wait(for: "liveStatus") { if case .liveStatus = $0.payload { true } else { false } }
        guard case .liveStatus(item.id, let state) = live.payload else {
            Issue.record("liveStatus for the item: \(live)")
            return
        }
        #expect(state.status == status)
        #expect(state.latency == seconds(6), "a live item starts at the end of its seekable window: 130 − 124")
        try await recorder.wait(for: "liveHealth") {
            if case .liveHealth(item.id, "stale", true, _) = $0.payload { true } else { false }
        }
        let snapshot = try await engine.item(item.id, in: queue)
        #expect(snapshot.item.isLive && snapshot.item.currentTime == seconds(124))
        #expect(snapshot.live?.health.map(\.check) == ["stale"])
        hls.push(.liveHealth(LiveHealthChange(check: "stale", isFailing: false, message: "segments again", date: reload)))
        try await eventually("the check recovers") { () async throws -> Bool? in
            try await engine.item(item.id, in: queue).live?.health.isEmpty == true ? true : nil
        }
        let metrics = await engine.metrics()
        #expect(metrics.liveItems == [LiveItemMetrics(queueID: queue, itemID: item.id, playlistAge: .milliseconds(800), isStale: false)])
    }
}
