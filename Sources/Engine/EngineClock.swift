import Foundation
import QueueCore
import Synchronization

/// The clock that drives the Engine: the queue core's readings, plus a way to sleep until
/// an instant of the same clock.
///
/// The Engine reads it for every transition (through the queue core) and sleeps on it until
/// the next deadline: an item end, a stall, the next playhead save. Nothing polls: with no
/// queue playing, nothing sleeps at all. ``SystemEngineClock`` is the real clock;
/// ``ManualEngineClock`` moves only when a test tells it to.
public protocol EngineClock: PlaybackClock {
    /// Returns once ``monotonicNow()`` has reached `deadline` (at once if it has). Throws
    /// `CancellationError` when the calling task is cancelled first.
    func sleep(until deadline: MonotonicInstant) async throws
}

/// The machine's clocks: monotonic time from `ContinuousClock`, dates from the system's
/// real-time clock.
public struct SystemEngineClock: EngineClock {
    /// Monotonic instants count nanoseconds from this instant.
    private let origin: ContinuousClock.Instant

    public init() {
        origin = ContinuousClock.now
    }

    public func monotonicNow() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Self.nanoseconds(origin.duration(to: .now)))
    }

    public func wallClockNow() -> WallClockDate {
        WallClockDate(nanosecondsSince1970: Int64((Date().timeIntervalSince1970 * 1e9).rounded()))
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        try await Task.sleep(until: origin.advanced(by: .nanoseconds(deadline.nanoseconds)), clock: .continuous)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}

/// A clock that moves only when ``advance(by:)`` is called: tests drive the Engine's
/// timers deterministically with it. Sleepers whose deadline the clock passes wake up.
///
/// It is a class so that a test keeps a reference to the clock the Engine holds; its state
/// is behind a `Mutex`, which makes it `Sendable`.
public final class ManualEngineClock: EngineClock {
    private struct Sleeper {
        let deadline: MonotonicInstant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var monotonic: MonotonicInstant
        var wallClock: WallClockDate
        var sleepers: [Int: Sleeper] = [:]
        var nextSleeper = 0
    }

    private let state: Mutex<State>

    public init(
        start: MonotonicInstant = MonotonicInstant(nanoseconds: 0),
        date: WallClockDate = WallClockDate(nanosecondsSince1970: 1_800_000_000_000_000_000)
    ) {
        state = Mutex(State(monotonic: start, wallClock: date))
    }

    public func monotonicNow() -> MonotonicInstant {
        state.withLock { $0.monotonic }
    }

    public func wallClockNow() -> WallClockDate {
        state.withLock { $0.wallClock }
    }

    /// Moves both readings forward by `duration` (rounded to the nanosecond; ignored when
    /// not positive) and wakes the sleepers whose deadline is now reached.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return }
        let woken = state.withLock { state -> [Sleeper] in
            state.monotonic = state.monotonic.advanced(by: nanoseconds)
            state.wallClock = WallClockDate(nanosecondsSince1970: state.wallClock.nanosecondsSince1970 &+ nanoseconds)
            let due = state.sleepers.filter { $0.value.deadline <= state.monotonic }
            for key in due.keys { state.sleepers[key] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// How many tasks are sleeping on this clock: tests wait for the Engine's timer to be
    /// armed before they advance the clock past it.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// The earliest deadline a task sleeps until, if any.
    public var earliestDeadline: MonotonicInstant? {
        state.withLock { $0.sleepers.values.map(\.deadline).min() }
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        let key = state.withLock { state -> Int in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if Task.isCancelled { return .some(CancellationError()) }
                    if deadline <= state.monotonic { return .some(nil) }
                    state.sleepers[key] = Sleeper(deadline: deadline, continuation: continuation)
                    return .none
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: key) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
