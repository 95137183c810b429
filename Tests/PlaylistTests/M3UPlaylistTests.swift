import MediaTime
import Playlist
import Testing

@Suite struct M3UPlaylistTests {
    @Test func iptvListWithByteOrderMarkAndCRLF() throws {
        let result = Playlist.parse(bytes: try fixtureBytes("extra/iptv.m3u"), options: ParseOptions(baseURL: "/srv/lists/tv.m3u"))
        let list = try #require(result.playlist.m3u)
        #expect(result.diagnostics.isEmpty)
        #expect(list.hasHeader)
        #expect(list.headerAttributes == [Attribute(name: "x-tvg-url", quoted: "http://example.com/guide.xml")])
        #expect(list.title == "My channels")
        #expect(list.entries.count == 3)
        let one = list.entries[0]
        #expect(one.uri == "http://example.com/live/one.m3u8")
        #expect(one.duration == nil)
        #expect(one.title == "Chaîne Une HD")
        #expect(one.attribute("tvg-id") == "one.fr")
        #expect(one.attribute("tvg-name") == "Chaîne, Une")
        #expect(one.attribute("tvg-logo") == "http://example.com/one.png")
        #expect(one.groupTitle == "News")
        #expect(one.group == nil)
        let two = list.entries[1]
        #expect(two.group == "Sports")
        #expect(two.precedingLines.map(\.text) == ["#EXTVLCOPT:http-user-agent=hlsq"])
        #expect(list.entries[2].title == "Three")
        #expect(list.entries[2].attributes.isEmpty)
        #expect(list.entries[2].groupTitle == "Sports")
    }

    @Test func plainListOfURLsAndPaths() throws {
        let result = Playlist.parse(bytes: try fixtureBytes("extra/plain-urls.m3u"),
                                    options: ParseOptions(baseURL: "https://example.com/lists/mine.m3u"))
        let list = try #require(result.playlist.m3u)
        #expect(!list.hasHeader)
        #expect(list.entries.map(\.uri) == ["http://example.com/a.mp3", "/music/b.flac", "relative/c.ogg"])
        #expect(list.entries.map(\.url) == ["http://example.com/a.mp3", "https://example.com/music/b.flac",
                                           "https://example.com/lists/relative/c.ogg"])
        #expect(list.entries.allSatisfy { !$0.hasInfo && $0.duration == nil })
    }

    @Test func exportedQueueIsAnExtendedM3U() throws {
        var list = M3UPlaylist(title: "Queue")
        list.entries = [
            M3UEntry(uri: "https://example.com/a/index.m3u8", title: "Live, with comma", duration: nil,
                     attributes: [Attribute(name: "tvg-id", quoted: "a")]),
            M3UEntry(uri: "/media/b.mp4", title: "B", duration: MediaTime(decimalSeconds: "12.5")),
            M3UEntry(uri: "c.mp3"),
        ]
        let text = PlaylistWriter.text(of: list)
        #expect(text == """
            #EXTM3U
            #PLAYLIST:Queue
            #EXTINF:-1 tvg-id="a",Live, with comma
            https://example.com/a/index.m3u8
            #EXTINF:12.5,B
            /media/b.mp4
            c.mp3

            """)
        let reparsed = try #require(Playlist.parse(text).playlist.m3u)
        #expect(reparsed == list)
    }
}
