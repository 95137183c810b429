import MediaTime
import QueueCore
import Testing

func seconds(_ value: Int64) -> MediaTime {
    MediaTime(seconds: value)
}

func milliseconds(_ value: Int64) -> MediaTime {
    MediaTime(value: value, timescale: 1000)
}

func range(_ start: Int64, _ end: Int64) -> TimeRange {
    TimeRange(start: seconds(start), end: seconds(end))
}

func item(_ name: String) -> PlayerItem {
    PlayerItem(id: ItemID(name), url: "https://media.test/\(name).m3u8", title: name.uppercased(), kind: .hls)
}

/// A player on a manual clock, with helpers that keep tests short. Every step checks the
/// player's invariants.
struct Harness {
    var player: QueuePlayer
    let clock: ManualClock
    /// Everything the player produced, in order.
    private(set) var notifications: [QueueNotification] = []
    private(set) var effects: [QueueEffect] = []

    init(
        _ names: [String] = [], consume: Bool = true, action: ActionAtItemEnd = .advance, loop: LoopMode = .off,
        waits: Bool = true, preload: Int = 1, configuration: QueueConfiguration? = nil
    ) {
        clock = ManualClock()
        let settings = QueueSettings(
            actionAtItemEnd: action, consume: consume, loopMode: loop, automaticallyWaitsToMinimizeStalling: waits)
        do {
            player = try QueuePlayer(
                settings: settings, configuration: configuration ?? QueueConfiguration(preloadCount: preload), clock: clock)
        } catch {
            preconditionFailure("default settings are valid: \(error)")
        }
        for name in names { insert(name) }
    }

    // MARK: Recording

    @discardableResult
    mutating func record(_ outcome: QueueOutcome, sourceLocation: SourceLocation = #_sourceLocation) -> QueueOutcome {
        notifications += outcome.notifications
        effects += outcome.effects
        #expect(player.checkInvariants(), sourceLocation: sourceLocation)
        return outcome
    }

    /// Runs a command expected to succeed.
    @discardableResult
    mutating func run(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ command: (inout QueuePlayer) throws(QueueRefusal) -> QueueOutcome
    ) -> QueueOutcome {
        do {
            return record(try command(&player), sourceLocation: sourceLocation)
        } catch {
            Issue.record("refused: \(error)", sourceLocation: sourceLocation)
            return QueueOutcome()
        }
    }

    /// Runs a command expected to be refused; returns the reason, and checks that nothing
    /// changed.
    @discardableResult
    mutating func refuse(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ command: (inout QueuePlayer) throws(QueueRefusal) -> QueueOutcome
    ) -> QueueRefusal.Reason? {
        _ = record(player.tick(), sourceLocation: sourceLocation)
        let before = player.snapshot()
        let status = (player.rate, player.timeControlStatus, player.reasonForWaitingToPlay, player.loadingItemIDs)
        do {
            let outcome = try command(&player)
            record(outcome, sourceLocation: sourceLocation)
            Issue.record("accepted, expected a refusal", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(player.snapshot() == before, "a refusal changed the state", sourceLocation: sourceLocation)
            #expect(player.rate == status.0 && player.timeControlStatus == status.1, sourceLocation: sourceLocation)
            #expect(player.reasonForWaitingToPlay == status.2 && player.loadingItemIDs == status.3, sourceLocation: sourceLocation)
            #expect(player.checkInvariants(), sourceLocation: sourceLocation)
            return error.reason
        }
    }

    mutating func clearRecords() {
        notifications = []
        effects = []
    }

    // MARK: Shortcuts

    mutating func insert(_ name: String, after anchor: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        run(sourceLocation: sourceLocation) { player throws(QueueRefusal) in
            try player.insert(item(name), after: anchor.map(ItemID.init))
        }
    }

    /// Makes an item ready: HLS VOD (or live with `duration` nil) of `duration` seconds with
    /// `loaded` seconds loaded from 0 (all of it when nil) and all of it seekable.
    mutating func ready(
        _ name: String, duration: Int64? = 10, loaded: Int64? = nil, bitrate: Double? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let id = ItemID(name)
        report(.readyToPlay(duration: duration.map(seconds) ?? .indefinite, kind: .hls), for: id, sourceLocation: sourceLocation)
        if let duration {
            report(.seekableTimeRanges(TimeRangeSet([range(0, duration)])), for: id, sourceLocation: sourceLocation)
            let end = loaded ?? duration
            if end > 0 {
                report(.loadedTimeRanges(TimeRangeSet([range(0, end)])), for: id, sourceLocation: sourceLocation)
            }
        }
        if let bitrate { report(.downloadBitrate(bitrate), for: id, sourceLocation: sourceLocation) }
    }

    mutating func report(_ report: LoaderReport, for id: ItemID, sourceLocation: SourceLocation = #_sourceLocation) {
        run(sourceLocation: sourceLocation) { player throws(QueueRefusal) in try player.report(report, for: id) }
    }

    /// Lets `duration` of real time pass and ticks.
    @discardableResult
    mutating func wait(_ duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) -> QueueOutcome {
        clock.advance(by: duration)
        return record(player.tick(), sourceLocation: sourceLocation)
    }

    var order: [String] { player.items.map(\.id.rawValue) }
    var current: String? { player.currentItemID?.rawValue }
    var history: [String] { player.history.map(\.item.id.rawValue) }
    var time: MediaTime { player.currentTime }
}
