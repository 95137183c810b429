import Foundation
import Loader
import MediaTime
import OriginSupport
import Testing

/// Collects a loader's reports until its stream ends, or records an issue after `timeout`.
func collectReports(
    _ reports: AsyncStream<LoaderReport>, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation
) async -> [LoaderReport] {
    let collector = Task {
        var collected: [LoaderReport] = []
        for await report in reports { collected.append(report) }
        return collected
    }
    let watchdog = Task {
        try await Task.sleep(for: timeout)
        collector.cancel()
    }
    let collected = await collector.value
    if collected.last?.isTerminal != true {
        Issue.record("the loader did not finish within \(timeout): \(collected.map(\.kind))", sourceLocation: sourceLocation)
    }
    watchdog.cancel()
    return collected
}

/// HLS VOD items loaded from the real origin serving `playlists/`.
@Suite struct HLSLoaderVODTests {
    static let fixedDate = Date(timeIntervalSince1970: 1_800_000_000)

    func loader(client: HTTPClient = Shared.client, configuration: HLSLoader.Configuration = HLSLoader.Configuration())
        -> HLSLoader {
        HLSLoader(client: client, configuration: configuration, now: { Self.fixedDate })
    }

    @Test(arguments: ["/vod-ts/index.m3u8", "/vod-fmp4/index.m3u8", "/multivariant/master.m3u8"])
    func loadsTheSampleExactlyAndFinishes(path: String) async throws {
        let url = Shared.origin.url(path) + "?" + uniqueTag()
        let reports = await collectReports(loader().load(url))
        #expect(reports.last == .loadingFinished)
        #expect(reports.first?.streamDescription?.duration == MediaTime(seconds: 12))
        #expect(reports.compactMap(\.seekableRanges) == [msRanges((0, 12_000))])
        let loaded = reports.compactMap(\.loadedRanges)
        #expect(loaded.last == msRanges((0, 12_000)))
        #expect(zip(loaded, loaded.dropFirst()).allSatisfy { $1.contains(TimeRange(start: $0.start ?? .zero, end: $0.end ?? .zero)) },
                "the loaded ranges only grow: \(loaded)")
        #expect(reports.compactMap(\.errorEntry).isEmpty)
        let entry = reports.compactMap(\.accessEntry).last
        #expect(entry?.segmentsDownloadedDuration == MediaTime(seconds: 12))
        #expect((entry?.numberOfBytesTransferred ?? 0) > 100_000)
    }

    @Test func aMissingSegmentLeavesAHoleAndAnErrorLogEntry() async throws {
        let origin = try TestOrigin()
        try await origin.addRule(path: "/vod-ts/segment3.ts", faults: Fault(status: 404))
        let reports = await collectReports(loader().load(origin.url("/vod-ts/index.m3u8")))
        #expect(reports.last == .loadingFinished)
        #expect(reports.compactMap(\.loadedRanges).last == msRanges((0, 6000), (8000, 12_000)))
        let errors = reports.compactMap(\.errorEntry)
        #expect(errors.count == 1)
        #expect(errors.first?.statusCode == 404 && errors.first?.uri == origin.url("/vod-ts/segment3.ts"))
        #expect(errors.first?.date == Self.fixedDate && errors.first?.domain == ErrorLogEntry.httpDomain)
        let requests = try await origin.requests(atLeast: 7) { $0.path.hasPrefix("/vod-ts/") }
        #expect(requests.filter { $0.path == "/vod-ts/segment3.ts" }.map(\.status) == [404], "a 404 is not retried")
    }

    @Test func throttlingShowsInTheObservedBitrateAndSwitchesDown() async throws {
        let origin = try TestOrigin()
        // 30 kB/s is 240 kbit/s: the high variant (286,512 bit/s) no longer fits. The audio
        // rendition, loaded alongside, is throttled too, so every request shows the same rate.
        try await origin.addRule(path: "/multivariant/video-high/*", faults: Fault(rate: 30_000))
        try await origin.addRule(path: "/multivariant/audio-en/*", faults: Fault(rate: 30_000))
        let reports = await collectReports(loader().load(origin.url("/multivariant/master.m3u8")))
        #expect(reports.last == .loadingFinished)
        let entries = reports.compactMap(\.accessEntry)
        var switches: [AccessLogEntry] = []
        for entry in entries where switches.last.map({ $0.uri != entry.uri }) ?? true { switches.append(entry) }
        let high = origin.url("/multivariant/video-high/index.m3u8")
        let low = origin.url("/multivariant/video-low/index.m3u8")
        #expect(switches.prefix(2).map(\.uri) == [high, low], "\(switches.map(\.uri))")
        #expect(switches.prefix(2).map(\.indicatedBitrate) == [286_512, 145_136])
        // The high variant's last counters, just before the switch.
        let throttled = entries.last { $0.uri == high && $0.numberOfMediaRequests > 0 }
        let observed = throttled?.observedBitrate ?? .infinity
        #expect(observed < 286_512 && observed > 100_000, "observed \(observed) bit/s")
        #expect(reports.compactMap(\.loadedRanges).last == msRanges((0, 12_000)))
    }

    @Test func theMapIsFetchedOnce() async throws {
        let origin = try TestOrigin()
        let reports = await collectReports(loader().load(origin.url("/vod-fmp4/index.m3u8")))
        #expect(reports.last == .loadingFinished)
        let requests = try await origin.requests(atLeast: 8) { $0.path.hasPrefix("/vod-fmp4/") }
        #expect(requests.filter { $0.path == "/vod-fmp4/init.mp4" }.count == 1)
        #expect(requests.filter { $0.path.hasSuffix(".m4s") }.count == 6)
    }

    @Test func theIFramePlaylistIsLoadedWithByteRanges() async throws {
        let origin = try TestOrigin()
        let text = try String(contentsOf: TestOrigin.playlists.appendingPathComponent("multivariant/iframes.m3u8"), encoding: .utf8)
        let playlist = mediaPlaylist(text, url: origin.url("/multivariant/iframes.m3u8"))
        let expected = playlist.segments.map { segment in
            "\(segment.url.dropFirst(origin.baseURL.count)) bytes=\(segment.byteRange.map { "\($0.offset)-\($0.end - 1)" } ?? "")"
        }
        let reports = await collectReports(loader().load(origin.url("/multivariant/iframes.m3u8")))
        #expect(reports.last == .loadingFinished)
        #expect(reports.compactMap(\.loadedRanges).last == TimeRangeSet([TimeRange(start: .zero, end: playlist.duration)]))
        let requests = try await origin.requests(atLeast: expected.count) { $0.path.hasPrefix("/multivariant/video-low/") }
        #expect(requests.map { "\($0.path) \($0.range ?? "")" }.sorted() == expected.sorted())
        #expect(requests.allSatisfy { $0.status == 206 })
    }

    @Test func loopingAVODItemHitsTheCache() async throws {
        let origin = try TestOrigin()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(directory: folder, maximumBytes: 10 << 20)
        let client = try HTTPClient(configuration: HTTPClient.Configuration(cache: cache))
        let url = origin.url("/vod-ts/index.m3u8")
        let first = await collectReports(loader(client: client).load(url))
        let second = await collectReports(loader(client: client).load(url))
        #expect(first.last == .loadingFinished && second.last == .loadingFinished)
        #expect(first.compactMap(\.accessEntry).last?.numberOfCacheHits == 0)
        let looped = second.compactMap(\.accessEntry).last
        #expect(looped?.numberOfCacheHits == 6 && looped?.numberOfBytesTransferred == 0)
        #expect(second.compactMap(\.loadedRanges).last == msRanges((0, 12_000)))
        // The playlist is fetched each time; the segments once.
        let requests = try await origin.requests(atLeast: 8) { $0.path.hasPrefix("/vod-ts/") }
        #expect(requests.filter { $0.path.hasSuffix(".ts") }.count == 6)
        #expect(requests.filter { $0.path.hasSuffix(".m3u8") }.count == 2)
    }

    @Test func aSeekLoadsFromTheNewPosition() async throws {
        let origin = try TestOrigin()
        let (directives, steer) = AsyncStream.makeStream(of: LoadingDirectives.self, bufferingPolicy: .bufferingNewest(1))
        // A 4-second forward buffer: from zero, two segments load, then the loader waits.
        let start = LoadingDirectives(preferredForwardBufferDuration: MediaTime(seconds: 4))
        let reports = loader().load(ItemLoadRequest(url: origin.url("/vod-ts/index.m3u8"), kind: .hls, directives: start),
                                    directives: directives)
        var collected: [LoaderReport] = []
        for await report in reports {
            collected.append(report)
            if report.loadedRanges == msRanges((0, 4000)) {
                var seek = start
                seek.playhead = MediaTime(seconds: 9)
                seek.loadFrom = LoadPosition(time: MediaTime(seconds: 9), serial: 1)
                steer.yield(seek)
            }
            if report.loadedRanges == msRanges((0, 4000), (8000, 12_000)) { break }
        }
        #expect(collected.compactMap(\.loadedRanges).last == msRanges((0, 4000), (8000, 12_000)))
        let requests = try await origin.requests(atLeast: 4) { $0.path.hasSuffix(".ts") }
        #expect(requests.map(\.path) == ["/vod-ts/segment0.ts", "/vod-ts/segment1.ts", "/vod-ts/segment4.ts", "/vod-ts/segment5.ts"])
    }
}
