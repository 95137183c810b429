import Loader
import OriginSupport
import Testing

/// A random source that returns the same word every time: 0 gives no jitter, the largest
/// word the most.
struct ConstantGenerator: RandomNumberGenerator {
    var word: UInt64
    mutating func next() -> UInt64 { word }
}

/// SplitMix64: a seeded generator, so a jittered sequence is reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

@Suite struct RetryPolicyTests {
    struct RetryableCase: Sendable, CustomTestStringConvertible {
        var code: HTTPError.Code
        var statusCode: Int?
        var retryable: Bool
        var testDescription: String { "\(code) \(statusCode.map(String.init) ?? "")" }
    }

    @Test(arguments: [
        RetryableCase(code: .connectTimeout, retryable: true),
        RetryableCase(code: .firstByteTimeout, retryable: true),
        RetryableCase(code: .stallTimeout, retryable: true),
        RetryableCase(code: .totalTimeout, retryable: true),
        RetryableCase(code: .connectionFailed, retryable: true),
        RetryableCase(code: .connectionLost, retryable: true),
        RetryableCase(code: .httpStatus, statusCode: 500, retryable: true),
        RetryableCase(code: .httpStatus, statusCode: 503, retryable: true),
        RetryableCase(code: .httpStatus, statusCode: 599, retryable: true),
        RetryableCase(code: .httpStatus, statusCode: 400, retryable: false),
        RetryableCase(code: .httpStatus, statusCode: 404, retryable: false),
        RetryableCase(code: .httpStatus, statusCode: 408, retryable: false),
        RetryableCase(code: .httpStatus, statusCode: 429, retryable: false),
        RetryableCase(code: .httpStatus, statusCode: 499, retryable: false),
        RetryableCase(code: .httpStatus, statusCode: nil, retryable: false),
        RetryableCase(code: .dnsFailure, retryable: false),
        RetryableCase(code: .tlsFailure, retryable: false),
        RetryableCase(code: .tooLarge, retryable: false),
        RetryableCase(code: .tooManyRedirects, retryable: false),
        RetryableCase(code: .cancelled, retryable: false),
        RetryableCase(code: .invalidURL, retryable: false),
        RetryableCase(code: .fileUnreadable, retryable: false),
        RetryableCase(code: .transferFailed, retryable: false),
    ])
    func retriesOnlyTransientFailures(_ failure: RetryableCase) {
        #expect(RetryPolicy.isRetryable(failure.code, statusCode: failure.statusCode) == failure.retryable)
        var random = ConstantGenerator(word: 0)
        let decision = RetryPolicy.standard.decision(
            afterAttempt: 1, failedWith: failure.code, statusCode: failure.statusCode, random: &random
        )
        #expect((decision != .giveUp) == failure.retryable)
    }

    /// Without jitter the delays double from the initial delay up to the cap, and the
    /// attempts stop at the maximum.
    @Test(arguments: [
        (1, RetryPolicy.Decision.retry(after: .milliseconds(100))),
        (2, .retry(after: .milliseconds(200))),
        (3, .retry(after: .milliseconds(400))),
        (4, .retry(after: .milliseconds(800))),
        (5, .retry(after: .seconds(1))),
        (6, .retry(after: .seconds(1))),
        (7, .giveUp),
        (8, .giveUp),
    ])
    func backsOffExponentiallyUpToTheCap(attempt: Int, expected: RetryPolicy.Decision) {
        let policy = RetryPolicy(
            maximumAttempts: 7, initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0
        )
        var random = SeededGenerator(state: 1)
        #expect(policy.decision(afterAttempt: attempt, failedWith: .httpStatus, statusCode: 502, random: &random) == expected)
    }

    @Test func jitterShortensTheDelayWithinItsFraction() {
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(10), jitter: 0.25)
        var none = ConstantGenerator(word: 0)
        #expect(policy.delay(beforeRetry: 2, random: &none) == .seconds(2))
        var most = ConstantGenerator(word: .max)
        let shortest = policy.delay(beforeRetry: 2, random: &most)
        #expect(shortest < .seconds(2) && shortest >= .milliseconds(1500))

        var seeded = SeededGenerator(state: 42)
        let delays = (0..<200).map { _ in policy.delay(beforeRetry: 3, random: &seeded) }
        #expect(delays.allSatisfy { $0 > .seconds(3) && $0 <= .seconds(4) })
        #expect(Set(delays).count > 150, "jitter spreads the delays")
        var replay = SeededGenerator(state: 42)
        #expect(delays == (0..<200).map { _ in policy.delay(beforeRetry: 3, random: &replay) })
    }

    @Test func clampsItsSettings() {
        let policy = RetryPolicy(maximumAttempts: 0, initialDelay: .seconds(-1), multiplier: 0.5, maximumDelay: .zero, jitter: 3)
        #expect(policy.maximumAttempts == 1)
        #expect(policy.initialDelay == .zero)
        #expect(policy.multiplier == 1)
        #expect(policy.jitter == 1)
        var random = ConstantGenerator(word: 0)
        #expect(policy.decision(afterAttempt: 1, failedWith: .connectionLost, statusCode: nil, random: &random) == .giveUp)
    }

    // MARK: - Against the origin

    static let quick = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(50))

    @Test(arguments: [(404, 1), (500, 3), (503, 3), (403, 1)])
    func countsAttemptsOnTheOrigin(status: Int, attempts: Int) async throws {
        let origin = Shared.origin
        let tag = uniqueTag()
        let url = origin.url("/chapters.mp4", faults: Fault(status: status)) + "&" + tag
        let error = try #require(await httpError { () async throws(HTTPError) in
            try await Shared.client.fetch(HTTPRequest(url: url), retry: Self.quick)
        })
        #expect(error.code == .httpStatus && error.statusCode == status)
        #expect(error.attempts == attempts)
        #expect(try await origin.requests(atLeast: attempts) { $0.query.hasSuffix(tag) }.count == attempts)
    }

    @Test func succeedsWhenTheServerRecovers() async throws {
        let origin = try TestOrigin()
        try await origin.addRule(path: "/vod-ts/index.m3u8", times: 2, faults: Fault(status: 503))
        let response = try await Shared.client.fetch(HTTPRequest(url: origin.url("/vod-ts/index.m3u8")), retry: Self.quick)
        #expect(response.attempts == 3)
        #expect(response.body == (try sampleBytes("vod-ts/index.m3u8")))
        #expect(try await origin.requests(atLeast: 3) { _ in true }.map(\.status) == [503, 503, 200])
    }

    @Test func retriesATimeoutThenGivesUp() async throws {
        let origin = try TestOrigin()
        try await origin.addRule(path: "/vod-ts/*", faults: Fault(delay: 1))
        let request = HTTPRequest(url: origin.url("/vod-ts/index.m3u8"), limits: HTTPLimits(firstByteTimeout: .milliseconds(150)))
        let error = try #require(await httpError { () async throws(HTTPError) in
            try await Shared.client.fetch(request, retry: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(10)))
        })
        #expect(error.code == .firstByteTimeout)
        #expect(error.attempts == 2)
    }
}
