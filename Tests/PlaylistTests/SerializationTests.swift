import Foundation
import MediaTime
import Playlist
import Testing

/// Every fixture, and every playlist in `playlists/`, with what its parse needs.
private func allInputs() throws -> [(name: String, bytes: [UInt8], options: ParseOptions)] {
    var inputs: [(String, [UInt8], ParseOptions)] = []
    for path in allFixturePaths() {
        inputs.append((path, try fixtureBytes(path),
                       ParseOptions(baseURL: "https://example.com/a/index.m3u8?session=s1", importedVariables: ["token": "t"])))
    }
    for path in samplePlaylistPaths() {
        inputs.append((path, Array(try Data(contentsOf: repositoryRoot.appendingPathComponent(path))), ParseOptions(baseURL: path)))
    }
    return inputs
}

@Suite struct SerializationTests {
    @Test func unchangedPlaylistsAreWrittenByteForByte() throws {
        let inputs = try allInputs()
        #expect(inputs.count >= 24)
        for input in inputs {
            let parsed = Playlist.parse(bytes: input.bytes, options: input.options).playlist
            #expect(PlaylistWriter.bytes(of: parsed) == input.bytes, "\(input.name)")
        }
    }

    @Test func canonicalTextParsesToTheSameModel() throws {
        for input in try allInputs() {
            let parsed = Playlist.parse(bytes: input.bytes, options: input.options)
            let canonical = PlaylistWriter.text(of: parsed.playlist, style: .canonical)
            let reparsed = Playlist.parse(canonical, options: input.options)
            #expect(reparsed.playlist == parsed.playlist, "\(input.name):\n\(canonical)")
            // Canonical text is a fixed point.
            #expect(PlaylistWriter.text(of: reparsed.playlist, style: .canonical) == canonical, "\(input.name)")
        }
    }

    @Test func writtenThenParsedEqualsParsed() throws {
        for input in try allInputs() {
            let parsed = Playlist.parse(bytes: input.bytes, options: input.options).playlist
            let again = Playlist.parse(bytes: PlaylistWriter.bytes(of: parsed), options: input.options).playlist
            #expect(again == parsed, "\(input.name)")
        }
    }

    @Test func editedPlaylistIsWrittenCanonically() throws {
        let text = "#EXTM3U\r\n#EXT-X-TARGETDURATION:10\r\n# note\r\n#EXTINF:9.000,first\r\na.ts\r\n#EXTINF:5,\r\nb.ts\r\n"
        var playlist = try #require(Playlist.parse(text).playlist.media)
        #expect(PlaylistWriter.text(of: playlist) == text)
        playlist.segments[1].title = "second"
        #expect(PlaylistWriter.text(of: playlist) == """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            # note
            #EXTINF:9,first
            a.ts
            #EXTINF:5,second
            b.ts

            """)
    }

    @Test func canonicalMediaPlaylistWritesEveryTag() throws {
        let text = String(decoding: try fixtureBytes("extra/byteranges-fmp4.m3u8"), as: UTF8.self)
        let playlist = try #require(Playlist.parse(text).playlist.media)
        #expect(PlaylistWriter.text(of: playlist, style: .canonical) == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
            #EXT-X-BYTERANGE:100000@720
            #EXTINF:6.006,
            main.mp4
            #EXT-X-BYTERANGE:90000@100720
            #EXTINF:6.006,
            main.mp4
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="other.mp4"
            #EXT-X-BITRATE:1500
            #EXT-X-BYTERANGE:80000@0
            #EXTINF:5.005,
            other.mp4
            #EXT-X-GAP
            #EXT-X-BYTERANGE:80000@80000
            #EXTINF:5.005,
            other.mp4
            #EXT-X-ENDLIST

            """)
    }

    @Test func newPlaylistFromCode() {
        var playlist = MediaPlaylist(targetDuration: 6, version: 3)
        playlist.playlistType = .vod
        playlist.hasEndList = true
        playlist.segments = [
            MediaSegment(uri: "a.ts", duration: MediaTime(value: 6006, timescale: 1000)),
            MediaSegment(uri: "b.ts", duration: MediaTime(value: 1001, timescale: 30000), title: "short"),
        ]
        playlist.recomputeTimeline()
        #expect(PlaylistWriter.text(of: playlist) == """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:6.006,
            a.ts
            #EXTINF:0.033366667,short
            b.ts
            #EXT-X-ENDLIST

            """)
    }
}

@Suite struct CanonicalSizeTests {
    /// Canonical text is written into an array sized from the parsed source; an edited model
    /// that outgrows it is written again at the exact size.
    @Test func textLongerThanTheSourceIsWrittenWhole() throws {
        var playlist = try #require(Playlist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n").playlist.media)
        let longURI = String(repeating: "x", count: 300) + ".ts"
        for _ in 0..<200 { playlist.segments.append(MediaSegment(uri: longURI, duration: MediaTime(seconds: 6))) }
        playlist.recomputeTimeline()
        let text = PlaylistWriter.text(of: playlist)
        #expect(text == "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n"
            + String(repeating: "#EXTINF:6,\n\(longURI)\n", count: 200))
        #expect(Playlist.parse(text).playlist == .media(playlist))
    }

    /// The writer remembers the text of the last calendar day; dates that change day, or go
    /// back to an earlier one, are each written whole.
    @Test func datesOnSeveralDays() throws {
        let dates = ["2026-01-01T23:59:59.999Z", "2026-01-02T00:00:00.000Z", "2026-01-02T00:00:01.500Z",
                     "1969-12-31T23:59:59.000Z", "2262-04-11T23:47:16.854775807Z", "2026-01-02T00:00:02.123456789Z"]
        var playlist = MediaPlaylist(targetDuration: 1)
        playlist.segments = MediaSegmentList(try dates.enumerated().map { index, text in
            var segment = MediaSegment(uri: "\(index).ts", duration: MediaTime(seconds: 1))
            let date: DateTime = try #require(DateTime(iso8601: text))
            segment.programDateTime = date
            segment.hasExplicitProgramDateTime = true
            return segment
        })
        let written = PlaylistWriter.text(of: playlist, style: .canonical)
        let lines = written.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }
        #expect(lines.map { String($0.dropFirst(25)) } == dates)
    }
}

@Suite struct GrammarTests {
    @Test(arguments: [
        ("2010-02-19T14:54:23.031+08:00", "2010-02-19T06:54:23.031Z"),
        ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59.000Z"),
        ("1969-12-31T23:59:59.5-0130", "1970-01-01T01:29:59.500Z"),
        ("2024-01-01T00:00:00.123456789Z", "2024-01-01T00:00:00.123456789Z"),
    ])
    func dateTimes(text: String, canonical: String) throws {
        let date = try #require(DateTime(iso8601: text))
        #expect(date.iso8601 == canonical)
        #expect(DateTime(iso8601: canonical) == date)
    }

    @Test(arguments: ["2023-02-29T00:00:00Z", "2024-01-01T00:00:00", "2024-01-01", "2024-13-01T00:00:00Z", "x"])
    func invalidDateTimes(text: String) {
        #expect(DateTime(iso8601: text) == nil)
    }

    @Test(arguments: [
        ("https://a.com/b/c/index.m3u8", "seg.ts", "https://a.com/b/c/seg.ts"),
        ("https://a.com/b/c/index.m3u8", "../d/seg.ts", "https://a.com/b/d/seg.ts"),
        ("https://a.com/b/c/index.m3u8", "./seg.ts?x=1", "https://a.com/b/c/seg.ts?x=1"),
        ("https://a.com/b/c/index.m3u8", "/root.ts", "https://a.com/root.ts"),
        ("https://a.com/b/c/index.m3u8", "//cdn.com/x.ts", "https://cdn.com/x.ts"),
        ("https://a.com/b/c/index.m3u8?q=1", "?q=2", "https://a.com/b/c/index.m3u8?q=2"),
        ("https://a.com/index.m3u8", "http://b.com/x/../y.ts", "http://b.com/y.ts"),
        ("https://a.com", "seg.ts", "https://a.com/seg.ts"),
        ("playlists/vod/index.m3u8", "seg.ts", "playlists/vod/seg.ts"),
        ("/srv/list.m3u", "../music/a.mp3", "/music/a.mp3"),
        ("index.m3u8", "seg.ts", "seg.ts"),
    ])
    func relativeURIsResolve(base: String, reference: String, resolved: String) throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(reference)\n"
        let playlist = try #require(Playlist.parse(text, options: ParseOptions(baseURL: base)).playlist.media)
        #expect(playlist.segments.first?.url == resolved)
    }

    @Test func quotedStringsAreByteExact() throws {
        let (playlist, diagnostics) = try multivariant("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a,b=c",NAME="  spaced, \u{1F3B5} ",URI="x.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a,b=c"
            v.m3u8
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.renditions[0].groupID == "a,b=c")
        #expect(playlist.renditions[0].name == "  spaced, \u{1F3B5} ")
    }

    @Test(arguments: [
        ("BANDWIDTH=1,BANDWIDTH=2", ValidationRule.duplicateAttribute),
        ("BANDWIDTH=1,", .malformedAttributeList),
        ("BANDWIDTH=1,,CODECS=\"x\"", .malformedAttributeList),
        ("bandwidth=1", .malformedAttributeList),
        ("BANDWIDTH=one", .invalidAttributeValue),
        ("BANDWIDTH=1,RESOLUTION=\"1x1\"", .invalidAttributeValue),
        ("BANDWIDTH=1,FRAME-RATE=fast", .invalidAttributeValue),
        ("BANDWIDTH=1,CODECS=mp4a", .invalidAttributeValue),
        ("BANDWIDTH=1,HDCP-LEVEL=TYPE-9", .unknownEnumeratedValue),
        ("BANDWIDTH=1,VIDEO-RANGE=HDR", .unknownEnumeratedValue),
    ])
    func attributeListErrors(attributes: String, rule: ValidationRule) {
        let result = Playlist.parse("#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\nv.m3u8\n")
        #expect(result.diagnostics.map(\.rule).contains(rule), "\(result.diagnostics)")
        #expect(result.diagnostics.allSatisfy { $0.line == 2 })
    }

    @Test func hexadecimalAndSignedDecimal() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:2
            #EXT-X-TARGETDURATION:1
            #EXT-X-START:TIME-OFFSET=-0.5
            #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0XABCDEF
            #EXTINF:1,
            a.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.start?.timeOffset == MediaTime(value: -1, timescale: 2))
        #expect(playlist.segments[0].keys.first?.iv == "0XABCDEF")
    }
}
