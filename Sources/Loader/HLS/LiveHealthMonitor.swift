import Playlist

/// The health checks of a live media playlist, as a state machine fed with each reload's
/// outcome and the passing of time.
///
/// Each check is either passing or failing. A transition between the two is a
/// ``LiveHealthMonitor/Event``: the loader turns a failure into an error-log entry and a
/// ``LoaderReport/liveHealth(_:)`` report, and a recovery into a report.
///
/// | check | fails when | recovers when |
/// |---|---|---|
/// | ``Check/stale`` | the playlist has not changed for more than ``staleMultiple`` target durations | a reload finds it changed |
/// | ``Check/mediaSequence`` | a changed playlist's `EXT-X-MEDIA-SEQUENCE` is lower than the previous one | a changed playlist's is not lower |
/// | ``Check/discontinuitySequence`` | a segment listed in both playlists has another discontinuity sequence: `EXT-X-DISCONTINUITY-SEQUENCE` did not count the discontinuities that left the window | the overlapping segments agree again |
/// | ``Check/segmentURI`` | a segment listed in both playlists (same media sequence number) has another URI | the overlapping segments agree again |
/// | ``Check/segmentDuration`` | a listed segment's `EXTINF`, rounded to the nearest second, exceeds `EXT-X-TARGETDURATION` | no listed segment does |
/// | ``Check/playlistFetch`` | a reload fails | a reload succeeds |
///
/// When the playlist ends (``playlistEnded()``), every failing check recovers.
///
/// The comparisons between two playlists (sequence, discontinuities, URIs) are made only when
/// the playlist changed and the media sequence did not go backwards (after a restart, the
/// same numbers name other segments). ``forgetPreviousPlaylist()`` (a variant switch) starts
/// the comparisons afresh.
///
/// Instants are durations since the loading started, on the loader's clock. A pure value.
public struct LiveHealthMonitor: Sendable, Hashable {
    /// One health check.
    public enum Check: String, Sendable, Hashable, CaseIterable {
        case stale
        case mediaSequence
        case discontinuitySequence
        case segmentURI
        case segmentDuration
        case playlistFetch

        /// The error-log status code of a failure of this check, in the `hlsq.live` domain
        /// (``playlistFetch`` failures are logged as the HTTP errors they are).
        public var statusCode: Int {
            switch self {
            case .stale: -1001
            case .mediaSequence: -1002
            case .discontinuitySequence: -1003
            case .segmentURI: -1004
            case .segmentDuration: -1005
            case .playlistFetch: -1006
            }
        }
    }

    /// A check started failing (`isFailing`) or recovered.
    public struct Event: Sendable, Hashable {
        public var check: Check
        public var isFailing: Bool
        public var message: String
    }

    /// How many target durations an unchanged playlist may last before it is stale.
    public let staleMultiple: Double
    /// The failing checks and what they said.
    public private(set) var failing: [Check: String] = [:]
    /// When a reload last found the playlist changed (or first loaded it).
    public private(set) var lastChangedAt: Duration?
    private var targetDuration: Duration = .zero
    private var previous: MediaPlaylist?

    public init(staleMultiple: Double = 3.5) {
        self.staleMultiple = staleMultiple
    }

    /// Whether `check` is failing.
    public func isFailing(_ check: Check) -> Bool { failing[check] != nil }

    /// When the playlist becomes stale if nothing changes; nil while it is stale already or
    /// before the first load.
    public var staleDeadline: Duration? {
        guard let lastChangedAt, !isFailing(.stale) else { return nil }
        return lastChangedAt + targetDuration * staleMultiple
    }

    /// A reload succeeded; `changed` tells whether its body differs from the previous one.
    public mutating func playlistLoaded(_ playlist: MediaPlaylist, changed: Bool, at now: Duration) -> [Event] {
        var events: [Event] = []
        targetDuration = max(.seconds(playlist.targetDuration), PlaylistReloadTiming.minimumTargetDuration)
        set(.playlistFetch, failing: nil, &events)
        guard changed || lastChangedAt == nil else { return events }
        lastChangedAt = now
        set(.stale, failing: nil, &events)
        set(.segmentDuration, failing: Self.overlongSegment(in: playlist), &events)
        if let previous {
            compare(previous, with: playlist, &events)
        }
        previous = playlist
        return events
    }

    /// A reload failed with `message`.
    public mutating func playlistFailed(_ message: String) -> [Event] {
        var events: [Event] = []
        set(.playlistFetch, failing: message, &events)
        return events
    }

    /// Time passed: the stale check fails once its deadline is reached.
    public mutating func tick(at now: Duration) -> [Event] {
        var events: [Event] = []
        if let deadline = staleDeadline, now >= deadline, let lastChangedAt {
            let unchanged = now - lastChangedAt
            set(.stale, failing: "the playlist has not changed for \(unchanged.secondsText) s, more than "
                + "\(staleMultiple.compactText) × the target duration of \(targetDuration.secondsText) s", &events)
        }
        return events
    }

    /// The playlist ended (`EXT-X-ENDLIST`): monitoring stops, and every failing check
    /// recovers.
    public mutating func playlistEnded() -> [Event] {
        var events: [Event] = []
        for check in Check.allCases where isFailing(check) {
            set(check, failing: nil, &events)
        }
        lastChangedAt = nil
        previous = nil
        return events
    }

    /// Compares the next playlist with nothing: after a variant switch the numbers belong to
    /// another playlist.
    public mutating func forgetPreviousPlaylist() {
        previous = nil
    }

    private mutating func compare(_ old: MediaPlaylist, with new: MediaPlaylist, _ events: inout [Event]) {
        if new.mediaSequence < old.mediaSequence {
            set(.mediaSequence, failing: "EXT-X-MEDIA-SEQUENCE went back from \(old.mediaSequence) to "
                + "\(new.mediaSequence)", &events)
            return
        }
        set(.mediaSequence, failing: nil, &events)
        let shift = new.mediaSequence - old.mediaSequence
        let overlap = max(0, min(old.segments.count - shift, new.segments.count))
        var uriProblem: String?
        var discontinuityProblem: String?
        for index in 0..<overlap {
            let before = old.segments[shift + index]
            let after = new.segments[index]
            if uriProblem == nil, before.uri != after.uri {
                uriProblem = "segment \(after.mediaSequenceNumber) changed its URI from \(before.uri) to \(after.uri)"
            }
            if discontinuityProblem == nil, before.discontinuitySequence != after.discontinuitySequence {
                discontinuityProblem = "segment \(after.mediaSequenceNumber) has discontinuity sequence "
                    + "\(after.discontinuitySequence), was \(before.discontinuitySequence): "
                    + "EXT-X-DISCONTINUITY-SEQUENCE does not match the discontinuities that left the window"
            }
        }
        // Without overlap there is nothing to compare: the checks keep their state.
        guard overlap > 0 else { return }
        set(.segmentURI, failing: uriProblem, &events)
        set(.discontinuitySequence, failing: discontinuityProblem, &events)
    }

    private static func overlongSegment(in playlist: MediaPlaylist) -> String? {
        for segment in playlist.segments {
            guard let seconds = segment.duration.seconds else { continue }
            if Int(seconds.rounded()) > playlist.targetDuration {
                return "segment \(segment.mediaSequenceNumber) lasts \(segment.duration.decimalSeconds(maximumFractionDigits: 3) ?? "?") s, "
                    + "longer than the target duration of \(playlist.targetDuration) s"
            }
        }
        return nil
    }

    /// Moves `check` to failing (with a message) or passing (nil), noting a transition.
    private mutating func set(_ check: Check, failing message: String?, _ events: inout [Event]) {
        switch (failing[check], message) {
        case (nil, let message?):
            failing[check] = message
            events.append(Event(check: check, isFailing: true, message: message))
        case (let old?, nil):
            failing[check] = nil
            events.append(Event(check: check, isFailing: false, message: "recovered: \(old)"))
        default:
            break
        }
    }
}

extension Duration {
    /// Seconds rounded to the millisecond, without a trailing `.0`, for messages.
    var secondsText: String {
        ((inSeconds * 1000).rounded() / 1000).compactText
    }
}

extension Double {
    /// The number without a trailing `.0`, for messages.
    var compactText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
