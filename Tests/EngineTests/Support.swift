@testable import Engine
import Foundation
import Loader
import MediaTime
import OriginSupport
import Synchronization
import Testing

/// The origin and HTTP client the Engine tests share. Tests that need rules start their own
/// origin.
enum Shared {
    static let origin: TestOrigin = {
        do {
            return try TestOrigin()
        } catch {
            fatalError("the test origin did not start: \(error)")
        }
    }()

    static let client: HTTPClient = {
        do {
            return try HTTPClient()
        } catch {
            fatalError("no HTTP client: \(error)")
        }
    }()

    /// The sample MP4 (12 s, three chapters) on the local disk.
    static let localMovie = TestOrigin.playlists.appendingPathComponent("chapters.mp4").path
}

/// A fresh folder for a test's database, removed when the value goes away.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-engine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("hlsq.sqlite").path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// An engine on a manual clock and a fresh database, with helpers that keep tests short.
struct EngineFixture {
    let folder: TemporaryFolder
    let clock: ManualEngineClock
    let engine: Engine

    init(
        folder: TemporaryFolder? = nil, clock: ManualEngineClock = ManualEngineClock(),
        loaders: ItemLoaders = ItemLoaders(client: Shared.client), configure: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws {
        let folder = try folder ?? TemporaryFolder()
        var configuration = EngineConfiguration(databasePath: folder.databasePath, loaders: loaders, clock: clock)
        configure(&configuration)
        self.folder = folder
        self.clock = clock
        engine = try await Engine(configuration: configuration)
    }

    /// Lets `duration` of media time pass on the manual clock and returns the queue's state.
    @discardableResult
    func advance(_ duration: Duration, _ queue: QueueID) async throws -> QueueState {
        clock.advance(by: duration)
        return try await engine.queue(queue)
    }

    /// Waits (in real time) until the item is ready and fully loaded.
    func waitUntilLoaded(_ item: ItemID, in queue: QueueID, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await eventually("\(item) loads", sourceLocation: sourceLocation) { () async throws -> Bool? in
            let state = try await engine.item(item, in: queue)
            guard state.item.status == .readyToPlay, state.item.duration.isNumeric,
                  state.item.loadedTimeRanges.ranges == [TimeRange(start: .zero, end: state.item.duration)]
            else { return nil }
            return true
        }
    }
}

struct Timeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting until \(what)" }
}

/// Polls `probe` every 20 ms until it returns a value, for at most `timeout` of real time.
@discardableResult
func eventually<Value>(
    _ what: String, timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation,
    _ probe: () async throws -> Value?
) async throws -> Value {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let value = try await probe() { return value }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
    throw Timeout(what: what)
}

/// Collects a subscription's deliveries in the background.
final class EventRecorder: Sendable {
    private final class Deliveries: Sendable {
        let list = Mutex<[EventDelivery]>([])
    }

    private let deliveries = Deliveries()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<EventDelivery>) {
        let deliveries = self.deliveries
        task = Task {
            for await delivery in stream {
                deliveries.list.withLock { $0.append(delivery) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    var all: [EventDelivery] {
        deliveries.list.withLock { $0 }
    }

    var events: [EngineEvent] {
        all.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    var names: [String] {
        events.map(\.name)
    }

    /// Waits until an event satisfies `predicate`, and returns it.
    @discardableResult
    func wait(
        for what: String, sourceLocation: SourceLocation = #_sourceLocation, _ predicate: @escaping (EngineEvent) -> Bool
    ) async throws -> EngineEvent {
        try await eventually(what, sourceLocation: sourceLocation) { self.events.first(where: predicate) }
    }
}

func seconds(_ value: Int64) -> MediaTime {
    MediaTime(seconds: value)
}

func milliseconds(_ value: Int64) -> MediaTime {
    MediaTime(value: value, timescale: 1000)
}
