import MediaTime

/// What the player does when an item plays to its end (`AVPlayer.ActionAtItemEnd`).
public enum ActionAtItemEnd: String, Hashable, Sendable, CaseIterable {
    /// Go on with the next entry.
    case advance
    /// Stop at the end: the rate becomes 0.
    case pause
    /// Do nothing: the rate stays and ``QueuePlayer/currentTime`` keeps moving past the end.
    case none
}

/// How the queue repeats.
public enum LoopMode: Hashable, Sendable {
    case off
    /// Every current item loops as `ItemLoop` says, unless it has its own
    /// ``PlayerItem/loop``.
    case item(ItemLoop)
    /// Repeat-all: after the last entry comes the first again. With consume on, each entry
    /// the player passes is enqueued again at the end.
    case queue
}

extension LoopMode {
    /// The loop of ``item(_:)``; nil for the other modes.
    var itemLoop: ItemLoop? {
        if case .item(let loop) = self { return loop }
        return nil
    }
}

/// The settings of a queue that the Store persists.
public struct QueueSettings: Hashable, Sendable {
    public var actionAtItemEnd: ActionAtItemEnd
    /// AVQueuePlayer semantics when on: entries the player passes leave the list for history.
    public var consume: Bool
    public var loopMode: LoopMode
    /// The rate ``QueuePlayer/play()`` asks for; in `(0, 2]`.
    public var defaultRate: Double
    public var automaticallyWaitsToMinimizeStalling: Bool

    public init(
        actionAtItemEnd: ActionAtItemEnd = .advance, consume: Bool = true, loopMode: LoopMode = .off,
        defaultRate: Double = 1, automaticallyWaitsToMinimizeStalling: Bool = true
    ) {
        self.actionAtItemEnd = actionAtItemEnd
        self.consume = consume
        self.loopMode = loopMode
        self.defaultRate = defaultRate
        self.automaticallyWaitsToMinimizeStalling = automaticallyWaitsToMinimizeStalling
    }
}

/// Tuning that is not part of a queue's persisted state.
public struct QueueConfiguration: Hashable, Sendable {
    /// How many upcoming entries are loaded ahead of the current one.
    public var preloadCount: Int
    public var bufferPolicy: BufferPolicy
    /// The most history entries kept; the oldest go first.
    public var historyLimit: Int
    /// The most access-log and error-log entries kept per item; the oldest go first.
    public var logLimit: Int

    public init(preloadCount: Int = 1, bufferPolicy: BufferPolicy = BufferPolicy(), historyLimit: Int = 100, logLimit: Int = 100) {
        self.preloadCount = max(0, preloadCount)
        self.bufferPolicy = bufferPolicy
        self.historyLimit = max(0, historyLimit)
        self.logLimit = max(1, logLimit)
    }
}

/// `AVPlayer.TimeControlStatus`.
public enum TimeControlStatus: String, Hashable, Sendable {
    case paused
    case waitingToPlayAtSpecifiedRate
    case playing
}

/// `AVPlayer.WaitingReason`, for ``TimeControlStatus/waitingToPlayAtSpecifiedRate``.
public enum WaitingReason: String, Hashable, Sendable {
    /// Playback of the current item began and then ran out of media.
    case toMinimizeStalls
    /// Playback of the current item has not begun yet: the item is loading, or its buffer is
    /// not yet likely to keep up.
    case evaluatingBufferingRate
    /// The rate is not 0 but there is no current item.
    case noItemToPlay
}

/// An entry of a queue's history: an item as it was when the player passed it.
public struct HistoryEntry: Hashable, Sendable {
    /// Increases with each entry and is never reused, so the Store can key entries by it.
    public let serial: Int64
    /// A copy taken when the entry was passed; marked failed if the item fails later.
    public internal(set) var item: PlayerItem

    public init(serial: Int64, item: PlayerItem) {
        self.serial = serial
        self.item = item
    }
}

/// Identifies a seek for its completion notification.
public struct SeekID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public var description: String { "seek-\(rawValue)" }
}

/// Identifies a time observer.
public struct TimeObserverID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public var description: String { "observer-\(rawValue)" }
}

/// A queue's history with at most `limit` entries. Entries that fall out are dropped in
/// batches, so that appending costs O(1) amortized instead of shifting every entry.
struct HistoryLog: Sendable {
    private var storage: [HistoryEntry]
    /// Where the visible entries start in `storage`.
    private var start = 0
    let limit: Int

    init(_ entries: [HistoryEntry], limit: Int) {
        storage = Array(entries.suffix(limit))
        self.limit = limit
    }

    /// Oldest first.
    var entries: ArraySlice<HistoryEntry> {
        storage[start...]
    }

    /// Appends `entry` and returns the entry that fell out, if any.
    mutating func append(_ entry: HistoryEntry) -> HistoryEntry? {
        storage.append(entry)
        guard storage.count - start > limit else { return nil }
        let dropped = storage[start]
        start += 1
        if start >= max(limit, 16) {
            storage.removeFirst(start)
            start = 0
        }
        return dropped
    }

    /// Removes the entry at `index` of ``entries``.
    mutating func remove(at index: Int) -> HistoryEntry {
        storage.remove(at: index)
    }

    /// Marks every copy of the item failed.
    mutating func markFailed(_ id: ItemID, _ failure: ItemFailure) {
        for index in storage.indices[start...] where storage[index].item.id == id {
            storage[index].item.status = .failed(failure)
        }
    }
}
