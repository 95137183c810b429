import Foundation

/// The fastest and the median wall-clock time of several runs of the same work.
public struct Timing: Sendable {
    public let best: Duration
    public let median: Duration

    /// `duration` divided by `count`, in nanoseconds.
    public static func nanoseconds(_ duration: Duration, per count: Int) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
    }

    public func bestNanoseconds(per count: Int) -> Double {
        Self.nanoseconds(best, per: count)
    }

    public func medianNanoseconds(per count: Int) -> Double {
        Self.nanoseconds(median, per: count)
    }
}

/// Runs `body` once to warm up, then `repetitions` times, and returns the timing.
public func measure(repetitions: Int = 7, _ body: () throws -> Void) rethrows -> Timing {
    try body()
    let clock = ContinuousClock()
    var durations: [Duration] = []
    for _ in 0..<repetitions {
        durations.append(try clock.measure(body))
    }
    durations.sort()
    return Timing(best: durations[0], median: durations[durations.count / 2])
}

/// The process's peak resident set size so far, in bytes.
///
/// Read from `VmHWM` in `/proc/self/status` where it exists: `getrusage`'s `ru_maxrss`
/// survives `exec`, so a child process started to measure one figure would report its
/// parent's peak.
public func peakResidentMemoryBytes() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let fields = Optional(line.split(whereSeparator: { $0 == " " || $0 == "\t" })), fields.count >= 2,
       let kilobytes = Int(fields[1]) {
        return kilobytes * 1024
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

/// Keeps the optimizer from discarding a computed value.
@inline(never)
public func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Prints one figure as an aligned line: name, value, unit, and the goal it is held to.
public func report(_ name: String, _ value: Double, _ unit: String, goal: String? = nil) {
    let padded = name.padding(toLength: 52, withPad: " ", startingAt: 0)
    let number = String(format: "%12.3f", value)
    let suffix = goal.map { "   (goal: \($0))" } ?? ""
    print("\(padded)\(number) \(unit)\(suffix)")
}

/// The process's resident set size now, in bytes (Linux: `/proc/self/statm`), or nil when
/// it cannot be read.
public func currentResidentMemoryBytes() -> Int? {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
