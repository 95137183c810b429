import Foundation
import Loader
import OriginSupport
import Testing

/// The on-disk cache, through the client against the real origin.
@Suite struct HTTPCacheTests {
    let origin = Shared.origin

    func makeClient(cache: HTTPCache) throws -> HTTPClient {
        try HTTPClient(configuration: .init(cache: cache))
    }

    @Test func aSecondFetchIsACacheHit() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(directory: folder, maximumBytes: 10 << 20)
        let client = try makeClient(cache: cache)
        let tag = uniqueTag()
        let request = HTTPRequest(url: origin.url("/chapters.mp4") + "?" + tag, isCacheable: true)

        let first = try await client.fetch(request)
        let second = try await client.fetch(request)
        #expect(!first.metrics.isCacheHit)
        #expect(second.metrics.isCacheHit)
        #expect(second.body == first.body)
        #expect(second.head.statusCode == 200)
        #expect(second.head["content-type"] == "video/mp4")
        #expect(second.metrics.wireBytes == 0 && second.metrics.bodyBytes == first.metrics.bodyBytes)
        #expect(try await origin.requests(atLeast: 1) { $0.query == tag }.count == 1)
        #expect(cache.count == 1 && cache.totalBytes == Int64(first.body.count))
        #expect(cache.checkInvariants())
    }

    @Test func streamsHitTheCacheToo() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(directory: folder, maximumBytes: 10 << 20)
        let client = try makeClient(cache: cache)
        let tag = uniqueTag()
        let request = HTTPRequest(url: origin.url("/vod-ts/segment1.ts") + "?" + tag, isCacheable: true)

        func download() async throws -> ([UInt8], HTTPTransferMetrics?) {
            var body: [UInt8] = []
            var metrics: HTTPTransferMetrics?
            for try await event in client.stream(request) {
                switch event {
                case .head: break
                case .bytes(let bytes): body += bytes
                case .end(let value): metrics = value
                }
            }
            return (body, metrics)
        }
        let (first, firstMetrics) = try await download()
        let (second, secondMetrics) = try await download()
        #expect(first == (try sampleBytes("vod-ts/segment1.ts")))
        #expect(second == first)
        #expect(firstMetrics?.isCacheHit == false)
        #expect(secondMetrics?.isCacheHit == true)
        #expect(try await origin.requests(atLeast: 1) { $0.query == tag }.count == 1)
    }

    @Test func keysByURLAndByteRangeAndSkipsUncacheableRequests() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(directory: folder, maximumBytes: 10 << 20)
        let client = try makeClient(cache: cache)
        let url = origin.url("/chapters.mp4") + "?" + uniqueTag()
        let whole = HTTPRequest(url: url, isCacheable: true)
        let part = HTTPRequest(url: url, byteRange: ByteRange(offset: 100, length: 50), isCacheable: true)

        _ = try await client.fetch(whole)
        #expect(cache.contains(whole) && !cache.contains(part))
        let range = try await client.fetch(part)
        #expect(!range.metrics.isCacheHit)
        #expect(range.body == Array(try sampleBytes("chapters.mp4")[100..<150]))
        let again = try await client.fetch(part)
        #expect(again.metrics.isCacheHit && again.body == range.body)
        #expect(again.head.statusCode == 206)

        let playlist = HTTPRequest(url: origin.url("/vod-ts/index.m3u8") + "?" + uniqueTag())
        _ = try await client.fetch(playlist)
        #expect(!cache.contains(playlist))
        let failed = HTTPRequest(url: origin.url("/missing.ts") + "?" + uniqueTag(), isCacheable: true)
        _ = await httpError { () async throws(HTTPError) in try await client.fetch(failed) }
        #expect(!cache.contains(failed))
        let truncated = HTTPRequest(url: origin.url("/chapters.mp4", faults: Fault(truncate: 100)), isCacheable: true)
        _ = await httpError { () async throws(HTTPError) in
            for try await _ in client.stream(truncated) {}
        }
        #expect(!cache.contains(truncated))
        #expect(cache.count == 2)
        #expect(cache.checkInvariants())
    }

    @Test func evictsTheLeastRecentlyUsedAndSurvivesAReopen() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sizes = try ["vod-ts/segment0.ts", "vod-ts/segment1.ts", "vod-ts/segment2.ts"].map { try sampleBytes($0).count }
        // Room for two of the three segments.
        let limit = Int64(sizes.sorted().suffix(2).reduce(0, +))
        let cache = try HTTPCache(directory: folder, maximumBytes: limit)
        let client = try makeClient(cache: cache)
        let tag = uniqueTag()
        let requests = (0..<3).map { HTTPRequest(url: origin.url("/vod-ts/segment\($0).ts") + "?" + tag, isCacheable: true) }

        _ = try await client.fetch(requests[0])
        _ = try await client.fetch(requests[1])
        // Using segment 0 again makes segment 1 the least recently used.
        #expect(try await client.fetch(requests[0]).metrics.isCacheHit)
        _ = try await client.fetch(requests[2])
        #expect(cache.contains(requests[0]) && !cache.contains(requests[1]) && cache.contains(requests[2]))
        #expect(cache.totalBytes <= limit)
        #expect(cache.checkInvariants())

        // A new cache on the same folder finds the entries and their order.
        let reopened = try HTTPCache(directory: folder, maximumBytes: limit)
        #expect(reopened.count == 2 && reopened.totalBytes == cache.totalBytes)
        #expect(reopened.contains(requests[0]) && reopened.contains(requests[2]))
        let path = try #require(reopened.cachedFile(for: requests[2]))
        #expect(Array(try Data(contentsOf: path)) == (try sampleBytes("vod-ts/segment2.ts")))

        // A smaller limit on reopening evicts down to it, oldest first.
        let smaller = try HTTPCache(directory: folder, maximumBytes: Int64(sizes[2]))
        #expect(smaller.count == 1 && smaller.contains(requests[2]))
        #expect(smaller.checkInvariants())
    }

    @Test func neverKeepsABodyLargerThanTheWholeCache() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(directory: folder, maximumBytes: 1000)
        let client = try makeClient(cache: cache)
        let request = HTTPRequest(url: origin.url("/chapters.mp4") + "?" + uniqueTag(), isCacheable: true)
        _ = try await client.fetch(request)
        #expect(!cache.contains(request))
        #expect(cache.count == 0)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
