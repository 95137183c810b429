import Foundation
import Loader
import MediaTime
import OriginSupport
import Synchronization
import Testing

/// A loader running on a live item, its reports collected with the instant they arrived.
final class LiveSession: Sendable {
    struct Received: Sendable {
        var report: LoaderReport
        var at: ContinuousClock.Instant
    }

    /// The reports so far, shared with the collecting task.
    private final class Log: Sendable {
        let entries = Mutex<[Received]>([])
    }

    private let log = Log()
    private let task: Task<Void, Never>

    init(_ reports: AsyncStream<LoaderReport>) {
        let log = log
        task = Task {
            for await report in reports {
                log.entries.withLock { $0.append(Received(report: report, at: .now)) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    var reports: [Received] { log.entries.withLock { $0 } }

    /// Stops the loader.
    func stop() {
        task.cancel()
    }

    /// The first report after `index` that `matches`, once it arrived, or nil after `timeout`.
    func waitFor(after index: Int = 0, timeout: Duration, _ matches: (LoaderReport) -> Bool) async throws -> Received? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = reports.dropFirst(index).first(where: { matches($0.report) }) { return found }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// A real live stream: ffmpeg writes it into a folder that the origin serves. These tests run
/// one at a time (they time things), and each stops its ffmpeg on every path.
@Suite(.serialized) struct HLSLoaderLiveTests {
    /// ffmpeg's target duration.
    static let targetDuration = 1.0

    /// Runs `body` with an encoder, an origin serving its folder, and the playlist's URL,
    /// once the playlist lists `segments` segments.
    func withLiveStream(
        startNumber: Int = 0, segments: Int = 2,
        _ body: (LiveEncoder, TestOrigin, String) async throws -> Void
    ) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = try LiveEncoder(folder: folder, startNumber: startNumber, lifetime: 60)
        defer { encoder.stop() }
        let origin = try TestOrigin(root: folder)
        defer { origin.stop() }
        try await encoder.waitForSegments(segments)
        try await body(encoder, origin, origin.url("/" + LiveEncoder.playlistName))
    }

    func loader() -> HLSLoader {
        HLSLoader(client: Shared.client)
    }

    @Test func tracksTheWindowTheSequenceAndTheLoadedRanges() async throws {
        try await withLiveStream { _, _, url in
            let session = LiveSession(loader().load(url))
            defer { session.stop() }
            try await Task.sleep(for: .seconds(7))
            let reports = session.reports.map(\.report)
            #expect(!reports.contains { $0.isTerminal }, "\(reports.map(\.kind))")
            #expect(reports.first?.streamDescription?.duration == .indefinite)

            let statuses = reports.compactMap(\.liveStatus)
            #expect(statuses.count >= 5, "a reload a second or more: \(statuses.count)")
            let sequences = statuses.map(\.mediaSequence)
            #expect(sequences.last.map { $0 > (sequences.first ?? 0) } == true, "the media sequence advances: \(sequences)")
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(statuses.allSatisfy { $0.targetDuration == MediaTime(seconds: 1) && $0.targetLatency == MediaTime(seconds: 3) })
            #expect(statuses.last.flatMap(\.wallClockLatency).map { $0 > .seconds(2) && $0 < .seconds(8) } == true,
                    "three segments behind the edge, plus ffmpeg's delay: \(String(describing: statuses.last?.wallClockLatency))")

            // The seekable window slides: its start and its end move forward.
            let seekable = reports.compactMap(\.seekableRanges).filter { !$0.isEmpty }
            let starts = seekable.compactMap(\.start)
            let ends = seekable.compactMap(\.end)
            #expect((starts.last ?? .zero) > (starts.first ?? .zero), "\(seekable)")
            #expect((ends.last ?? .zero) > (ends.first ?? .zero))
            #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 } && zip(ends, ends.dropFirst()).allSatisfy { $0 <= $1 })

            // Loaded ranges grow and stay inside the playlist's window at the time.
            var window: (start: MediaTime, edge: MediaTime)?
            var loadedEnds: [MediaTime] = []
            for report in reports {
                if let status = report.liveStatus { window = (status.liveEdge - status.windowLength, status.liveEdge) }
                guard let loaded = report.loadedRanges, let start = loaded.start, let end = loaded.end, let window else { continue }
                #expect(start >= window.start && end <= window.edge, "\(loaded) outside [\(window.start), \(window.edge)]")
                loadedEnds.append(end)
            }
            #expect(loadedEnds.count >= 4 && zip(loadedEnds, loadedEnds.dropFirst()).allSatisfy { $0 <= $1 },
                    "the loaded ranges grow: \(loadedEnds)")
            #expect((loadedEnds.last ?? .zero) > (loadedEnds.first ?? .zero))

            // Reloads: one target duration after a load that changed the playlist started,
            // half of one after an unchanged one. Never early; late only by the timer's
            // wake-up, which a busy machine can delay now and then, so the typical lateness
            // is held tight and a rare one loosely.
            var lateness: [Double] = []
            for (previous, next) in zip(statuses, statuses.dropFirst()) {
                let interval = next.lastReloadAt.timeIntervalSince(previous.lastReloadAt)
                let expected = previous.playlistChanged ? Self.targetDuration : Self.targetDuration / 2
                #expect(interval >= expected - 0.01,
                        "reload after \(interval) s; expected \(expected) s after a \(previous.playlistChanged ? "changed" : "unchanged") playlist")
                lateness.append(interval - expected)
            }
            lateness.sort()
            let median = lateness.isEmpty ? .infinity : lateness[lateness.count / 2]
            #expect(median <= 0.1 && (lateness.last ?? .infinity) <= 1, "reloads late by \(lateness) s")
            #expect(statuses.contains { $0.playlistChanged })
            #expect(!reports.contains { $0.liveHealth?.isFailing == true }, "a healthy stream raises nothing")
        }
    }

    @Test func aFrozenEncoderIsStaleWithinThreeAndAHalfTargetDurationsAndRecovers() async throws {
        try await withLiveStream(segments: 3) { encoder, _, url in
            let session = LiveSession(loader().load(url))
            defer { session.stop() }
            _ = try await session.waitFor(timeout: .seconds(5)) { $0.liveStatus != nil }
            encoder.pause()
            let paused = ContinuousClock.now
            let stale = try await session.waitFor(timeout: .seconds(8)) {
                $0.liveHealth?.healthCheck == .stale && $0.liveHealth?.isFailing == true
            }
            encoder.resume()
            let resumed = ContinuousClock.now
            guard let stale else {
                Issue.record("no stale report: \(session.reports.map(\.report.kind))")
                return
            }
            let detection = stale.at - paused
            #expect(detection <= .seconds(Self.targetDuration * 3.5 + 1), "stale reported \(detection) after the pause")
            #expect(detection >= .seconds(Self.targetDuration * 3.5 - 1.01))
            #expect(session.reports.contains {
                $0.report.errorEntry?.statusCode == LiveHealthMonitor.Check.stale.statusCode
                    && $0.report.errorEntry?.domain == ErrorLogEntry.liveDomain
            })
            let recovered = try await session.waitFor(timeout: .seconds(5)) {
                $0.liveHealth?.healthCheck == .stale && $0.liveHealth?.isFailing == false
            }
            #expect(recovered != nil, "no recovery after resuming")
            if let recovered { #expect(recovered.at - resumed < .seconds(3)) }
        }
    }

    @Test func restartingTheEncoderIsAMediaSequenceRegression() async throws {
        try await withLiveStream(startNumber: 50) { encoder, _, url in
            let session = LiveSession(loader().load(url))
            defer { session.stop() }
            _ = try await session.waitFor(timeout: .seconds(5)) { ($0.liveStatus?.mediaSequence ?? 0) >= 50 }
            let before = session.reports.count
            try encoder.restart()
            let regression = try await session.waitFor(after: before, timeout: .seconds(8)) {
                $0.liveHealth?.healthCheck == .mediaSequence && $0.liveHealth?.isFailing == true
            }
            #expect(regression?.report.liveHealth?.message.hasPrefix("EXT-X-MEDIA-SEQUENCE went back from 5") == true,
                    "\(String(describing: regression?.report.liveHealth?.message))")
            #expect(session.reports.contains { $0.report.errorEntry?.statusCode == LiveHealthMonitor.Check.mediaSequence.statusCode })
            let recovered = try await session.waitFor(after: before, timeout: .seconds(5)) {
                $0.liveHealth?.healthCheck == .mediaSequence && $0.liveHealth?.isFailing == false
            }
            #expect(recovered != nil, "the restarted stream moves on")
            // The timeline never goes back: the new window lies after the old one.
            let seekable = session.reports.compactMap(\.report.seekableRanges).compactMap(\.end)
            #expect(zip(seekable, seekable.dropFirst()).allSatisfy { $0 <= $1 }, "\(seekable)")
        }
    }
}
