import MediaTime

/// What one transition of a ``QueuePlayer`` produced: the notifications to publish and the
/// effects for the engine to carry out, both in the order they happened.
public struct QueueOutcome: Hashable, Sendable {
    public internal(set) var notifications: [QueueNotification] = []
    public internal(set) var effects: [QueueEffect] = []
    /// The seek this transition started, if any; its ``QueueNotification/seekCompleted(_:finished:)``
    /// comes now or later.
    public internal(set) var seek: SeekID?

    public init() {}

    mutating func post(_ notification: QueueNotification) {
        notifications.append(notification)
    }

    mutating func request(_ effect: QueueEffect) {
        effects.append(effect)
    }

    mutating func append(_ other: QueueOutcome) {
        notifications += other.notifications
        effects += other.effects
        seek = seek ?? other.seek
    }

    public var isEmpty: Bool {
        notifications.isEmpty && effects.isEmpty && seek == nil
    }
}

/// What happened, for the engine to publish as events. Names follow AVFoundation's
/// notifications and key-value observed properties.
public enum QueueNotification: Hashable, Sendable {
    case currentItemChanged(from: ItemID?, to: ItemID?)
    /// The order or membership of the list changed.
    case itemsChanged
    /// Entries were added to or taken from the history.
    case historyChanged
    case statusChanged(ItemID, PlayerItem.Status)
    case rateChanged(Double)
    case timeControlStatusChanged(TimeControlStatus, WaitingReason?)
    case didPlayToEndTime(ItemID)
    case failedToPlayToEndTime(ItemID, ItemFailure)
    case playbackStalled(ItemID)
    /// The playhead moved other than by playing: a seek, a loop restart, a live window that
    /// moved past it.
    case timeJumped(ItemID, to: MediaTime)
    case newAccessLogEntry(ItemID)
    case newErrorLogEntry(ItemID)
    /// The item restarted for a loop; `loopCount` restarts so far.
    case itemLooped(ItemID, loopCount: Int)
    case seekCompleted(SeekID, finished: Bool)
    case periodicTime(TimeObserverID, ItemID?, MediaTime)
    case boundaryTimeCrossed(TimeObserverID, ItemID, MediaTime)
    /// Some other observable state of the item changed: duration, ranges, bitrates, media
    /// information, preferences, selection, loop, logs.
    case itemStateChanged(ItemID)
    case settingsChanged(QueueSettings)
}

/// What the engine must do; the core does no I/O itself.
public enum QueueEffect: Hashable, Sendable {
    /// Start a loader for the item (the current one or one of the next
    /// ``QueueConfiguration/preloadCount`` entries).
    case startLoading(ItemID)
    /// Stop the item's loader: it left the loading window, the list, or failed.
    case stopLoading(ItemID)
    /// The playhead moved to a time that is not loaded: load from there.
    case loadFrom(ItemID, MediaTime)
    /// The item's preferred peak bitrate, forward buffer duration or rendition selection
    /// changed: the loader should follow.
    case applyLoadingPreferences(ItemID)
    /// Save the item's playhead: on pause, seek and item change.
    case persistPlayhead(ItemID, MediaTime)
    /// Save a change of the queue's durable state.
    case persist(QueueEdit)
}

/// A change of durable state, small enough that the Store writes O(1) rows for it (except
/// ``reordered(after:_:)``, which lists the entries it reorders).
public enum QueueEdit: Hashable, Sendable {
    case inserted(ItemID, after: ItemID?)
    case moved(ItemID, after: ItemID?)
    /// The item left the list: deleted, or passed into history (see ``historyAppended(_:)``).
    case removed(ItemID)
    case removedAll
    /// The entries after `after` (all of them when nil) now come in this order.
    case reordered(after: ItemID?, [ItemID])
    case currentItem(ItemID?)
    /// A history entry was added; its item is in ``QueuePlayer/history``.
    case historyAppended(serial: Int64)
    case historyRemoved(serial: Int64)
    /// The item's persisted fields changed: status or failure, title, preferences, loop,
    /// media selections.
    case item(ItemID)
    case settings
}
