import MediaTime
import Playlist
import Testing

@Suite struct MultivariantPlaylistTests {
    @Test func variantsAndRenditions() throws {
        let (playlist, diagnostics) = try multivariant("""
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",ASSOC-LANGUAGE="en-US",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en.m3u8",STABLE-RENDITION-ID="en1",BIT-DEPTH=16,SAMPLE-RATE=48000
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,FORCED=YES,URI="subs/fr.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC",INSTREAM-ID="SERVICE3"
            #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="Angle 2",URI="angle2.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.4d401e, mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.970,HDCP-LEVEL=TYPE-0,VIDEO-RANGE=SDR,AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS="cc",VIDEO="cam",SCORE=1.5,STABLE-VARIANT-ID="v1",PATHWAY-ID="CDN-A",X-VENDOR="kept"
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5",CLOSED-CAPTIONS=NONE
            https://other.example.com/audio.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.4d401e",RESOLUTION=640x360,URI="low/iframes.m3u8"
            """, ParseOptions(baseURL: "https://example.com/show/master.m3u8"))
        #expect(diagnostics.isEmpty)
        #expect(playlist.version == 7)
        #expect(playlist.hasIndependentSegments)
        #expect(playlist.variants.count == 2)
        let low = playlist.variants[0]
        #expect(low.stream.bandwidth == 1_280_000)
        #expect(low.stream.averageBandwidth == 1_000_000)
        #expect(low.stream.codecs == ["avc1.4d401e", "mp4a.40.2"])
        #expect(low.stream.resolution == Resolution(width: 640, height: 360))
        #expect(low.frameRate == 29.97)
        #expect(low.stream.hdcpLevel == "TYPE-0")
        #expect(low.stream.videoRange == "SDR")
        #expect(low.stream.score == 1.5)
        #expect(low.stream.stableVariantID == "v1")
        #expect(low.stream.pathwayID == "CDN-A")
        #expect(low.audioGroup == "aud")
        #expect(low.subtitlesGroup == "subs")
        #expect(low.closedCaptions == .group("cc"))
        #expect(low.stream.videoGroup == "cam")
        #expect(low.stream.otherAttributes == [Attribute(name: "X-VENDOR", quoted: "kept")])
        #expect(low.url == "https://example.com/show/low/index.m3u8")
        #expect(playlist.variants[1].closedCaptions == Variant.ClosedCaptions.none)
        #expect(playlist.variants[1].url == "https://other.example.com/audio.m3u8")
        #expect(playlist.iFrameVariants.first?.url == "https://example.com/show/low/iframes.m3u8")
        #expect(playlist.iFrameVariants.first?.stream.bandwidth == 86000)

        let english = playlist.renditions[0]
        #expect(english.type == .audio)
        #expect(english.groupID == "aud")
        #expect(english.name == "English")
        #expect(english.language == "en")
        #expect(english.associatedLanguage == "en-US")
        #expect(english.isDefault && english.isAutoselect && !english.isForced)
        #expect(english.channels == "2")
        #expect(english.stableRenditionID == "en1")
        #expect(english.bitDepth == 16)
        #expect(english.sampleRate == 48000)
        #expect(english.url == "https://example.com/show/audio/en.m3u8")
        #expect(playlist.renditions[1].isForced)
        #expect(playlist.renditions[2].instreamID == "SERVICE3")
        #expect(playlist.renditions[2].url == nil)
        #expect(playlist.renditions(ofType: .video, inGroup: "cam").map(\.name) == ["Angle 2"])
    }

    @Test func sessionDataKeysAndSteering() throws {
        let (playlist, diagnostics) = try multivariant("""
            #EXTM3U
            #EXT-X-VERSION:5
            #EXT-X-CONTENT-STEERING:SERVER-URI="/steering?video=1",PATHWAY-ID="CDN-A"
            #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Hello",LANGUAGE="en"
            #EXT-X-SESSION-DATA:DATA-ID="com.example.lyrics",URI="lyrics.json",FORMAT=RAW
            #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXT-X-STREAM-INF:BANDWIDTH=100
            v.m3u8
            """, ParseOptions(baseURL: "https://example.com/a/master.m3u8"))
        #expect(diagnostics.isEmpty)
        #expect(playlist.contentSteering?.serverURL == "https://example.com/steering?video=1")
        #expect(playlist.contentSteering?.pathwayID == "CDN-A")
        #expect(playlist.sessionData.map(\.dataID) == ["com.example.title", "com.example.lyrics"])
        #expect(playlist.sessionData[0].value == "Hello")
        #expect(playlist.sessionData[0].language == "en")
        #expect(playlist.sessionData[1].url == "https://example.com/a/lyrics.json")
        #expect(playlist.sessionData[1].format == "RAW")
        #expect(playlist.sessionKeys.first?.method == .sampleAES)
    }

    @Test func variablesAreExportedForImport() throws {
        let (playlist, diagnostics) = try multivariant("""
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-DEFINE:NAME="token",VALUE="abc"
            #EXT-X-STREAM-INF:BANDWIDTH=100
            v.m3u8?t={$token}
            """)
        #expect(diagnostics.isEmpty)
        #expect(playlist.variants[0].uri == "v.m3u8?t=abc")
        #expect(playlist.variablesForImport == ["token": "abc"])
    }
}

@Suite struct VariableSubstitutionTests {
    @Test func valueImportAndQueryParameter() throws {
        let text = String(decoding: try fixtureBytes("extra/variables.m3u8"), as: UTF8.self)
        let options = ParseOptions(mode: .strict, baseURL: "https://example.com/v/index.m3u8?session=s%2042&x=1",
                                   importedVariables: ["token": "t0k"])
        let (playlist, diagnostics) = try media(text, options)
        #expect(diagnostics.isEmpty)
        #expect(playlist.definitions.map(\.name) == ["cdn", "token", "session"])
        #expect(playlist.definitions.map(\.resolvedValue) == ["https://cdn.example.com", "t0k", "s 42"])
        #expect(playlist.segments[0].uri == "https://cdn.example.com/video/seg1.ts?session=s 42")
        #expect(playlist.segments[0].keys.first?.uri == "https://cdn.example.com/keys/1?t=t0k")
        #expect(playlist.segments[1].url == "https://example.com/v/seg2.ts")
    }

    @Test func missingImportAndUndefinedReferenceAreReported() throws {
        let text = String(decoding: try fixtureBytes("extra/variables.m3u8"), as: UTF8.self)
        let (playlist, diagnostics) = try media(text, ParseOptions(baseURL: "https://example.com/index.m3u8"))
        #expect(diagnostics.map(\.rule) == [.undefinedVariable, .undefinedVariable, .undefinedVariable, .undefinedVariable])
        #expect(diagnostics.map(\.line) == [5, 6, 7, 9])
        #expect(playlist.segments[0].uri == "https://cdn.example.com/video/seg1.ts?session={$session}")
    }
}
