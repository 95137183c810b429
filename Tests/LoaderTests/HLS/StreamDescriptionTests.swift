import Foundation
import Loader
import MediaTime
import OriginSupport
import Playlist
import Testing

@Suite struct StreamDescriptionTests {
    static let dated = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:4
        #EXT-X-MEDIA-SEQUENCE:20
        #EXT-X-DATERANGE:ID="intro",CLASS="com.apple.hls.chapter",START-DATE="2030-01-01T00:00:00Z",X-TITLE="Intro"
        #EXT-X-DATERANGE:ID="news",CLASS="com.apple.hls.chapter",START-DATE="2030-01-01T00:00:06Z",END-DATE="2030-01-01T00:00:10Z"
        #EXT-X-DATERANGE:ID="ad-1",CLASS="com.hlsq.linear-playback",START-DATE="2030-01-01T00:00:04Z",DURATION=2.5
        #EXT-X-DATERANGE:ID="splice",START-DATE="2030-01-01T00:00:08Z",PLANNED-DURATION=3,SCTE35-OUT=0xFC30
        #EXT-X-DATERANGE:ID="other",CLASS="com.example.note",START-DATE="2030-01-01T00:00:01Z"
        #EXT-X-PROGRAM-DATE-TIME:2030-01-01T00:00:00Z
        #EXTINF:4,
        a.ts
        #EXTINF:4,
        b.ts
        #EXTINF:4,
        c.ts
        """

    @Test func chaptersAreDateRangesOfTheChapterClass() {
        let playlist = mediaPlaylist(Self.dated)
        let description = StreamDescription(playlist: playlist, offset: .ms(100_000), multivariant: nil)
        #expect(description.duration == .indefinite)
        #expect(description.chapters == [
            MediaChapter(start: .ms(100_000), end: .ms(106_000), title: "Intro"),
            MediaChapter(start: .ms(106_000), end: .ms(110_000), title: "news"),
        ])
    }

    @Test func linearPlaybackRangesComeFromTheirClassAndFromSCTE35Outs() {
        let description = StreamDescription(playlist: mediaPlaylist(Self.dated), offset: .zero, multivariant: nil)
        #expect(description.linearPlaybackRanges == [
            LinearPlaybackSpan(timeRange: msRange(4000, 6500), label: "ad-1"),
            LinearPlaybackSpan(timeRange: msRange(8000, 11_000), label: "splice"),
        ])
    }

    @Test func cueOutsStartLinearRangesThatCueInsEnd() {
        let playlist = mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXTINF:2,
            a.ts
            #EXT-X-CUE-OUT:4
            #EXTINF:2,
            ad1.ts
            #EXT-X-CUE-OUT-CONT:2/4
            #EXTINF:2,
            ad2.ts
            #EXT-X-CUE-IN
            #EXTINF:2,
            b.ts
            #EXT-X-CUE-OUT:DURATION=10
            #EXTINF:2,
            ad3.ts
            """)
        let description = StreamDescription(playlist: playlist, offset: .zero, multivariant: nil)
        // The second break is still open: it runs to the end of the playlist for now.
        #expect(description.linearPlaybackRanges == [
            LinearPlaybackSpan(timeRange: msRange(2000, 6000), label: "cue-out"),
            LinearPlaybackSpan(timeRange: msRange(8000, 10_000), label: "cue-out"),
        ])
        #expect(description.chapters.isEmpty)
    }

    @Test func withoutProgramDateTimesDateRangesCannotBePlaced() {
        let undated = Self.dated.replacingOccurrences(of: "#EXT-X-PROGRAM-DATE-TIME:2030-01-01T00:00:00Z\n", with: "")
        let description = StreamDescription(playlist: mediaPlaylist(undated), offset: .zero, multivariant: nil)
        #expect(description.chapters.isEmpty && description.linearPlaybackRanges.isEmpty)
    }

    @Test func variantsAndRenditionsComeFromTheMultivariantPlaylist() throws {
        let url = "http://origin.test/multivariant/master.m3u8"
        let text = try String(contentsOf: TestOrigin.playlists.appendingPathComponent("multivariant/master.m3u8"), encoding: .utf8)
        guard case .multivariant(let multivariant) = Playlist.parse(text, options: ParseOptions(baseURL: url)).playlist else {
            Issue.record("not a multivariant playlist")
            return
        }
        let vod = LivePlaylistText(count: 6, endList: true).playlist
        let description = StreamDescription(playlist: vod, offset: .zero, multivariant: multivariant)
        #expect(description.duration == .ms(12_000))
        #expect(description.variants == [
            StreamVariant(uri: "http://origin.test/multivariant/video-low/index.m3u8", bandwidth: 145_136,
                          averageBandwidth: 139_996, codecs: "avc1.42c00c,mp4a.40.2", width: 160, height: 90, frameRate: 12),
            StreamVariant(uri: "http://origin.test/multivariant/video-high/index.m3u8", bandwidth: 286_512,
                          averageBandwidth: 264_578, codecs: "avc1.42c00c,mp4a.40.2", width: 320, height: 180, frameRate: 12),
        ])
        #expect(description.renditionGroups == [
            RenditionGroup(kind: .audio, renditions: [
                Loader.Rendition(name: "English", language: "en", isDefault: true, isAutoselect: true,
                          uri: "http://origin.test/multivariant/audio-en/index.m3u8"),
                Loader.Rendition(name: "Français", language: "fr", isDefault: false, isAutoselect: true,
                          uri: "http://origin.test/multivariant/audio-fr/index.m3u8"),
            ]),
            RenditionGroup(kind: .subtitles, renditions: [
                Loader.Rendition(name: "English", language: "en", isAutoselect: true,
                          uri: "http://origin.test/multivariant/subtitles-en/index.m3u8"),
            ]),
        ])
    }
}
