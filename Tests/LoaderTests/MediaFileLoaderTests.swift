import Foundation
import Loader
import MediaTime
import OriginSupport
import Testing

/// Loading plain media items, local and remote, against the real origin.
@Suite struct MediaFileLoaderTests {
    static let twelveSeconds = TimeRangeSet([TimeRange(start: .zero, end: MediaTime(seconds: 12))])
    static let fixedDate = Date(timeIntervalSince1970: 1_800_000_000)

    func makeLoader(client: HTTPClient = Shared.client, retry: RetryPolicy = .standard) -> MediaFileLoader {
        MediaFileLoader(
            client: client,
            configuration: .init(reportInterval: .milliseconds(100), retry: retry),
            now: { Self.fixedDate }
        )
    }

    func collect(_ reports: AsyncStream<LoaderReport>) async -> [LoaderReport] {
        var collected: [LoaderReport] = []
        for await report in reports { collected.append(report) }
        return collected
    }

    @Test func aLocalFileIsFullyLoadedOnceProbed() async throws {
        let path = TestOrigin.playlists.appendingPathComponent("chapters.mp4").path
        let reports = await collect(makeLoader().load(path))
        #expect(reports.count == 3)
        guard case .mediaProbed(let info) = reports.first else {
            Issue.record("first report: \(String(describing: reports.first))")
            return
        }
        #expect(info.title == "hlsq sample" && info.chapters.count == 3)
        #expect(reports.dropFirst().first == .loadedTimeRanges(Self.twelveSeconds))
        #expect(reports.last == .loadingFinished)
    }

    @Test func aBrokenLocalFileFailsTheItem() async throws {
        let path = TestOrigin.playlists.appendingPathComponent("mixed.m3u").path
        let reports = await collect(makeLoader().load(path))
        #expect(reports.count == 2)
        guard case .errorLog(let entry) = reports.first, case .failed(let error) = reports.last else {
            Issue.record("reports: \(reports)")
            return
        }
        #expect(entry.domain == ErrorLogEntry.probeDomain)
        #expect(entry.uri == path && entry.date == Self.fixedDate)
        #expect(entry.statusCode < 0)
        #expect(entry.comment.contains("invalid data"))
        #expect(error.code == .probeFailed && error.probeError?.code == .invalidData)
    }

    @Test func aMissingRemoteFileFailsTheItem() async throws {
        let url = Shared.origin.url("/missing.mp4")
        let reports = await collect(makeLoader().load(url))
        guard case .failed(let error) = reports.last else {
            Issue.record("reports: \(reports)")
            return
        }
        #expect(error.probeError?.code == .notFound)
        #expect(reports.contains { if case .errorLog(let entry) = $0 { entry.uri == url } else { false } })
        #expect(!reports.contains { if case .mediaProbed = $0 { true } else { false } })
    }

    @Test func aThrottledDownloadShowsAGrowingLoadedRange() async throws {
        let tag = uniqueTag()
        // 178,917 bytes at 120 kB/s: about 1.5 s, several progress reports.
        let rate = 120_000
        let url = Shared.origin.url("/chapters.mp4", faults: Fault(rate: rate)) + "&" + tag
        let reports = await collect(makeLoader().load(url))
        #expect(reports.last == .loadingFinished)

        let ranges = reports.compactMap { report -> TimeRangeSet? in
            if case .loadedTimeRanges(let ranges) = report { ranges } else { nil }
        }
        let ends = ranges.compactMap { $0.ranges.count == 1 && $0.start == .zero ? $0.end : nil }
        #expect(ends.count == ranges.count, "each report is one range from zero: \(ranges)")
        #expect(ends.count >= 4, "progress was reported while downloading: \(ends)")
        #expect(zip(ends, ends.dropFirst()).allSatisfy { $0 < $1 }, "the loaded range only grows: \(ends)")
        #expect(ends.last == MediaTime(seconds: 12))
        #expect(ends.dropLast().allSatisfy { $0 > .zero && $0 < MediaTime(seconds: 12) })

        let entries = reports.compactMap { report -> AccessLogEntry? in
            if case .accessLog(let entry) = report { entry } else { nil }
        }
        let final = try #require(entries.last)
        #expect(final.uri == url)
        #expect(final.numberOfMediaRequests == 1)
        #expect(final.numberOfBytesTransferred == 178_917)
        #expect(final.serverAddress != nil)
        #expect(final.indicatedBitrate == 119_278)
        // The throttle shows in the observed bit rate (the probe's own reads are not in it).
        let observed = try #require(final.observedBitrate)
        #expect(observed < Double(rate * 8) * 1.3 && observed > Double(rate * 8) * 0.5)
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.numberOfBytesTransferred <= $1.numberOfBytesTransferred })

        // libavformat probed with a ranged request; the download was one plain GET (which
        // the origin logs a moment after its last byte).
        let downloads = try await Shared.origin.requests(atLeast: 1) { $0.query.hasSuffix(tag) && $0.range == nil }
        #expect(downloads.count == 1)
    }

    @Test func aBrokenDownloadResumesWhereItStopped() async throws {
        let origin = try TestOrigin()
        // Only the download's first request lacks a Range header (libavformat sends one).
        try await origin.addRule(path: "/chapters.mp4", times: 1, ranged: false, faults: Fault(truncate: 50_000))
        let url = origin.url("/chapters.mp4")
        let quick = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(20))
        let reports = await collect(makeLoader(retry: quick).load(url))
        #expect(reports.last == .loadingFinished)
        #expect(reports.dropLast().last == .loadedTimeRanges(Self.twelveSeconds))

        let errors = reports.compactMap { report -> ErrorLogEntry? in
            if case .errorLog(let entry) = report { entry } else { nil }
        }
        #expect(errors.count == 1)
        #expect(errors.first?.domain == ErrorLogEntry.httpDomain)
        #expect(errors.first?.comment.hasPrefix("connection lost") == true)
        #expect(errors.first?.statusCode ?? 0 < 0)

        let downloads = try await origin.requests(atLeast: 2) { $0.range != "bytes=0-" }
        #expect(downloads.map(\.range) == [nil, "bytes=50000-"])
        #expect(downloads.map(\.bytesSent) == [50_000, 178_917 - 50_000])
        guard case .accessLog(let entry) = reports.dropLast(2).last else {
            Issue.record("the last access log comes before the final range: \(reports)")
            return
        }
        #expect(entry.numberOfMediaRequests == 2)
        #expect(entry.numberOfBytesTransferred == 178_917)
    }

    @Test func aDownloadThatKeepsFailingStopsWithWhatItHas() async throws {
        let origin = try TestOrigin()
        // libavformat's probe (one ranged request) gets the file; the download's first
        // request is cut after 60,000 bytes, and every resume gets 503.
        try await origin.addRule(path: "/chapters.mp4", times: 1, ranged: true, faults: Fault())
        try await origin.addRule(path: "/chapters.mp4", ranged: false, faults: Fault(truncate: 60_000))
        try await origin.addRule(path: "/chapters.mp4", ranged: true, faults: Fault(status: 503))
        let quick = RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(20))
        let reports = await collect(makeLoader(retry: quick).load(origin.url("/chapters.mp4")))
        guard case .loadingStopped(let error) = reports.last else {
            Issue.record("reports: \(reports)")
            return
        }
        #expect(error.code == .downloadFailed)
        #expect(error.httpError?.code == .httpStatus && error.httpError?.statusCode == 503)
        #expect(error.httpError?.attempts == 2)
        let errors = reports.compactMap { report -> ErrorLogEntry? in
            if case .errorLog(let entry) = report { entry } else { nil }
        }
        #expect(errors.map(\.statusCode).last == 503)
        #expect(errors.count == 2)
        // The loaded range stays at what the first 60,000 bytes map to (if it was reported).
        let ranges = reports.compactMap { report -> TimeRangeSet? in
            if case .loadedTimeRanges(let ranges) = report { ranges } else { nil }
        }
        let limit = MediaFileLoader.loadedTimeRanges(duration: MediaTime(seconds: 12), bytesReceived: 60_000, contentLength: 178_917)
        #expect(ranges.allSatisfy { limit.contains($0.ranges.first ?? TimeRange(start: .zero, end: .zero)) })
    }

    @Test func loadingAgainFromTheCacheMakesNoRequest() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try HTTPClient(configuration: .init(cache: HTTPCache(directory: folder, maximumBytes: 10 << 20)))
        let tag = uniqueTag()
        let url = Shared.origin.url("/chapters.mp4") + "?" + tag
        let loader = makeLoader(client: client)

        let first = await collect(loader.load(url))
        #expect(first.last == .loadingFinished)
        // The probe's request and the download's.
        let requestsAfterFirst = try await Shared.origin.requests(atLeast: 2) { $0.query == tag }.count

        let second = await collect(loader.load(url))
        #expect(second.last == .loadingFinished)
        #expect(second.contains(.loadedTimeRanges(Self.twelveSeconds)))
        guard case .mediaProbed(let info) = second.first else {
            Issue.record("reports: \(second)")
            return
        }
        #expect(info.location == url && info.title == "hlsq sample")
        let entry = second.compactMap { report -> AccessLogEntry? in
            if case .accessLog(let entry) = report { entry } else { nil }
        }.last
        #expect(entry?.numberOfCacheHits == 1)
        #expect(entry?.numberOfBytesFromCache == 178_917)
        #expect(entry?.numberOfBytesTransferred == 0)
        // Give a request the second load might have made time to be logged.
        try await Task.sleep(for: .milliseconds(200))
        #expect(try await Shared.origin.requests().filter { $0.query == tag }.count == requestsAfterFirst)
    }

    @Test func stoppingTheIterationCancelsTheDownload() async throws {
        let origin = try TestOrigin()
        // The download (the request without a Range header) crawls: 9 s for the whole file.
        try await origin.addRule(path: "/chapters.mp4", ranged: false, faults: Fault(rate: 20_000))
        var seen: [LoaderReport] = []
        for await report in makeLoader().load(origin.url("/chapters.mp4")) {
            seen.append(report)
            if case .loadedTimeRanges = report { break }
        }
        #expect(!seen.contains { $0.isTerminal })
        // The origin notices the client leaving at its next write and logs what it sent.
        let download = try await origin.requests(atLeast: 1) { $0.range == nil }
        #expect(download.count == 1)
        #expect(download.allSatisfy { $0.bytesSent < 178_917 })
    }

    struct MappingCase: Sendable {
        var duration: MediaTime
        var received: Int64
        var total: Int64
        var end: MediaTime?
    }

    @Test(arguments: [
        MappingCase(duration: MediaTime(seconds: 12), received: 0, total: 100, end: nil),
        MappingCase(duration: MediaTime(seconds: 12), received: 25, total: 100, end: MediaTime(seconds: 3)),
        MappingCase(duration: MediaTime(seconds: 12), received: 100, total: 100, end: MediaTime(seconds: 12)),
        MappingCase(duration: MediaTime(seconds: 12), received: 150, total: 100, end: MediaTime(seconds: 12)),
        MappingCase(duration: MediaTime(value: 12_000_000, timescale: 1_000_000), received: 1, total: 3, end: MediaTime(seconds: 4)),
        // Ten hours in microseconds times 40 GB overflows 64 bits; the result must not.
        MappingCase(duration: MediaTime(value: 36_000_000_000, timescale: 1_000_000), received: 20_000_000_000,
                    total: 40_000_000_000, end: MediaTime(seconds: 18_000)),
        MappingCase(duration: .indefinite, received: 10, total: 100, end: nil),
        MappingCase(duration: MediaTime(seconds: 12), received: 10, total: 0, end: nil),
    ])
    func mapsBytesToTimeProportionally(_ mapping: MappingCase) {
        let ranges = MediaFileLoader.loadedTimeRanges(duration: mapping.duration, bytesReceived: mapping.received, contentLength: mapping.total)
        #expect(ranges.end == mapping.end)
        #expect(ranges.start == (mapping.end == nil ? nil : .zero))
        #expect(ranges.checkInvariants())
    }
}
