import Foundation

/// When and after how long a failed request is tried again: exponential backoff with
/// jitter, as a pure value.
///
/// Which failures are retried:
/// - timeouts (connect, first byte, stall, total), connection failures and lost connections,
///   and HTTP 5xx: they are usually transient;
/// - never any 4xx, DNS failures, TLS failures, oversize bodies, redirect loops, invalid URLs,
///   unreadable files or cancellation: trying again would fail the same way.
///
/// The delay before retry `n` (n = 1 after the first failure) is
/// `min(maximumDelay, initialDelay × multiplier^(n-1))`, shortened by a random fraction of
/// up to `jitter` of itself, so that clients that failed together do not retry together.
/// The random source is a parameter, so tests choose it.
///
/// Invariants: `maximumAttempts >= 1`, `multiplier >= 1`, `0 <= jitter <= 1`, and the delays
/// are not negative; the initializer clamps its arguments into these ranges.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included: 1 never retries.
    public let maximumAttempts: Int
    public let initialDelay: Duration
    public let multiplier: Double
    public let maximumDelay: Duration
    /// The largest fraction of a delay that jitter removes.
    public let jitter: Double

    public init(
        maximumAttempts: Int,
        initialDelay: Duration = .milliseconds(250),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(8),
        jitter: Double = 0.5
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = max(.zero, initialDelay)
        self.multiplier = multiplier.isFinite ? max(1, multiplier) : 1
        self.maximumDelay = max(self.initialDelay, maximumDelay)
        self.jitter = jitter.isFinite ? min(1, max(0, jitter)) : 0
    }

    /// One attempt, no retry.
    public static let never = RetryPolicy(maximumAttempts: 1)
    /// Four attempts, 250 ms then 500 ms then 1 s (less jitter) apart.
    public static let standard = RetryPolicy(maximumAttempts: 4)

    /// What to do after a failure.
    public enum Decision: Sendable, Hashable {
        case retry(after: Duration)
        case giveUp
    }

    /// Whether a failure of this kind is worth another attempt (see the type's notes).
    public static func isRetryable(_ code: HTTPError.Code, statusCode: Int?) -> Bool {
        if code == .httpStatus {
            return statusCode.map { (500..<600).contains($0) } ?? false
        }
        return code.isTimeout || code == .connectionFailed || code == .connectionLost
    }

    /// The decision after attempt number `attempt` (1 for the first) failed with `code`.
    public func decision(
        afterAttempt attempt: Int, failedWith code: HTTPError.Code, statusCode: Int?,
        random: inout some RandomNumberGenerator
    ) -> Decision {
        guard attempt < maximumAttempts, Self.isRetryable(code, statusCode: statusCode) else { return .giveUp }
        return .retry(after: delay(beforeRetry: attempt, random: &random))
    }

    /// The delay before retry `retry` (1 for the first retry), jitter applied.
    public func delay(beforeRetry retry: Int, random: inout some RandomNumberGenerator) -> Duration {
        let exponent = Double(max(0, retry - 1))
        let grown = initialDelay.inSeconds * pow(multiplier, exponent)
        let capped = min(maximumDelay.inSeconds, grown)
        let shortening = jitter > 0 ? Double.random(in: 0..<1, using: &random) * jitter : 0
        return .nanoseconds(Int64((capped * (1 - shortening) * 1e9).rounded()))
    }
}
