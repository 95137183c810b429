import Foundation
import Loader
import OriginSupport
import Testing

/// The libcurl client against the real test origin.
@Suite struct HTTPClientTests {
    let origin = Shared.origin
    let client = Shared.client

    @Test func reportsStatusBytesTimingsAndServer() async throws {
        let tag = uniqueTag()
        let url = origin.url("/chapters.mp4") + "?" + tag
        let response = try await client.fetch(HTTPRequest(url: url))
        let expected = try sampleBytes("chapters.mp4")

        #expect(response.head.statusCode == 200)
        #expect(response.head["content-type"] == "video/mp4")
        #expect(response.head.expectedBodyBytes == Int64(expected.count))
        #expect(response.head.completeLength == Int64(expected.count))
        #expect(response.body == expected)
        #expect(response.attempts == 1)
        let metrics = response.metrics
        #expect(metrics.statusCode == 200)
        #expect(metrics.bodyBytes == Int64(expected.count))
        #expect(metrics.wireBytes == Int64(expected.count))
        #expect(metrics.url == url && metrics.effectiveURL == url)
        #expect(metrics.serverAddress == origin.baseURL.replacingOccurrences(of: "http://", with: ""))
        #expect(metrics.redirectCount == 0)
        #expect(!metrics.isCacheHit)
        let firstByte = try #require(metrics.timeToFirstByte)
        #expect(firstByte > .zero && firstByte <= metrics.totalTime)
        #expect((metrics.observedBitrate ?? 0) > 0)

        let logged = try await origin.requests(atLeast: 1) { $0.query == tag }
        #expect(logged.count == 1)
        #expect(logged.first?.userAgent == "hlsq/\(HLSQVersion.current)")
    }

    @Test func timeToFirstByteIncludesTheServersDelay() async throws {
        let response = try await client.fetch(HTTPRequest(url: origin.url("/vod-ts/index.m3u8", faults: Fault(delay: 0.3))))
        #expect(response.head.statusCode == 200)
        #expect(try #require(response.metrics.timeToFirstByte) >= .milliseconds(300))
    }

    /// One case per kind of failure, each provoked for real.
    struct FailureCase: Sendable, CustomTestStringConvertible {
        var name: String
        var url: @Sendable (TestOrigin) -> String
        var limits = HTTPLimits()
        var code: HTTPError.Code
        var statusCode: Int? = nil
        var testDescription: String { name }
    }

    static let failures: [FailureCase] = [
        FailureCase(name: "DNS", url: { _ in "http://nothing.invalid/index.m3u8" }, code: .dnsFailure),
        // Nothing listens on port 1 of the loopback interface.
        FailureCase(name: "connect refused", url: { _ in "http://127.0.0.1:1/index.m3u8" }, code: .connectionFailed),
        FailureCase(
            name: "TLS to a plain HTTP server",
            url: { $0.url("/vod-ts/index.m3u8").replacingOccurrences(of: "http://", with: "https://") },
            code: .tlsFailure
        ),
        FailureCase(
            name: "first-byte timeout", url: { $0.url("/vod-ts/index.m3u8", faults: Fault(delay: 2)) },
            limits: HTTPLimits(firstByteTimeout: .milliseconds(300)), code: .firstByteTimeout
        ),
        FailureCase(
            name: "stall timeout", url: { $0.url("/chapters.mp4", faults: Fault(stallAfter: 1000, stallFor: 5)) },
            limits: HTTPLimits(stallTimeout: .milliseconds(300)), code: .stallTimeout
        ),
        FailureCase(
            name: "total timeout", url: { $0.url("/chapters.mp4", faults: Fault(rate: 50_000)) },
            limits: HTTPLimits(totalTimeout: .milliseconds(400)), code: .totalTimeout
        ),
        FailureCase(name: "404", url: { $0.url("/missing.ts") }, code: .httpStatus, statusCode: 404),
        FailureCase(name: "injected 500", url: { $0.url("/chapters.mp4", faults: Fault(status: 500)) }, code: .httpStatus, statusCode: 500),
        FailureCase(
            name: "too large by Content-Length", url: { $0.url("/chapters.mp4") },
            limits: HTTPLimits(maximumBodyBytes: 1000), code: .tooLarge
        ),
        FailureCase(
            name: "truncated body", url: { $0.url("/chapters.mp4", faults: Fault(truncate: 5000)) },
            code: .connectionLost
        ),
        FailureCase(
            name: "too many redirects", url: { $0.url("/vod-ts/index.m3u8", faults: Fault(redirect: 3)) },
            limits: HTTPLimits(maximumRedirects: 2), code: .tooManyRedirects
        ),
        FailureCase(
            name: "redirect to a file URL",
            url: { $0.url("/vod-ts/index.m3u8", faults: Fault(redirectTo: "file:///etc/hostname")) },
            code: .invalidURL
        ),
        FailureCase(name: "missing file", url: { _ in "file:///nonexistent/hlsq/chapters.mp4" }, code: .fileUnreadable),
        FailureCase(name: "unsupported scheme", url: { _ in "ftp://127.0.0.1/file" }, code: .invalidURL),
    ]

    @Test(arguments: failures)
    func reportsEachFailureWithItsCode(_ failure: FailureCase) async throws {
        let request = HTTPRequest(url: failure.url(origin), limits: failure.limits)
        let error = try #require(await httpError { () async throws(HTTPError) in try await client.fetch(request) })
        #expect(error.code == failure.code, "\(error)")
        #expect(error.statusCode == failure.statusCode || failure.statusCode == nil)
        #expect(error.url == request.url)
        #expect(error.attempts == 1)
        #expect(!error.message.isEmpty)
    }

    @Test func bodiesDecodedAfterGzipStillCountAgainstTheLimit() async throws {
        let plain = try sampleBytes("multivariant/master.m3u8")
        let tag = uniqueTag()
        let url = origin.url("/multivariant/master.m3u8") + "?" + tag
        let whole = try await client.fetch(HTTPRequest(url: url))
        let compressed = try #require(try await origin.requests(atLeast: 1) { $0.query == tag }.first?.bytesSent)
        #expect(compressed < plain.count)
        #expect(whole.body == plain)

        // Between the compressed and the decoded size: only the decoded count can exceed it.
        let limit = Int64(compressed + (plain.count - compressed) / 2)
        let error = try #require(await httpError { () async throws(HTTPError) in
            try await client.fetch(HTTPRequest(url: url, limits: HTTPLimits(maximumBodyBytes: limit)))
        })
        #expect(error.code == .tooLarge)
    }

    @Test func acceptsGzipAndDecodes() async throws {
        let tag = uniqueTag()
        let response = try await client.fetch(HTTPRequest(url: origin.url("/vod-ts/index.m3u8") + "?" + tag))
        #expect(response.body == (try sampleBytes("vod-ts/index.m3u8")))
        #expect(response.head["Content-Encoding"] == "gzip")
        #expect(response.head.expectedBodyBytes == nil)
        #expect(response.metrics.wireBytes < response.metrics.bodyBytes)
        let logged = try #require(try await origin.requests(atLeast: 1) { $0.query == tag }.first)
        #expect(logged.acceptEncoding?.contains("gzip") == true)
        #expect(logged.contentEncoding == "gzip")
    }

    @Test func followsRedirectsWithinTheLimit() async throws {
        let url = origin.url("/vod-ts/index.m3u8", faults: Fault(redirect: 2))
        let response = try await client.fetch(HTTPRequest(url: url, limits: HTTPLimits(maximumRedirects: 2)))
        #expect(response.metrics.redirectCount == 2)
        #expect(response.metrics.effectiveURL == origin.url("/vod-ts/index.m3u8", faults: Fault(redirect: 0)))
        #expect(response.body == (try sampleBytes("vod-ts/index.m3u8")))
    }

    struct RangeCase: Sendable, CustomTestStringConvertible {
        var name: String
        var offset: Int64
        var length: Int64?
        var ignoredByServer: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        RangeCase(name: "closed", offset: 1000, length: 188, ignoredByServer: false),
        RangeCase(name: "open-ended", offset: 178_000, length: nil, ignoredByServer: false),
        RangeCase(name: "closed, server ignores ranges", offset: 1000, length: 188, ignoredByServer: true),
        RangeCase(name: "open-ended, server ignores ranges", offset: 178_000, length: nil, ignoredByServer: true),
    ])
    func fetchesByteRanges(_ range: RangeCase) async throws {
        let file = try sampleBytes("chapters.mp4")
        let byteRange = try #require(ByteRange(offset: range.offset, length: range.length))
        let url = origin.url("/chapters.mp4", faults: Fault(ignoreRange: range.ignoredByServer))
        let response = try await client.fetch(HTTPRequest(url: url, byteRange: byteRange))
        let end = range.length.map { Int(range.offset + $0) } ?? file.count
        #expect(response.body == Array(file[Int(range.offset)..<end]))
        #expect(response.head.statusCode == (range.ignoredByServer ? 200 : 206))
        #expect(response.head.completeLength == Int64(file.count))
        #expect(response.head.expectedBodyBytes == Int64(end) - range.offset)
        #expect(response.metrics.bodyBytes == Int64(end) - range.offset)
    }

    @Test func readsFileURLsWholeAndByRange() async throws {
        let path = TestOrigin.playlists.appendingPathComponent("chapters.mp4").path
        let file = try sampleBytes("chapters.mp4")
        let whole = try await client.fetch(HTTPRequest(url: "file://" + path))
        #expect(whole.body == file)
        #expect(whole.head.statusCode == nil && whole.metrics.statusCode == nil)
        #expect(whole.metrics.serverAddress == nil)
        let part = try await client.fetch(HTTPRequest(url: "file://" + path, byteRange: ByteRange(offset: 10, length: 20)))
        #expect(part.body == Array(file[10..<30]))
    }

    @Test func streamsTheBodyAsItArrives() async throws {
        let file = try sampleBytes("chapters.mp4")
        var events: [String] = []
        var received: [UInt8] = []
        var head: HTTPResponseHead?
        var metrics: HTTPTransferMetrics?
        for try await event in client.stream(HTTPRequest(url: origin.url("/chapters.mp4", faults: Fault(rate: 1_000_000)))) {
            switch event {
            case .head(let value):
                events.append("head")
                head = value
            case .bytes(let bytes):
                if events.last != "bytes" { events.append("bytes") }
                received += bytes
            case .end(let value):
                events.append("end")
                metrics = value
            }
        }
        #expect(events == ["head", "bytes", "end"])
        #expect(head?.expectedBodyBytes == Int64(file.count))
        #expect(received == file)
        #expect(metrics?.bodyBytes == Int64(file.count))
    }

    @Test func streamFailuresAreThrown() async throws {
        var received = 0
        let error = try #require(await httpError { () async throws(HTTPError) in
            for try await event in client.stream(HTTPRequest(url: origin.url("/chapters.mp4", faults: Fault(truncate: 3000)))) {
                if case .bytes(let bytes) = event { received += bytes.count }
            }
        })
        #expect(error.code == .connectionLost)
        #expect(received == 3000)
    }

    @Test func cancellingTheTaskCancelsAStalledStream() async throws {
        let tag = uniqueTag()
        let url = origin.url("/chapters.mp4", faults: Fault(stallAfter: 20_000, stallFor: 30)) + "&" + tag
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let client = client
        let download = Task { () async -> (HTTPError?, Int) in
            var received = 0
            do throws(HTTPError) {
                for try await event in client.stream(HTTPRequest(url: url)) {
                    if case .bytes(let bytes) = event {
                        received += bytes.count
                        if received == 20_000 { startedContinuation.yield() }
                    }
                }
                return (nil, received)
            } catch {
                return (error, received)
            }
        }
        for await _ in started { break }
        let cancelledAt = ContinuousClock.now
        download.cancel()
        let (error, received) = await download.value
        #expect(error?.code == .cancelled)
        #expect(received == 20_000)
        #expect(ContinuousClock.now - cancelledAt < .seconds(5))
        // The origin saw the client leave (it logs the request once the stall ends).
        try await waitUntil { try await origin.requests().contains { $0.query.hasSuffix(tag) } }
    }

    @Test func cancellingTheTaskCancelsAFetch() async throws {
        let client = client
        let url = origin.url("/vod-ts/index.m3u8", faults: Fault(delay: 10))
        let fetch = Task { () async -> HTTPError? in
            do throws(HTTPError) {
                _ = try await client.fetch(HTTPRequest(url: url))
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let cancelledAt = ContinuousClock.now
        fetch.cancel()
        let error = await fetch.value
        #expect(error?.code == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .seconds(5))
    }

    @Test func anAlreadyCancelledTaskDoesNotStartATransfer() async throws {
        let tag = uniqueTag()
        let client = client
        let url = origin.url("/vod-ts/index.m3u8") + "?" + tag
        let fetch = Task { () async -> HTTPError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(HTTPError) {
                _ = try await client.fetch(HTTPRequest(url: url))
                return nil
            } catch {
                return error
            }
        }
        #expect(await fetch.value?.code == .cancelled)
        try await Task.sleep(for: .milliseconds(200))
        #expect(try await origin.requests().contains { $0.query == tag } == false)
    }

    /// Stalled streams only make progress together if the loop runs them at once.
    @Test func runsSeveralTransfersAtOnce() async throws {
        let count = 6
        let outcome = await withTaskGroup(of: Void.self) { group in
            let (progress, progressContinuation) = AsyncStream<Int>.makeStream()
            for index in 0..<count {
                let url = origin.url("/chapters.mp4", faults: Fault(stallAfter: 1000 + index, stallFor: 20))
                group.addTask { [client] in
                    var received = 0
                    // Ends with an error: cancelled below, or timed out if never run.
                    _ = await httpError { () async throws(HTTPError) in
                        for try await event in client.stream(HTTPRequest(url: url, limits: HTTPLimits(stallTimeout: .seconds(10)))) {
                            if case .bytes(let bytes) = event {
                                received += bytes.count
                                if received == 1000 + index { progressContinuation.yield(index) }
                            }
                        }
                    }
                }
            }
            var stalled = Set<Int>()
            for await index in progress {
                stalled.insert(index)
                if stalled.count == count { break }
            }
            group.cancelAll()
            return stalled
        }
        #expect(outcome == Set(0..<count))
    }

    @Test func manyTransfersShareOneLoop() async throws {
        let segments = try (0..<6).map { try sampleBytes("vod-ts/segment\($0).ts") }
        let client = client
        let bodies = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for index in 0..<120 {
                let url = origin.url("/vod-ts/segment\(index % 6).ts")
                group.addTask { (index, try await client.fetch(HTTPRequest(url: url)).body) }
            }
            var bodies: [Int: [UInt8]] = [:]
            for try await (index, body) in group { bodies[index] = body }
            return bodies
        }
        #expect(bodies.count == 120)
        #expect(bodies.allSatisfy { $0.value == segments[$0.key % 6] })
    }

    @Test func queuesTransfersBeyondTheConcurrencyLimit() async throws {
        let client = try HTTPClient(configuration: .init(maximumConcurrentTransfers: 2))
        let stalled = origin.url("/chapters.mp4", faults: Fault(stallAfter: 500, stallFor: 20))
        let first = Task { try await client.fetch(HTTPRequest(url: stalled)) }
        let second = Task { try await client.fetch(HTTPRequest(url: stalled)) }
        try await Task.sleep(for: .milliseconds(300))
        // Both slots are taken by stalled transfers: the third waits until one is cancelled,
        // and its first-byte timeout only starts then.
        let tag = uniqueTag()
        let third = Task {
            try await client.fetch(HTTPRequest(
                url: origin.url("/vod-ts/index.m3u8") + "?" + tag,
                limits: HTTPLimits(firstByteTimeout: .milliseconds(700))
            ))
        }
        try await Task.sleep(for: .seconds(1))
        #expect(try await origin.requests().contains { $0.query == tag } == false, "the third transfer waited")
        first.cancel()
        let response = try await third.value
        #expect(response.head.statusCode == 200)
        second.cancel()
        #expect((try? await first.value) == nil)
        #expect((try? await second.value) == nil)
    }

    @Test func pausesForASlowConsumerWithoutLosingBytes() async throws {
        // Much larger than the stream's buffer (4 MiB) and the sockets' buffers, so that the
        // transfer has to pause and the server has to wait.
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        var generator = SystemRandomNumberGenerator()
        var block = Data(count: 1 << 20)
        block.withUnsafeMutableBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 8) {
                bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
            }
        }
        var content = Data()
        for index in 0..<32 {
            block[0] = UInt8(index)
            content.append(block)
        }
        try content.write(to: root.appendingPathComponent("big.mp4"))
        let origin = try TestOrigin(root: root)

        // The consumer sleeps longer than the stall timeout: a paused transfer must not
        // count as stalled.
        let limits = HTTPLimits(stallTimeout: .milliseconds(500))
        var received = Data(capacity: content.count)
        var slept = false
        for try await event in client.stream(HTTPRequest(url: origin.url("/big.mp4"), limits: limits)) {
            if case .bytes(let bytes) = event {
                received.append(contentsOf: bytes)
                if received.count > 1 << 20, !slept {
                    slept = true
                    try await Task.sleep(for: .seconds(1))
                    // The origin logs a request once it has sent the whole body: it is still
                    // waiting for the paused client.
                    #expect(try await origin.requests().isEmpty)
                }
            }
        }
        #expect(received.count == content.count)
        #expect(received == content)
    }
}

/// Polls `condition` every 50 ms for up to 5 s; records an issue if it never holds.
func waitUntil(
    _ condition: () async throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("the condition did not hold within 5 s", sourceLocation: sourceLocation)
}
