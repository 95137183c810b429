import MediaTime
import Synchronization

/// A reading of a monotonic clock, in nanoseconds since an arbitrary origin.
///
/// Only differences between instants of the same clock mean anything. The playhead advances
/// by `rate × (later − earlier)`.
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant `nanoseconds` later.
    public func advanced(by nanoseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: self.nanoseconds &+ nanoseconds)
    }

    /// `self − earlier` as an exact media time (timescale 10⁹).
    public func elapsed(since earlier: MonotonicInstant) -> MediaTime {
        MediaTime(value: nanoseconds &- earlier.nanoseconds, timescale: 1_000_000_000)
    }

    public var description: String { "\(nanoseconds) ns" }
}

/// A calendar date, as the time since 1970-01-01 00:00:00 UTC, for the logs' dates
/// (`playbackStartDate`, the error date). The core never reads a system date itself.
public struct WallClockDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let nanosecondsSince1970: Int64

    public init(nanosecondsSince1970: Int64) {
        self.nanosecondsSince1970 = nanosecondsSince1970
    }

    public static func < (lhs: WallClockDate, rhs: WallClockDate) -> Bool {
        lhs.nanosecondsSince1970 < rhs.nanosecondsSince1970
    }

    public var description: String { "\(nanosecondsSince1970) ns since 1970" }
}

/// Where the core gets time from. The engine supplies a real clock; tests use ``ManualClock``.
///
/// Every transition of ``QueuePlayer`` reads ``monotonicNow()`` once and first brings the
/// playhead up to that instant, so commands act on the exact position of the moment they
/// arrive. ``wallClockNow()`` is read only to date log entries.
public protocol PlaybackClock: Sendable {
    /// Never goes backwards. A reading earlier than the previous one is treated as no time
    /// having passed.
    func monotonicNow() -> MonotonicInstant
    func wallClockNow() -> WallClockDate
}

/// A clock that moves only when told to: tests and deterministic simulations.
///
/// It is a class so that a test can keep a reference and advance the clock that a player
/// holds. Its state is behind a `Mutex`, which makes it safely `Sendable`.
public final class ManualClock: PlaybackClock {
    private struct Reading {
        var monotonic: MonotonicInstant
        var wallClock: WallClockDate
    }

    private let reading: Mutex<Reading>

    /// Starts at monotonic instant `start` and at the wall-clock date `date`; both advance
    /// together.
    public init(
        start: MonotonicInstant = MonotonicInstant(nanoseconds: 0),
        date: WallClockDate = WallClockDate(nanosecondsSince1970: 1_700_000_000_000_000_000)
    ) {
        reading = Mutex(Reading(monotonic: start, wallClock: date))
    }

    public func monotonicNow() -> MonotonicInstant {
        reading.withLock { $0.monotonic }
    }

    public func wallClockNow() -> WallClockDate {
        reading.withLock { $0.wallClock }
    }

    /// Moves both readings forward by `nanoseconds` (ignored when negative).
    public func advance(nanoseconds: Int64) {
        guard nanoseconds > 0 else { return }
        reading.withLock {
            $0.monotonic = $0.monotonic.advanced(by: nanoseconds)
            $0.wallClock = WallClockDate(nanosecondsSince1970: $0.wallClock.nanosecondsSince1970 &+ nanoseconds)
        }
    }

    /// Moves both readings forward by `duration`, rounded to the nanosecond.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        advance(nanoseconds: seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }
}
