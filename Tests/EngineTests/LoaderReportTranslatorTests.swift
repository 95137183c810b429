@testable import Engine
import Foundation
import Loader
import MediaTime
import QueueCore
import Testing

@Suite struct LoaderReportTranslatorTests {
    func seconds(_ value: Int64) -> MediaTime { MediaTime(seconds: value) }

    @Test func aProbedFileIsReadySeekableAndHasItsChapters() {
        var translator = LoaderReportTranslator(kind: .mediaFile)
        let info = MediaInfo(
            location: "/m.mp4", formatName: "mp4", formatDescription: nil, duration: seconds(12), bitRate: 100_000,
            metadata: [:], streams: [],
            chapters: [MediaChapter(start: .zero, end: seconds(4), title: "One"), MediaChapter(start: seconds(4), end: seconds(12), title: nil)])
        let translation = translator.translate(.mediaProbed(info))
        #expect(translation.reports == [
            .readyToPlay(duration: seconds(12), kind: .mediaFile),
            .seekableTimeRanges(TimeRangeSet([TimeRange(start: .zero, end: seconds(12))])),
            .mediaInformation(MediaInformation(chapters: [
                Chapter(title: "One", timeRange: TimeRange(start: .zero, end: seconds(4))),
                Chapter(title: "", timeRange: TimeRange(start: seconds(4), end: seconds(12))),
            ])),
        ])
    }

    @Test func aLiveWindowThatPassedThePlayheadAsksForARejoin() {
        var translator = LoaderReportTranslator(kind: .hls)
        let translation = translator.translate(.fellBehindLiveWindow(rejoinAt: seconds(42)))
        #expect(translation.reports.isEmpty)
        #expect(translation.sideEffects == [.rejoinLiveEdge(seconds(42))])
    }

    @Test func cumulativeAccessLogEntriesBecomeRequestsAndProgress() {
        var translator = LoaderReportTranslator(kind: .mediaFile)
        var entry = Loader.AccessLogEntry(uri: "http://o/m.mp4")
        entry.numberOfMediaRequests = 1
        entry.numberOfBytesTransferred = 1000
        entry.transferDuration = .milliseconds(100)
        #expect(translator.translate(.accessLog(entry)).reports == [
            .mediaRequest(bytes: 1000, transferDuration: MediaTime(value: 100_000_000, timescale: 1_000_000_000), mediaDuration: .zero),
            .downloadBitrate(80_000),
        ])
        // The same request moved more bytes: progress, no new request.
        entry.numberOfBytesTransferred = 5000
        entry.transferDuration = .milliseconds(500)
        #expect(translator.translate(.accessLog(entry)).reports == [
            .transferProgress(bytes: 4000, transferDuration: MediaTime(value: 400_000_000, timescale: 1_000_000_000)),
            .downloadBitrate(80_000),
        ])
        // Two more requests, one a cache hit.
        entry.numberOfMediaRequests = 3
        entry.numberOfCacheHits = 1
        let translation = translator.translate(.accessLog(entry))
        #expect(translation.reports.filter { if case .mediaRequest = $0 { true } else { false } }.count == 2)
        #expect(translation.sideEffects == [.cacheHits(1)])
    }

    @Test func anHLSEntryWithAnotherBitrateIsAVariantSwitch() {
        var translator = LoaderReportTranslator(kind: .hls)
        var low = Loader.AccessLogEntry(uri: "http://o/low.m3u8", indicatedBitrate: 200_000)
        low.numberOfMediaRequests = 2
        let first = translator.translate(.accessLog(low))
        #expect(first.reports.first == .variantSwitched(indicatedBitrate: 200_000, uri: "http://o/low.m3u8"))
        #expect(first.sideEffects == [.variantURI("http://o/low.m3u8")])
        var high = Loader.AccessLogEntry(uri: "http://o/high.m3u8", indicatedBitrate: 800_000)
        high.numberOfMediaRequests = 1
        let second = translator.translate(.accessLog(high))
        #expect(second.reports.first == .variantSwitched(indicatedBitrate: 800_000, uri: "http://o/high.m3u8"))
        #expect(second.reports.contains(.mediaRequest(bytes: 0, transferDuration: .zero, mediaDuration: .zero)),
                "a new entry counts from zero")
    }

    @Test func theFirstStreamDescriptionMakesTheItemReadyAndLaterOnesUpdateIt() {
        var translator = LoaderReportTranslator(kind: .hls)
        let description = StreamDescription(
            duration: .indefinite,
            variants: [StreamVariant(uri: "v.m3u8", bandwidth: 500_000, width: 320, height: 180)],
            renditionGroups: [RenditionGroup(kind: .audio, renditions: [Rendition(name: "English", language: "en", isDefault: true)])])
        let first = translator.translate(.streamDescribed(description))
        #expect(first.reports.first == .readyToPlay(duration: .indefinite, kind: .hls))
        guard case .mediaInformation(let information) = first.reports.last else {
            Issue.record("media information expected: \(first.reports)")
            return
        }
        #expect(information.variants.first?.resolution == Resolution(width: 320, height: 180))
        #expect(information.group(for: .audible)?.defaultOption?.name == "English")
        let second = translator.translate(.streamDescribed(description))
        #expect(second.reports.first == .durationChanged(.indefinite))
    }

    @Test func terminalReportsEndTheSessionAndAFailureFailsTheItem() {
        var translator = LoaderReportTranslator(kind: .mediaFile)
        let error = LoadError(HTTPError(.httpStatus, url: "http://o/x.mp4", message: "not found", statusCode: 404))
        let failed = translator.translate(.failed(error))
        #expect(failed.reports == [.failed(ItemFailure(domain: "hlsq.http", code: 404, message: error.message))])
        #expect(failed.sideEffects == [.finished])
        #expect(translator.translate(.loadingFinished).sideEffects == [.finished])
    }
}
