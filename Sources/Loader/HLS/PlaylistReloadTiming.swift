/// When to reload a live media playlist (RFC 8216bis §6.3.4).
///
/// Instants are durations since the loading started, on the loader's clock.
/// - After the first load, and after a reload that found the playlist **changed**, the next
///   reload starts one target duration after the start of the load that just finished.
/// - After a reload that found it **unchanged**, the next one starts half a target duration
///   after the start of that load.
/// - After a reload that **failed**, the next one starts half a target duration after the
///   failure was known: a failed load says nothing of when the playlist will change, and
///   retrying at the unchanged pace keeps a broken origin from being hammered.
///
/// A reload is never scheduled before `now`: a load that took longer than the interval is
/// followed at once. A target duration under one second counts as one second, so that a
/// playlist that says `EXT-X-TARGETDURATION:0` is not reloaded in a tight loop.
public enum PlaylistReloadTiming {
    public enum Outcome: Sendable, Hashable {
        case changed
        case unchanged
        case failed
    }

    /// The interval the rules give for an outcome.
    public static func interval(after outcome: Outcome, targetDuration: Duration) -> Duration {
        let target = max(targetDuration, minimumTargetDuration)
        return outcome == .changed ? target : target / 2
    }

    /// The shortest target duration the rules use.
    public static let minimumTargetDuration = Duration.seconds(1)

    /// When the next reload starts.
    public static func nextReload(
        after outcome: Outcome, loadStartedAt: Duration, now: Duration, targetDuration: Duration
    ) -> Duration {
        let base = outcome == .failed ? now : loadStartedAt
        return max(now, base + interval(after: outcome, targetDuration: targetDuration))
    }
}
