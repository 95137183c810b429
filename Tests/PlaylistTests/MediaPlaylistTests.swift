import MediaTime
import Playlist
import Testing

@Suite struct MediaPlaylistHeaderTests {
    @Test func headerTags() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:10
            #EXT-X-MEDIA-SEQUENCE:42
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXTINF:9.5,
            a.ts
            #EXT-X-ENDLIST
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.version == 6)
        #expect(playlist.targetDuration == 10)
        #expect(playlist.mediaSequence == 42)
        #expect(playlist.discontinuitySequence == 7)
        #expect(playlist.playlistType == .event)
        #expect(playlist.hasIndependentSegments)
        #expect(playlist.hasEndList)
        #expect(!playlist.isIFramesOnly)
        #expect(playlist.start == StartOffset(timeOffset: time("-12.5"), isPrecise: true))
        #expect(playlist.segments.first?.mediaSequenceNumber == 42)
        #expect(playlist.segments.first?.discontinuitySequence == 7)
    }

    @Test func lowLatencyHeaderTags() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES,HOLD-BACK=12,PART-HOLD-BACK=1.002
            #EXT-X-PART-INF:PART-TARGET=0.334
            #EXTINF:4,
            a.mp4
            """)
        #expect(diagnostics.isEmpty)
        let control = try #require(playlist.serverControl)
        #expect(control.canBlockReload)
        #expect(control.canSkipUntil == MediaTime(seconds: 24))
        #expect(control.canSkipDateRanges)
        #expect(control.holdBack == MediaTime(seconds: 12))
        #expect(control.partHoldBack == time("1.002"))
        #expect(playlist.partInformation?.partTarget == time("0.334"))
    }

    @Test func iFramesOnly() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:1
            #EXT-X-I-FRAMES-ONLY
            #EXTINF:1,
            #EXT-X-BYTERANGE:3008@564
            a.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.isIFramesOnly)
        #expect(playlist.segments[0].byteRange == ByteRange(length: 3008, offset: 564))
    }
}

@Suite struct MediaSegmentTests {
    @Test func extinfDurationAndTitleAndTiming() throws {
        let (playlist, _) = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:7
            #EXT-X-MEDIA-SEQUENCE:5
            #EXTINF:6.006,First, with a comma
            one.ts
            #EXTINF:5.005,
            two.ts
            #EXTINF:6,
            three.ts
            """, ParseOptions(baseURL: "https://example.com/live/index.m3u8?token=1"))
        let segments = playlist.segments
        #expect(segments.count == 3)
        #expect(segments.map(\.uri) == ["one.ts", "two.ts", "three.ts"])
        #expect(segments.map(\.url) == ["https://example.com/live/one.ts", "https://example.com/live/two.ts",
                                        "https://example.com/live/three.ts"])
        #expect(segments[0].title == "First, with a comma")
        #expect(segments[1].title == "")
        #expect(segments.map(\.duration) == [time("6.006"), time("5.005"), MediaTime(seconds: 6)])
        #expect(segments.map(\.startTime) == [.zero, time("6.006"), time("11.011")])
        #expect(segments.map(\.mediaSequenceNumber) == [5, 6, 7])
        #expect(playlist.duration == time("17.011"))
        #expect(playlist.segmentIndex(containing: time("6.006")) == 1)
        #expect(playlist.segmentIndex(containing: time("17.011")) == nil)
    }

    @Test func hundredThousandDurationsSumExactly() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n"
        for index in 0..<100_000 { text += "#EXTINF:6.006,\ns\(index).ts\n" }
        let (playlist, diagnostics) = try media(text)
        #expect(diagnostics.isEmpty)
        #expect(playlist.duration == MediaTime(seconds: 600_600))
        #expect(playlist.segments.last?.startTime == time("600593.994"))
    }

    @Test func byteRangesResolveImplicitOffsets() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:6
            #EXT-X-BYTERANGE:1000@200
            #EXTINF:6,
            a.ts
            #EXT-X-BYTERANGE:500
            #EXTINF:6,
            a.ts
            #EXTINF:6,
            #EXT-X-BYTERANGE:300
            a.ts
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.segments.map(\.byteRange) == [
            ByteRange(length: 1000, offset: 200), ByteRange(length: 500, offset: 1200), ByteRange(length: 300, offset: 1700),
        ])
    }

    @Test func discontinuitiesCountIntoTheSequence() throws {
        let (playlist, _) = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-DISCONTINUITY-SEQUENCE:3
            #EXTINF:6,
            a.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:6,
            b.ts
            #EXTINF:6,
            c.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:6,
            d.ts
            """)
        #expect(playlist.segments.map(\.isDiscontinuity) == [false, true, false, true])
        #expect(playlist.segments.map(\.discontinuitySequence) == [3, 4, 4, 5])
    }

    @Test func keysInForce() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:5
            #EXT-X-TARGETDURATION:6
            #EXTINF:6,
            clear.ts
            #EXT-X-KEY:METHOD=AES-128,URI="key1",IV=0x0123456789abcdef0123456789abcdef
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:6,
            both.ts
            #EXT-X-KEY:METHOD=AES-128,URI="key2"
            #EXTINF:6,
            replaced.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:6,
            clear-again.ts
            """, ParseOptions(baseURL: "https://example.com/a/index.m3u8"))
        #expect(diagnostics.isEmpty)
        let segments = playlist.segments
        #expect(segments[0].keys.isEmpty)
        #expect(segments[1].keys.count == 2)
        #expect(segments[1].keys[0].method == .aes128)
        #expect(segments[1].keys[0].url == "https://example.com/a/key1")
        #expect(segments[1].keys[0].iv == "0x0123456789abcdef0123456789abcdef")
        #expect(segments[1].keys[1].method == .sampleAES)
        #expect(segments[1].keys[1].keyFormat == "com.apple.streamingkeydelivery")
        #expect(segments[1].keys[1].keyFormatVersions == "1")
        #expect(segments[2].keys.map(\.uri) == ["skd://k", "key2"])
        #expect(segments[3].keys.isEmpty)
    }

    @Test func mapBitrateGapAndDates() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            before.mp4
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="700@10"
            #EXT-X-BITRATE:800
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T10:00:00.500+01:00
            #EXTINF:4,
            dated.mp4
            #EXT-X-GAP
            #EXTINF:2.5,
            missing.mp4
            #EXTINF:4,
            extrapolated.mp4
            """)
        #expect(diagnostics.isEmpty)
        let segments = playlist.segments
        #expect(segments[0].map == nil)
        #expect(segments[1].map?.uri == "init.mp4")
        #expect(segments[1].map?.byteRange == ByteRange(length: 700, offset: 10))
        #expect(segments[3].map?.uri == "init.mp4")
        #expect(segments.map(\.bitrate) == [nil, 800, 800, 800])
        #expect(segments.map(\.isGap) == [false, false, true, false])
        let dated = try #require(DateTime(iso8601: "2024-01-01T09:00:00.500Z"))
        #expect(segments[1].programDateTime == dated)
        #expect(segments[1].hasExplicitProgramDateTime)
        #expect(segments[0].programDateTime == dated + MediaTime(seconds: -4))
        #expect(segments[3].programDateTime == dated + time("6.5"))
        #expect(!segments[3].hasExplicitProgramDateTime)
    }

    @Test func partsPreloadHintsAndRenditionReports() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-PART-INF:PART-TARGET=1
            #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3
            #EXT-X-PART:DURATION=1,URI="p0.mp4",INDEPENDENT=YES,BYTERANGE="100@0"
            #EXT-X-PART:DURATION=1,URI="p0.mp4",BYTERANGE="50"
            #EXTINF:2,
            s0.mp4
            #EXT-X-PART:DURATION=0.5,URI="p1.mp4",GAP=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p2.mp4",BYTERANGE-START=0,BYTERANGE-LENGTH=99
            #EXT-X-RENDITION-REPORT:URI="../low/index.m3u8",LAST-MSN=10,LAST-PART=2
            """)
        #expect(diagnostics.isEmpty)
        let parts = playlist.segments[0].parts
        #expect(parts.count == 2)
        #expect(parts[0].isIndependent)
        #expect(parts[0].byteRange == ByteRange(length: 100, offset: 0))
        #expect(parts[1].byteRange == ByteRange(length: 50, offset: 100))
        #expect(playlist.trailingParts.map(\.uri) == ["p1.mp4"])
        #expect(playlist.trailingParts[0].isGap)
        #expect(playlist.trailingParts[0].duration == time("0.5"))
        #expect(playlist.preloadHints == [PreloadHint(kind: .part, uri: "p2.mp4", byteRangeStart: 0, byteRangeLength: 99)])
        #expect(playlist.renditionReports.first?.lastMediaSequenceNumber == 10)
        #expect(playlist.renditionReports.first?.lastPart == 2)
    }

    @Test func dateRangesWithClientAndSCTE35Attributes() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00Z
            #EXT-X-DATERANGE:ID="ad-1",CLASS="com.example.ad",START-DATE="2024-05-01T12:00:00Z",END-DATE="2024-05-01T12:00:30Z",DURATION=30,PLANNED-DURATION=30.5,SCTE35-OUT=0xFC30,X-AD-ID="XYZ",X-COUNT=3,CUE="PRE,ONCE"
            #EXTINF:6,
            a.ts
            #EXT-X-DATERANGE:ID="chapter",CLASS="com.example.chapter",START-DATE="2024-05-01T12:00:06Z",END-ON-NEXT=YES
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.dateRanges.count == 2)
        let ad = playlist.dateRanges[0]
        #expect(ad.id == "ad-1")
        #expect(ad.classValue == "com.example.ad")
        #expect(ad.startDate == DateTime(iso8601: "2024-05-01T12:00:00Z"))
        #expect(ad.endDate == DateTime(iso8601: "2024-05-01T12:00:30Z"))
        #expect(ad.duration == MediaTime(seconds: 30))
        #expect(ad.plannedDuration == time("30.5"))
        #expect(ad.scte35Out == "0xFC30")
        #expect(ad.cue == ["PRE", "ONCE"])
        #expect(ad.clientAttributes == [Attribute(name: "X-AD-ID", quoted: "XYZ"), Attribute(name: "X-COUNT", rawValue: "3")])
        #expect(ad.segmentIndex == 0)
        #expect(playlist.dateRanges[1].endOnNext)
        #expect(playlist.dateRanges[1].segmentIndex == 1)
    }

    @Test func adMarkersHaveATypedReading() throws {
        let (playlist, _) = try media(String(decoding: try fixtureBytes("extra/ad-markers.m3u8"), as: UTF8.self))
        #expect(playlist.segments[1].adMarkers == [
            .scte35(base64: "/DAlAAAAAAAAAP/wFAUAAAPnf+/+ABH7nv4AKTLgAAEBAQAATRkqWQ=="), .cueOut(duration: MediaTime(seconds: 30)),
        ])
        #expect(playlist.segments[2].adMarkers == [.cueOutContinuation(elapsed: MediaTime(seconds: 6), duration: MediaTime(seconds: 30))])
        #expect(playlist.segments[3].adMarkers == [.cueIn])
        #expect(playlist.leadingLines.map(\.text) == ["# packaged by an encoder that leaves comments", "#EXT-X-VENDOR-THING:foo=bar"])
        #expect(playlist.trailingLines.map(\.text) == ["# the end"])
        #expect(playlist.adMarkers.map(\.segmentIndex) == [1, 1, 2, 3])
    }

    @Test(arguments: [
        ("#EXT-X-CUE-OUT:DURATION=15.5", AdMarker.cueOut(duration: MediaTime(value: 155, timescale: 10))),
        ("#EXT-X-CUE-OUT", AdMarker.cueOut(duration: nil)),
        ("#EXT-X-CUE-OUT-CONT:4/15", AdMarker.cueOutContinuation(elapsed: MediaTime(seconds: 4), duration: MediaTime(seconds: 15))),
    ])
    func adMarkerForms(line: String, marker: AdMarker) {
        #expect(AdMarker(line: line) == marker)
    }

    @Test func partInfRequiresPartHoldBack() throws {
        let (_, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PART-INF:PART-TARGET=1
            #EXTINF:4,
            a.mp4
            """)
        #expect(diagnostics.map(\.rule) == [.missingAttribute])
        #expect(diagnostics.map(\.line) == [3])
    }

    @Test func editedTimelineIsRecomputed() throws {
        var (playlist, _) = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:6,
            a.ts
            #EXTINF:6,
            b.ts
            """)
        playlist.segments.insert(MediaSegment(uri: "intro.ts", duration: MediaTime(seconds: 2)), at: 0)
        playlist.mediaSequence = 9
        playlist.recomputeTimeline()
        #expect(playlist.checkInvariants())
        #expect(playlist.segments.map(\.startTime) == [.zero, MediaTime(seconds: 2), MediaTime(seconds: 8)])
        #expect(playlist.segments.map(\.mediaSequenceNumber) == [9, 10, 11])
    }
}
