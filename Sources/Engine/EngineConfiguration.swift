import Loader
import Store

/// How an ``Engine`` runs. The defaults suit the server; tests inject a
/// ``ManualEngineClock`` and shorter intervals.
public struct EngineConfiguration: Sendable {
    /// The SQLite file; created when missing.
    public var databasePath: String
    /// What an acknowledged change survives (see docs/STORAGE.md).
    public var durability: Store.Durability
    /// How long a write waits for another connection's lock (a backup) before it fails.
    public var busyTimeout: Duration
    /// The loaders for media files and HLS streams.
    public var loaders: ItemLoaders
    public var clock: any EngineClock
    /// How many upcoming items load ahead of the current one.
    public var preloadCount: Int
    /// How many history entries each queue keeps.
    public var historyLimit: Int
    /// Whether queues that were playing when the Engine stopped play again after a restart;
    /// by default every queue is restored paused at its saved item and position.
    public var resumesPlaybackAfterRestart: Bool
    /// How often the playhead of a playing queue is saved (it is also saved on pause, seek,
    /// item change and shutdown).
    public var playheadSaveInterval: Duration
    /// The least time between two `itemUpdated` events of one item.
    public var itemUpdateInterval: Duration
    /// How long to wait before retrying writes that failed (the Store's lock was held too
    /// long, the disk was full).
    public var persistenceRetryInterval: Duration
    public var events: EventHub.Configuration
    /// The most items a `queueCreated` or `queueUpdated` event's snapshot lists, and the
    /// snapshot a mutation answers with; a longer queue's snapshot lists its first items and
    /// says how many there are in all (``QueueState/itemCount``), so that a change costs the
    /// same in a long queue as in a short one. Clients fetch the whole snapshot
    /// (``Engine/queue(_:)``) when they need it.
    public var eventItemLimit: Int

    public init(
        databasePath: String, durability: Store.Durability = .survivesProcessCrash, busyTimeout: Duration = .seconds(5),
        loaders: ItemLoaders,
        clock: any EngineClock = SystemEngineClock(), preloadCount: Int = 1, historyLimit: Int = 100,
        resumesPlaybackAfterRestart: Bool = false, playheadSaveInterval: Duration = .seconds(5),
        itemUpdateInterval: Duration = .milliseconds(250), persistenceRetryInterval: Duration = .seconds(1),
        events: EventHub.Configuration = EventHub.Configuration(), eventItemLimit: Int = 1_000
    ) {
        self.databasePath = databasePath
        self.durability = durability
        self.busyTimeout = busyTimeout
        self.loaders = loaders
        self.clock = clock
        self.preloadCount = max(0, preloadCount)
        self.historyLimit = max(0, historyLimit)
        self.resumesPlaybackAfterRestart = resumesPlaybackAfterRestart
        self.playheadSaveInterval = playheadSaveInterval
        self.itemUpdateInterval = itemUpdateInterval
        self.persistenceRetryInterval = persistenceRetryInterval
        self.events = events
        self.eventItemLimit = max(0, eventItemLimit)
    }
}

/// The item loaders the Engine starts, by kind, and how it tells the kind of a URL that
/// does not say it.
public struct ItemLoaders: Sendable {
    public var mediaFile: any ItemLoader
    /// The HLS loader; without one, HLS items stay `loading` and their error log says why.
    public var hls: (any ItemLoader)?
    /// Fetches the first bytes of a URL whose kind its extension does not tell
    /// (``MediaKind/sniff(_:client:)``); without a client such URLs load as media files.
    public var client: HTTPClient?

    public init(mediaFile: any ItemLoader, hls: (any ItemLoader)? = nil, client: HTTPClient? = nil) {
        self.mediaFile = mediaFile
        self.hls = hls
        self.client = client
    }

    /// A `MediaFileLoader` and an `HLSLoader` on `client`, which also sniffs kinds; `hls`
    /// replaces the HLS loader. (For no HLS loader at all, use
    /// ``init(mediaFile:hls:client:)``.)
    public init(client: HTTPClient, hls: (any ItemLoader)? = nil) {
        self.init(mediaFile: MediaFileLoader(client: client), hls: hls ?? HLSLoader(client: client), client: client)
    }

    func loader(for kind: MediaKind) -> (any ItemLoader)? {
        switch kind {
        case .hls: hls
        case .mediaFile: mediaFile
        }
    }

    func kind(of url: String) async -> MediaKind {
        if let known = MediaKind.detect(url: url) { return known }
        guard let client else { return .mediaFile }
        return await MediaKind.sniff(url, client: client)
    }
}
