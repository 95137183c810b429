import MediaTime
import QueueCore

/// A playback command of the API (`POST /api/queues/{id}/commands`).
public enum PlaybackCommand: Sendable, Hashable {
    case play
    case pause
    /// Go on with the next item.
    case advance
    /// Go back to the previous item (with consume on: the most recent history entry).
    case previous
    /// Play this item of the list from its start.
    case jump(ItemID)
    /// Move the playhead; tolerances of zero ask for the exact time.
    case seek(to: MediaTime, toleranceBefore: MediaTime = .zero, toleranceAfter: MediaTime = .zero)
    /// Seek by an offset from the playhead (negative goes back), within the seekable ranges.
    case skip(by: MediaTime)
    case setRate(Double)
    /// Shuffle the entries after the current one.
    case shuffle
    /// Remove every entry of the list; history stays.
    case clear
    /// Complete a pending seek unfinished; the playhead stays where the seek put it.
    case cancelPendingSeeks
}

/// What a command answers: the queue after it, and the seek it started, whose completion is
/// the `seekCompleted` event.
public struct CommandResult: Sendable {
    public let queue: QueueState
    public let seekID: SeekID?
}

extension Engine {
    /// Runs a playback command. Returns the queue's snapshot, which lists at most
    /// ``EngineConfiguration/eventItemLimit`` items.
    ///
    /// Refused: `notFound` (queue, or the item of `jump`); `commandRefused` with the player's
    /// reason (`noItem`, `noNextItem`, `noHistory`, `itemNotReady`, `outsideSeekableRange`,
    /// `linearPlayback`, `rateNotAllowed`, `itemFailed`); `validationFailed` for a time or
    /// rate that is not a number (`time`, `by`, `rate`).
    public func perform(_ command: PlaybackCommand, on queue: QueueID) throws(EngineError) -> CommandResult {
        let (core, field) = coreCommand(for: command)
        let committed = try commit(queue, RefusalContext(field: field), check: { player in
            player.validate(core).map { EngineError($0, RefusalContext(field: field)) }
        }) { _, _ in ([core], []) }
        return CommandResult(queue: try snapshot(queue, committed), seekID: committed.outcomes.first?.seek)
    }

    private func coreCommand(for command: PlaybackCommand) -> (QueueCommand, field: String) {
        switch command {
        case .play: (.play, "command")
        case .pause: (.pause, "command")
        case .advance: (.advanceToNextItem, "command")
        case .previous: (.previous, "command")
        case .jump(let item): (.jump(to: item), "itemId")
        case .seek(let time, let before, let after): (.seek(to: time, toleranceBefore: before, toleranceAfter: after), "time")
        case .skip(let offset): (.skip(by: offset), "by")
        case .setRate(let rate): (.setRate(rate), "rate")
        // The seed is drawn here and the resulting order persisted, so the shuffle is one
        // durable decision.
        case .shuffle: (.shuffle(seed: shuffleSeeds.next()), "command")
        case .clear: (.removeAll, "command")
        case .cancelPendingSeeks: (.cancelPendingSeeks, "command")
        }
    }
}
