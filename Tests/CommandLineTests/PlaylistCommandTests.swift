import Foundation
import OriginSupport
import Testing

@Suite struct ValidateCommandTests {
    @Test func validPlaylistExitsZero() throws {
        let run = try HLSQProcess.run(arguments: ["validate", "playlists/vod-fmp4/index.m3u8"])
        #expect(run.status == 0)
        #expect(run.output == "playlists/vod-fmp4/index.m3u8: valid media playlist, 0 error(s), 0 warning(s)\n")
    }

    @Test func strictModeTurnsToleratedRulesIntoErrors() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:5\n#EXTINF:6,\na.ts\n"
        let lenient = try HLSQProcess.run(arguments: ["validate", "-"], input: text)
        #expect(lenient.status == 0)
        #expect(lenient.output.hasPrefix("<stdin>:4:9: warning: segment-exceeds-target-duration: "))
        let strict = try HLSQProcess.run(arguments: ["validate", "--strict", "-"], input: text)
        #expect(strict.status == 1)
        #expect(strict.output.hasPrefix("<stdin>:4:9: error: segment-exceeds-target-duration: "))
    }

    @Test func invalidPlaylistExitsOne() throws {
        let run = try HLSQProcess.run(arguments: ["validate", "-"], input: "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"a\"\nv.m3u8\n")
        #expect(run.status == 1)
        #expect(run.output.contains("<stdin>:2:1: error: stream-inf-missing-bandwidth: "))
    }

    @Test func jsonDocument() throws {
        let run = try HLSQProcess.run(arguments: ["validate", "--json", "--strict", "-"], input: "#EXTM3U\n#EXTINF:5,\na.ts\n#EXT-X-ENDLIST\n")
        #expect(run.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(document["valid"] as? Bool == false)
        #expect(document["mode"] as? String == "strict")
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["rule"] as? String } == ["missing-required-tag"])
    }

    @Test(arguments: [["validate"], ["validate", "--bogus", "x"], ["validate", "missing-file.m3u8"],
                      ["validate", "http://hlsq.invalid/live.m3u8"], ["inspect", "missing-file.m3u8"]])
    func usageAndInputErrorsExitTwo(arguments: [String]) throws {
        let run = try HLSQProcess.run(arguments: arguments)
        #expect(run.status == 2)
        #expect(!run.errors.isEmpty)
    }
}

@Suite struct PlaylistURLTests {
    /// Playlists read over http(s) resolve their relative URIs against the URL.
    @Test func validatesAndInspectsAPlaylistByURL() throws {
        let origin = try TestOrigin()
        let url = origin.url("/vod-ts/index.m3u8")
        let validated = try HLSQProcess.run("validate", "--strict", url)
        #expect(validated.status == 0, "\(validated.errors)")
        #expect(validated.output.hasPrefix("\(url): valid media playlist"))
        let inspected = try HLSQProcess.run("inspect", "--json", url)
        #expect(inspected.status == 0, "\(inspected.errors)")
        #expect(inspected.output.contains(origin.url("/vod-ts/segment0.ts")))
    }

    @Test func aMissingURLExitsTwo() throws {
        let origin = try TestOrigin()
        let run = try HLSQProcess.run("validate", origin.url("/nowhere.m3u8"))
        #expect(run.status == 2)
        #expect(run.errors.contains("404"))
    }
}

@Suite struct InspectCommandTests {
    @Test func summary() throws {
        let run = try HLSQProcess.run(arguments: ["inspect", "playlists/multivariant/master.m3u8"])
        #expect(run.status == 0)
        #expect(run.output.contains("multivariant playlist, version 4"))
        #expect(run.output.contains("video-low/index.m3u8: 145136 bit/s, 160x90"))
        #expect(run.output.contains("Français: AUDIO, group aud, fr"))
    }

    @Test func jsonDocumentOfAMediaPlaylist() throws {
        let run = try HLSQProcess.run(arguments: ["inspect", "--json", "playlists/multivariant/audio-en/index.m3u8"])
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(document["kind"] as? String == "media")
        #expect(document["targetDuration"] as? Int == 2)
        #expect(document["mediaSequence"] as? Int == 0)
        let segments = try #require(document["segments"] as? [[String: Any]])
        #expect(segments.count == 7)
        #expect(segments[1]["start"] as? Double == 2.020133)
        #expect(segments[1]["url"] as? String == "playlists/multivariant/audio-en/segment1.ts")
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test func jsonDocumentOfAnExtendedM3U() throws {
        let run = try HLSQProcess.run(arguments: ["inspect", "--json", "playlists/mixed.m3u"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(entries.map { $0["uri"] as? String } == ["vod-ts/index.m3u8", "vod-fmp4/index.m3u8", "multivariant/master.m3u8", "chapters.mp4"])
        #expect(entries[2]["group"] as? String == "Adaptive")
    }
}
