import Foundation
import Loader
import MediaTime
import Testing

/// Variant choice, switches and renditions on a virtual clock.
@Suite struct HLSLoadingStateVariantTests {
    static let base = "http://origin.test/mv/"
    static let master = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",DEFAULT=YES,URI="en/index.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",URI="de/index.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="subs/index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=145136,AUDIO="aud",SUBTITLES="subs"
        low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=286512,AUDIO="aud",SUBTITLES="subs"
        high/index.m3u8
        """

    func harness(directives: LoadingDirectives = LoadingDirectives()) -> LoadingHarness {
        var harness = LoadingHarness(url: Self.base + "master.m3u8", directives: directives)
        harness.playlists[Self.base + "master.m3u8"] = Self.master
        for folder in ["low", "high", "en", "de", "subs"] {
            harness.playlists[Self.base + folder + "/index.m3u8"] = LivePlaylistText(count: 6, endList: true).text
        }
        harness.start()
        harness.servePlaylists()
        return harness
    }

    /// The folder of each media request, in order.
    func folders(_ harness: LoadingHarness) -> [String] {
        harness.mediaRequests.map { String($0.url.dropFirst(Self.base.count).prefix { $0 != "/" }) }
    }

    @Test func theFirstVariantFitsTheDefaultEstimateAndTheDefaultAudioComesWithIt() {
        var harness = harness()
        #expect(harness.state.variantIndex == 1)
        #expect(harness.playlistRequests.map(\.url) == ["master.m3u8", "high/index.m3u8", "en/index.m3u8"].map { Self.base + $0 })
        let description = harness.reports.compactMap(\.streamDescription).first
        #expect(description?.variants.map(\.bandwidth) == [145_136, 286_512])
        #expect(description?.renditionGroups.map(\.kind) == [.audio, .subtitles])
        harness.answerAllMedia(bytes: 10_000)
        // What plays is what video and audio both have.
        #expect(harness.lastLoaded == msRanges((0, 12_000)))
        #expect(Set(folders(harness)) == ["high", "en"])
        #expect(harness.reports.last == .loadingFinished)
    }

    @Test func aSlowSegmentSwitchesDownAndOpensANewAccessLogEntry() {
        var harness = harness()
        #expect(harness.nextMediaURL == Self.base + "high/segment0.ts")
        // 50 kB in 2 s: 200 kbit/s, below what the high variant needs.
        harness.answerMedia(bytes: 50_000, duration: .seconds(2))
        #expect(harness.state.variantIndex == 0)
        let entries = harness.reports.compactMap(\.accessEntry)
        #expect(entries.map(\.indicatedBitrate) == [286_512, 145_136])
        #expect(entries.first?.uri == Self.base + "high/index.m3u8" && entries.last?.uri == Self.base + "low/index.m3u8")
        #expect(entries.first.flatMap(\.observedBitrate).map { abs($0 - 200_000) < 1 } == true)
        #expect(harness.playlistRequests.last?.url == Self.base + "low/index.m3u8")
        harness.servePlaylists()
        harness.answerAllMedia(bytes: 10_000)
        // The low variant takes over where the high one stopped, on the same timeline.
        #expect(folders(harness).filter { $0 != "en" } == ["high", "low", "low", "low", "low", "low"])
        #expect(harness.mediaRequests.filter { $0.url.contains("/low/") }.first?.url == Self.base + "low/segment1.ts")
        #expect(harness.lastLoaded == msRanges((0, 12_000)))
    }

    @Test func thePeakBitRateCapsTheVariant() {
        var harness = harness()
        harness.receive(LoadingDirectives(preferredPeakBitRate: 200_000))
        #expect(harness.state.variantIndex == 0)
        #expect(harness.reports.compactMap(\.accessEntry).last?.indicatedBitrate == 145_136)
    }

    @Test func aNamedAudioRenditionIsLoadedAndCanChange() {
        var harness = harness(directives: LoadingDirectives(audio: .named("Deutsch")))
        #expect(harness.playlistRequests.map(\.url).contains(Self.base + "de/index.m3u8"))
        #expect(!harness.playlistRequests.map(\.url).contains(Self.base + "en/index.m3u8"))
        harness.answerMedia(bytes: 10_000)
        harness.answerMedia(bytes: 10_000)
        #expect(harness.lastLoaded == msRanges((0, 2000)))
        #expect(folders(harness).prefix(2) == ["high", "de"])
        _ = harness.takeReports()
        harness.receive(LoadingDirectives(audio: .named("English"), subtitles: .named("English")))
        #expect(Array(harness.playlistRequests.map(\.url).suffix(2)) == [Self.base + "en/index.m3u8", Self.base + "subs/index.m3u8"])
        // The new audio track starts empty: nothing plays until it loads.
        #expect(harness.reports.compactMap(\.loadedRanges).first == TimeRangeSet())
        harness.servePlaylists()
        harness.answerAllMedia(bytes: 10_000)
        #expect(harness.lastLoaded == msRanges((0, 12_000)))
        #expect(folders(harness).filter { $0 == "de" }.count <= 2, "the old rendition stopped loading")
        #expect(folders(harness).contains("en") && folders(harness).contains("subs"))
        #expect(harness.reports.last == .loadingFinished)
    }

    @Test func aVariantWhosePlaylistFailsGivesWayToAnother() {
        var harness = LoadingHarness(
            url: Self.base + "master.m3u8", configuration: HLSLoader.Configuration(playlistRetry: .never))
        harness.playlists[Self.base + "master.m3u8"] = Self.master
        for folder in ["low", "en"] {
            harness.playlists[Self.base + folder + "/index.m3u8"] = LivePlaylistText(count: 6, endList: true).text
        }
        harness.start()
        harness.servePlaylists()
        // high/index.m3u8 answered 404: the low variant takes over, and the item plays.
        #expect(harness.state.variantIndex == 0 && harness.state.phase == .running)
        #expect(harness.reports.compactMap(\.errorEntry).map(\.uri) == [Self.base + "high/index.m3u8"])
        #expect(harness.reports.compactMap(\.streamDescription).count == 1)
        harness.answerAllMedia(bytes: 10_000)
        #expect(harness.lastLoaded == msRanges((0, 12_000)))
        #expect(!harness.mediaRequests.contains { $0.url.contains("/high/") })
        // The first access-log entry is the working variant's.
        #expect(harness.reports.compactMap(\.accessEntry).first?.indicatedBitrate == 145_136)
    }

    @Test func theItemFailsWhenNoVariantIsLeft() {
        var harness = LoadingHarness(
            url: Self.base + "master.m3u8", configuration: HLSLoader.Configuration(playlistRetry: .never))
        harness.playlists[Self.base + "master.m3u8"] = Self.master
        harness.start()
        harness.servePlaylists()
        guard case .failed(let error) = harness.reports.last else {
            Issue.record("reports: \(harness.reports.map(\.kind))")
            return
        }
        #expect(error.httpError?.statusCode == 404 && error.uri == Self.base + "low/index.m3u8")
    }
}
