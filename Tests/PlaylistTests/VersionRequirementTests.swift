import Playlist
import Testing

/// A feature and the lowest EXT-X-VERSION that allows it (RFC 8216bis, "Protocol Version
/// Compatibility"). `body` follows `#EXTM3U` and the version line.
struct VersionRequirement: Sendable, CustomTestStringConvertible {
    let version: Int
    let body: String

    var testDescription: String { "version \(version)" }

    func playlist(declaring declared: Int) -> String {
        "#EXTM3U\n#EXT-X-VERSION:\(declared)\n" + body
    }
}

private let target = "#EXT-X-TARGETDURATION:10\n"

let versionRequirements: [VersionRequirement] = [
    VersionRequirement(version: 2, body: target + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x00000000000000000000000000000001\n#EXTINF:5,\na.ts\n"),
    VersionRequirement(version: 3, body: target + "#EXTINF:5.5,\na.ts\n"),
    VersionRequirement(version: 4, body: target + "#EXT-X-BYTERANGE:100@0\n#EXTINF:5,\na.ts\n"),
    VersionRequirement(version: 5, body: target + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"identity\"\n#EXTINF:5,\na.ts\n"),
    VersionRequirement(version: 6, body: target + "#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:5,\na.mp4\n"),
    VersionRequirement(version: 7, body: "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"CC\",INSTREAM-ID=\"SERVICE1\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=\"cc\"\na.m3u8\n"),
    VersionRequirement(version: 8, body: "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n" + target + "#EXTINF:5,\n{$a}.ts\n"),
    VersionRequirement(version: 9, body: target + "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=60\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3\n#EXTINF:5,\na.ts\n"),
    VersionRequirement(version: 10, body: target + "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=60\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES=\"ad-1\"\n#EXTINF:5,\na.ts\n"),
    VersionRequirement(version: 11, body: "#EXT-X-DEFINE:QUERYPARAM=\"token\"\n" + target + "#EXTINF:5,\na.ts?t={$token}\n"),
    VersionRequirement(version: 12, body: "#EXT-X-STREAM-INF:BANDWIDTH=1,REQ-VIDEO-LAYOUT=\"CH-STEREO\"\na.m3u8\n"),
]

/// Each feature needs its version: one lower is `version-too-low`, naming the version; the
/// version itself is enough.
@Suite struct VersionRequirementTests {
    @Test(arguments: versionRequirements) func oneVersionLowerIsTooLow(_ requirement: VersionRequirement) {
        let result = Playlist.parse(requirement.playlist(declaring: requirement.version - 1))
        let tooLow = result.diagnostics.filter { $0.rule == .versionTooLow }
        #expect(tooLow.count == 1, "diagnostics: \(result.diagnostics)")
        #expect(tooLow.allSatisfy { $0.line == 2 && $0.message.contains("needs EXT-X-VERSION \(requirement.version) or higher") },
                "\(tooLow)")
    }

    @Test(arguments: versionRequirements) func theVersionItselfIsEnough(_ requirement: VersionRequirement) {
        let result = Playlist.parse(requirement.playlist(declaring: requirement.version))
        #expect(!result.diagnostics.contains { $0.rule == .versionTooLow }, "diagnostics: \(result.diagnostics)")
    }
}
