import Foundation
import MediaTime
import Playlist
import Testing

/// The examples of RFC 8216bis §8, as fixtures under `Fixtures/rfc8216bis`. Each must pass
/// strict validation and give the model its text describes.
@Suite struct RFCExampleTests {
    private func parse(_ name: String, baseURL: String = "https://example.com/path/playlist.m3u8") throws -> Playlist {
        try Playlist.parseStrictly(bytes: try fixtureBytes("rfc8216bis/\(name)"), options: ParseOptions(baseURL: baseURL))
    }

    @Test func simpleMediaPlaylist() throws {
        let playlist = try #require(try parse("8.1-simple-media.m3u8").media)
        #expect(playlist.version == 3)
        #expect(playlist.targetDuration == 10)
        #expect(playlist.hasEndList)
        #expect(playlist.segments.map(\.url) == ["http://media.example.com/first.ts", "http://media.example.com/second.ts",
                                                 "http://media.example.com/third.ts"])
        #expect(playlist.segments.map(\.duration) == [time("9.009"), time("9.009"), time("3.003")])
        #expect(playlist.duration == time("21.021"))
    }

    @Test func liveMediaPlaylistOverHTTPS() throws {
        let playlist = try #require(try parse("8.2-live-https.m3u8").media)
        #expect(!playlist.hasEndList)
        #expect(playlist.mediaSequence == 2680)
        #expect(playlist.segments.map(\.mediaSequenceNumber) == [2680, 2681, 2682])
        #expect(playlist.segments[1].url == "https://priv.example.com/fileSequence2681.ts")
        #expect(playlist.segments[2].startTime == time("15.916"))
    }

    @Test func encryptedSegments() throws {
        let playlist = try #require(try parse("8.3-encrypted.m3u8").media)
        #expect(playlist.mediaSequence == 7794)
        #expect(playlist.targetDuration == 15)
        #expect(playlist.segments.map { $0.keys.first?.url } == [
            "https://priv.example.com/key.php?r=52", "https://priv.example.com/key.php?r=52",
            "https://priv.example.com/key.php?r=52", "https://priv.example.com/key.php?r=53",
        ])
        #expect(playlist.segments.allSatisfy { $0.keys.first?.method == .aes128 })
        #expect(playlist.segments[1].duration == MediaTime(seconds: 15))
    }

    @Test func multivariantPlaylist() throws {
        let playlist = try #require(try parse("8.4-multivariant.m3u8").multivariant)
        #expect(playlist.variants.map(\.stream.bandwidth) == [1_280_000, 2_560_000, 7_680_000, 65000])
        #expect(playlist.variants.map(\.stream.averageBandwidth) == [1_000_000, 2_000_000, 6_000_000, nil])
        #expect(playlist.variants[3].stream.codecs == ["mp4a.40.5"])
        #expect(playlist.variants[0].url == "http://example.com/low.m3u8")
    }

    @Test func multivariantPlaylistWithIFrames() throws {
        let playlist = try #require(try parse("8.5-multivariant-iframes.m3u8").multivariant)
        #expect(playlist.variants.map(\.uri) == ["low/audio-video.m3u8", "mid/audio-video.m3u8", "hi/audio-video.m3u8", "audio-only.m3u8"])
        #expect(playlist.iFrameVariants.map(\.stream.bandwidth) == [86000, 150_000, 550_000])
        #expect(playlist.iFrameVariants[1].url == "https://example.com/path/mid/iframe.m3u8")
    }

    @Test func alternativeAudio() throws {
        let playlist = try #require(try parse("8.6-alternative-audio.m3u8").multivariant)
        #expect(playlist.renditions.map(\.name) == ["English", "Deutsch", "Commentary"])
        #expect(playlist.renditions.map(\.isDefault) == [true, false, false])
        #expect(playlist.renditions.map(\.isAutoselect) == [true, true, false])
        #expect(playlist.renditions.map(\.language) == ["en", "de", "en"])
        #expect(playlist.variants.allSatisfy { $0.audioGroup == "aac" })
        #expect(playlist.renditions(ofType: .audio, inGroup: "aac").count == 3)
    }

    @Test func alternativeVideo() throws {
        let playlist = try #require(try parse("8.7-alternative-video.m3u8").multivariant)
        #expect(playlist.renditions.count == 9)
        #expect(playlist.variants.map(\.stream.videoGroup) == ["low", "mid", "hi"])
        #expect(playlist.renditions(ofType: .video, inGroup: "mid").map(\.name) == ["Main", "Centerfield", "Dugout"])
    }

    @Test func sessionData() throws {
        let playlist = try #require(try parse("8.8-session-data.m3u8").multivariant)
        #expect(playlist.sessionData.count == 3)
        #expect(playlist.sessionData[0].uri == "lyrics.json")
        #expect(playlist.sessionData[2].language == "es")
        #expect(playlist.sessionData[2].value == "Este es un ejemplo")
    }

    @Test func characteristics() throws {
        let playlist = try #require(try parse("8.9-characteristics.m3u8").multivariant)
        #expect(playlist.renditions[0].characteristics == [
            "public.accessibility.transcribes-spoken-dialog", "public.accessibility.describes-music-and-sound",
        ])
        #expect(playlist.renditions[0].type == .subtitles)
    }

    @Test func dateRangeCarryingSCTE35() throws {
        let playlist = try #require(try parse("8.10-daterange-scte35.m3u8").media)
        #expect(playlist.dateRanges.count == 2)
        let (out, back) = (playlist.dateRanges[0], playlist.dateRanges[1])
        #expect(out.id == "splice-6FFFFFF0" && back.id == out.id)
        #expect(out.plannedDuration == time("59.993"))
        #expect(out.scte35Out?.hasPrefix("0xFC002F") == true)
        #expect(back.scte35In?.hasPrefix("0xFC002A") == true)
        #expect(back.duration == time("59.993"))
        #expect(back.startDate == out.startDate)
        #expect(playlist.segments[2].programDateTime == out.startDate)
        #expect(out.segmentIndex == 2 && back.segmentIndex == 8)
    }
}

/// ffmpeg's own output in `playlists/`.
@Suite struct SampleContentTests {
    private func load(_ path: String) throws -> ParseResult {
        let url = repositoryRoot.appendingPathComponent(path)
        return Playlist.parse(bytes: Array(try Data(contentsOf: url)), options: ParseOptions(mode: .strict, baseURL: url.path))
    }

    @Test(arguments: samplePlaylistPaths()) func everySamplePlaylistIsValid(path: String) throws {
        let result = try load(path)
        #expect(result.diagnostics == [], "\(path)")
    }

    @Test func audioRenditionKeepsFFmpegQuirks() throws {
        let playlist = try #require(try load("playlists/multivariant/audio-en/index.m3u8").playlist.media)
        #expect(playlist.segments.count == 7)
        #expect(playlist.segments[0].duration == time("2.020133"))
        #expect(playlist.segments[6].duration == time("0.023222"))
        #expect(playlist.duration == time("12.027943"))
        #expect(playlist.playlistType == .vod)
    }

    @Test func fragmentedMP4HasAMap() throws {
        let playlist = try #require(try load("playlists/vod-fmp4/index.m3u8").playlist.media)
        #expect(playlist.segments.allSatisfy { $0.map?.uri == "init.mp4" })
        #expect(playlist.segments[0].map?.url == repositoryRoot.appendingPathComponent("playlists/vod-fmp4/init.mp4").path)
        #expect(playlist.duration == MediaTime(seconds: 12))
    }

    @Test func iFramePlaylistHasByteRanges() throws {
        let playlist = try #require(try load("playlists/multivariant/iframes.m3u8").playlist.media)
        #expect(playlist.isIFramesOnly)
        #expect(playlist.segments.count == 12)
        #expect(playlist.segments[1].byteRange == ByteRange(length: 3008, offset: 12596))
    }

    @Test func multivariantSample() throws {
        let playlist = try #require(try load("playlists/multivariant/master.m3u8").playlist.multivariant)
        #expect(playlist.variants.map(\.stream.resolution) == [Resolution(width: 160, height: 90), Resolution(width: 320, height: 180)])
        #expect(playlist.renditions.map(\.name) == ["English", "Français", "English"])
        #expect(playlist.iFrameVariants.first?.uri == "iframes.m3u8")
    }

    @Test func mixedExtendedM3U() throws {
        let list = try #require(try load("playlists/mixed.m3u").playlist.m3u)
        #expect(list.entries.map(\.uri) == ["vod-ts/index.m3u8", "vod-fmp4/index.m3u8", "multivariant/master.m3u8", "chapters.mp4"])
        #expect(list.title == "hlsq samples")
        #expect(list.entries[2].group == "Multivariant")
        #expect(list.entries[2].groupTitle == "Adaptive")
        #expect(list.entries[2].title == "Two variants, two audio languages and subtitles")
        #expect(list.entries[3].duration == MediaTime(seconds: 12))
        #expect(list.entries[0].attribute("tvg-logo") == "logo.png")
    }
}

