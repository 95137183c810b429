import MediaTime

/// One media item of a queue, with the state of `AVPlayerItem`: identity, status, time,
/// loaded and seekable ranges, buffer state, preferences, media information and logs.
///
/// ## Identity
/// ``id`` is stable (it survives a restart) and is the only thing that makes two items the
/// same. ``url``, ``title`` and ``kind`` describe what to load.
///
/// ## Status
/// `unknown → loading → readyToPlay | failed(error)`:
/// - the queue player moves an item to ``Status-swift.enum/loading`` when it asks the engine
///   to load it, and back to ``Status-swift.enum/unknown`` if it stops loading it before the
///   item became ready (an hlsq addition: AVFoundation has no "stopped loading");
/// - the loader's reports make it ``Status-swift.enum/readyToPlay`` or
///   ``Status-swift.enum/failed(_:)``;
/// - a failed item keeps its error and never plays again: it cannot be inserted, jumped to
///   or played, and re-adding its URL makes a new item with a new id.
///
/// ## Time
/// ``duration`` is indefinite until the item is ready, and stays indefinite for live items.
/// ``currentTime`` is the item's playhead. ``loadedTimeRanges`` are what the loader really
/// downloaded; ``seekableTimeRanges`` are where a seek may land (for live, a sliding window).
///
/// ## Invariants (checked by ``QueuePlayer/checkInvariants()``)
/// - ``currentTime`` is numeric, not negative, and not past a numeric ``duration``;
/// - the range sets are normalized;
/// - only a failed item has a ``failure``.
///
/// Items are values. The queue player owns the live copy of each queued item; the copies it
/// hands out are snapshots.
public struct PlayerItem: Identifiable, Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case hls
        case mediaFile
        case unknown
    }

    public enum Status: Hashable, Sendable {
        case unknown
        case loading
        case readyToPlay
        case failed(ItemFailure)
    }

    /// How the item asks to be loaded and where it ends, like the matching properties of
    /// `AVPlayerItem`.
    public struct Preferences: Hashable, Sendable {
        /// How much media to buffer ahead of the playhead; zero lets the player choose
        /// (``BufferPolicy/automaticForwardBufferDuration``).
        public var preferredForwardBufferDuration: MediaTime
        /// A cap on the variant bandwidth, in bits per second; zero means no cap.
        public var preferredPeakBitRate: Double
        /// Where forward playback ends, if earlier than the item's end.
        public var forwardPlaybackEndTime: MediaTime?
        /// Where reverse playback ends, if later than the item's start.
        public var reversePlaybackEndTime: MediaTime?

        public init(
            preferredForwardBufferDuration: MediaTime = .zero, preferredPeakBitRate: Double = 0,
            forwardPlaybackEndTime: MediaTime? = nil, reversePlaybackEndTime: MediaTime? = nil
        ) {
            self.preferredForwardBufferDuration = preferredForwardBufferDuration
            self.preferredPeakBitRate = preferredPeakBitRate
            self.forwardPlaybackEndTime = forwardPlaybackEndTime
            self.reversePlaybackEndTime = reversePlaybackEndTime
        }
    }

    // Identity.
    public let id: ItemID
    public let url: String
    public var title: String?
    public internal(set) var kind: Kind

    // Status.
    public internal(set) var status: Status

    // Time.
    public internal(set) var duration: MediaTime
    public internal(set) var currentTime: MediaTime
    public internal(set) var loadedTimeRanges: TimeRangeSet
    public internal(set) var seekableTimeRanges: TimeRangeSet

    // What the user asked for; persisted by the Store.
    public internal(set) var preferences: Preferences
    /// This item's own loop, which takes precedence over the player's
    /// ``LoopMode/item(_:)``.
    public internal(set) var loop: ItemLoop?
    /// The renditions asked for, by characteristic; missing means ``MediaSelection/automatic``.
    public internal(set) var mediaSelections: [MediaCharacteristic: MediaSelection]

    // What the loader reported.
    public internal(set) var mediaInformation: MediaInformation
    /// The download rate the loader measured, in bits per second.
    public internal(set) var measuredDownloadBitrate: Double?
    /// The bandwidth of the variant playing, in bits per second.
    public internal(set) var indicatedBitrate: Double?
    public internal(set) var accessLog: [AccessLogEvent]
    public internal(set) var errorLog: [ErrorLogEvent]

    /// How many times the item has looped since it became current.
    public internal(set) var loopCount: Int
    /// Whether a live item still waits to be put at the live edge: true until its playhead is
    /// placed by playback, a seek or a restored position.
    var startsAtLiveEdge: Bool

    /// A new item, or one restored by the Store: `failure` makes it failed for good, and
    /// `currentTime` is where it resumes.
    public init(
        id: ItemID, url: String, title: String? = nil, kind: Kind = .unknown,
        preferences: Preferences = Preferences(), loop: ItemLoop? = nil,
        mediaSelections: [MediaCharacteristic: MediaSelection] = [:],
        currentTime: MediaTime = .zero, failure: ItemFailure? = nil
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.kind = kind
        self.status = failure.map(Status.failed) ?? .unknown
        self.duration = .indefinite
        self.currentTime = currentTime
        self.loadedTimeRanges = TimeRangeSet()
        self.seekableTimeRanges = TimeRangeSet()
        self.preferences = preferences
        self.loop = loop
        self.mediaSelections = mediaSelections
        self.mediaInformation = MediaInformation()
        self.measuredDownloadBitrate = nil
        self.indicatedBitrate = nil
        self.accessLog = []
        self.errorLog = []
        self.loopCount = 0
        self.startsAtLiveEdge = currentTime == .zero
    }

    public var isFailed: Bool {
        if case .failed = status { return true }
        return false
    }

    public var failure: ItemFailure? {
        if case .failed(let failure) = status { return failure }
        return nil
    }

    /// LIVE, VOD or FILE once the item is ready; nil before.
    public var playbackType: PlaybackType? {
        guard status == .readyToPlay else { return nil }
        switch kind {
        case .hls: return duration.isNumeric ? .vod : .live
        case .mediaFile: return .file
        case .unknown: return nil
        }
    }

    public var isLive: Bool {
        playbackType == .live
    }

    /// Where forward playback ends: the earlier of the duration and
    /// ``Preferences-swift.struct/forwardPlaybackEndTime``; indefinite for live items without
    /// an end time.
    public var forwardEnd: MediaTime {
        guard let end = preferences.forwardPlaybackEndTime else { return duration }
        return duration.isNumeric ? min(end, duration) : end
    }

    /// Where reverse playback ends: ``Preferences-swift.struct/reversePlaybackEndTime`` or
    /// the start.
    public var reverseEnd: MediaTime {
        preferences.reversePlaybackEndTime ?? .zero
    }

    /// The renditions in use, by characteristic: the asked-for option when the media has it,
    /// otherwise the group's default. Empty until media information is known.
    public var currentMediaSelection: [MediaCharacteristic: MediaSelectionOption] {
        var selection: [MediaCharacteristic: MediaSelectionOption] = [:]
        for group in mediaInformation.mediaSelectionGroups {
            switch mediaSelections[group.characteristic] ?? .automatic {
            case .off where group.allowsEmptySelection:
                continue
            case .option(let name) where group.option(named: name) != nil:
                selection[group.characteristic] = group.option(named: name)
            default:
                selection[group.characteristic] = group.defaultOption
            }
        }
        return selection
    }

    /// The same item at rest, as kept in history or after its loading stopped: nothing
    /// loaded, and `loading` back to `unknown`.
    func atRest() -> PlayerItem {
        var item = self
        if item.status == .loading { item.status = .unknown }
        item.loadedTimeRanges = TimeRangeSet()
        return item
    }
}

extension PlayerItem: VacantRepresentable {
    /// Holds nothing on the heap: empty strings and empty collections are not allocated.
    static let vacant = PlayerItem(id: ItemID(""), url: "")
}

/// Why an item failed, as the loader reported it.
public struct ItemFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the code comes from: `http`, `curl`, `avformat`, `playlist`, …
    public var domain: String
    public var code: Int
    public var message: String

    public init(domain: String, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    public var description: String { "\(domain) \(code): \(message)" }
}

/// A loop of one item, like `AVPlayerLooper`: the item (or `timeRange` of it) restarts when
/// it ends, `plays` times in all, and ``PlayerItem/loopCount`` counts the restarts.
public struct ItemLoop: Hashable, Sendable {
    /// How many times the item plays in all; nil loops forever. At least 1.
    public var plays: Int?
    /// The part of the item that loops; nil loops the whole item. It bounds every play,
    /// the first included.
    public var timeRange: TimeRange?

    public init(plays: Int? = nil, timeRange: TimeRange? = nil) {
        self.plays = plays
        self.timeRange = timeRange
    }

    public static let forever = ItemLoop()
}
