import Foundation
import Loader
import MediaTime
import QueueCore

/// One queue the Engine runs: its queue player, the writes still owed to the Store, and the
/// per-item state the queue core does not model (live figures, cache hits, event pacing).
struct RunningQueue {
    let id: QueueID
    var name: String
    var player: QueuePlayer
    /// Writes of transitions that happened without a command (clock ticks, loader reports)
    /// and did not reach the Store yet; they run first in the next transaction.
    var pending = StorePlan()
    /// When to try `pending` again after a failed write.
    var retryAt: MonotonicInstant?
    /// When the playhead was last saved.
    var lastPlaybackSave: MonotonicInstant
    /// When the last transition read the clock.
    var lastTransition: MonotonicInstant
    var sides: [ItemID: ItemSide] = [:]
    /// Items whose `itemUpdated` event waits for its turn, and when it is due.
    var pendingItemUpdates: [ItemID: MonotonicInstant] = [:]
    /// The snapshots of items that did not change since they were built (never the current
    /// item, whose playhead moves with the clock), at most ``Engine/stateCacheLimit`` of
    /// them. Every transition drops the items it mentions.
    var itemStates: [ItemID: ItemState] = [:]
    /// The history's snapshots, until the history or an item's status changes.
    var historyStates: [ItemState]?

    init(id: QueueID, name: String, player: QueuePlayer, now: MonotonicInstant) {
        self.id = id
        self.name = name
        self.player = player
        lastPlaybackSave = now
        lastTransition = now
    }

    /// The time and item of the playhead before a transition, for `timeJumped`'s `from`.
    var playheadMark: (item: ItemID, time: MediaTime)? {
        player.currentItem.map { ($0.id, $0.currentTime) }
    }
}

/// What the Engine keeps about an item beside the queue core's ``PlayerItem``.
struct ItemSide {
    var live: LiveStatus?
    /// The live checks failing now, by name.
    var health: [String: LiveHealthRecord] = [:]
    /// Cache hits per access-log entry, newest last (parallel to the end of the item's log).
    var cacheHits: [Int] = []
    var variantURI: String?
    /// When the last `itemUpdated` event of the item was published.
    var lastPublished: MonotonicInstant?
}

/// One running loading of one item: the task that reads the loader's reports and the
/// directives it follows.
struct LoaderSession {
    let queueID: QueueID
    /// Tells this session's reports from those of an earlier loading of the same item.
    let generation: Int
    let task: Task<Void, Never>
    let directives: AsyncStream<LoadingDirectives>.Continuation
    var current: LoadingDirectives
    var translator: LoaderReportTranslator?
    /// The loader sent its terminal report: a seek past what it loaded starts a new loading.
    var isFinished = false
}
