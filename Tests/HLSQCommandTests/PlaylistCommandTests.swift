import Foundation
import Testing

/// Runs the real `hlsq` binary, built next to the test bundle, and returns its exit status
/// and output.
private func hlsq(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, error: String) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hlsq")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = repositoryRoot
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite struct ValidateCommandTests {
    @Test func validPlaylistExitsZero() throws {
        let run = try hlsq(["validate", "playlists/vod-fmp4/index.m3u8"])
        #expect(run.status == 0)
        #expect(run.output == "playlists/vod-fmp4/index.m3u8: valid media playlist, 0 error(s), 0 warning(s)\n")
    }

    @Test func strictModeTurnsToleratedRulesIntoErrors() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:5\n#EXTINF:6,\na.ts\n"
        let lenient = try hlsq(["validate", "-"], input: text)
        #expect(lenient.status == 0)
        #expect(lenient.output.hasPrefix("<stdin>:4:9: warning: segment-exceeds-target-duration: "))
        let strict = try hlsq(["validate", "--strict", "-"], input: text)
        #expect(strict.status == 1)
        #expect(strict.output.hasPrefix("<stdin>:4:9: error: segment-exceeds-target-duration: "))
    }

    @Test func invalidPlaylistExitsOne() throws {
        let run = try hlsq(["validate", "-"], input: "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"a\"\nv.m3u8\n")
        #expect(run.status == 1)
        #expect(run.output.contains("<stdin>:2:1: error: stream-inf-missing-bandwidth: "))
    }

    @Test func jsonDocument() throws {
        let run = try hlsq(["validate", "--json", "--strict", "-"], input: "#EXTM3U\n#EXTINF:5,\na.ts\n#EXT-X-ENDLIST\n")
        #expect(run.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(document["valid"] as? Bool == false)
        #expect(document["mode"] as? String == "strict")
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["rule"] as? String } == ["missing-required-tag"])
    }

    @Test(arguments: [["validate"], ["validate", "--bogus", "x"], ["validate", "missing-file.m3u8"],
                      ["validate", "https://example.com/live.m3u8"], ["inspect", "missing-file.m3u8"]])
    func usageAndInputErrorsExitTwo(arguments: [String]) throws {
        let run = try hlsq(arguments)
        #expect(run.status == 2)
        #expect(!run.error.isEmpty)
    }
}

@Suite struct InspectCommandTests {
    @Test func summary() throws {
        let run = try hlsq(["inspect", "playlists/multivariant/master.m3u8"])
        #expect(run.status == 0)
        #expect(run.output.contains("multivariant playlist, version 4"))
        #expect(run.output.contains("video-low/index.m3u8: 145136 bit/s, 160x90"))
        #expect(run.output.contains("Français: AUDIO, group aud, fr"))
    }

    @Test func jsonDocumentOfAMediaPlaylist() throws {
        let run = try hlsq(["inspect", "--json", "playlists/multivariant/audio-en/index.m3u8"])
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
        let run = try hlsq(["inspect", "--json", "playlists/mixed.m3u"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(entries.map { $0["uri"] as? String } == ["vod-ts/index.m3u8", "vod-fmp4/index.m3u8", "multivariant/master.m3u8", "chapters.mp4"])
        #expect(entries[2]["group"] as? String == "Adaptive")
    }
}
