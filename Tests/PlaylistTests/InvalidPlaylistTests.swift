import Playlist
import Testing

/// One broken playlist per rule: strict parsing rejects it with that rule on that line.
struct InvalidCase: Sendable, CustomTestStringConvertible {
    let rule: ValidationRule
    let line: Int
    let text: String
    var options = ParseOptions()

    var testDescription: String { rule.rawValue }

    /// The playlist's bytes; for `invalidUTF8`, its U+FFFD stands for a byte that is not UTF-8.
    var bytes: [UInt8] {
        rule == .invalidUTF8 ? Array(text.utf8).replacingReplacementCharacterWithInvalidByte() : Array(text.utf8)
    }
}

private let media = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n"

let invalidCases: [InvalidCase] = [
    InvalidCase(rule: .extm3uFirst, line: 1, text: "#EXT-X-TARGETDURATION:10\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .invalidUTF8, line: 3, text: media + "#EXTINF:5,\u{FFFD}\na.ts\n"),
    InvalidCase(rule: .byteOrderMark, line: 1, text: "\u{FEFF}" + media + "#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .mixedPlaylistKinds, line: 3, text: media + "#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .missingRequiredTag, line: 1, text: "#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .duplicateTag, line: 3, text: media + "#EXT-X-TARGETDURATION:10\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .invalidTagValue, line: 3, text: media + "#EXTINF:five,\na.ts\n"),
    InvalidCase(rule: .missingURI, line: 5, text: media + "#EXTINF:5,\na.ts\n#EXTINF:5,\n"),
    InvalidCase(rule: .malformedAttributeList, line: 3, text: media + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .duplicateAttribute, line: 3, text: media + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",URI=\"j\"\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .missingAttribute, line: 3, text: media + "#EXT-X-MAP:BYTERANGE=\"1@0\"\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .invalidAttributeValue, line: 4, text: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2,RESOLUTION=wide\nb.m3u8\n"),
    InvalidCase(rule: .unknownEnumeratedValue, line: 3, text: media + "#EXT-X-PLAYLIST-TYPE:LIVE\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .segmentExceedsTargetDuration, line: 3, text: media + "#EXTINF:10.5,\na.ts\n"),
    InvalidCase(rule: .sequenceTagAfterSegment, line: 5, text: media + "#EXTINF:5,\na.ts\n#EXT-X-MEDIA-SEQUENCE:3\n"),
    InvalidCase(rule: .byteRangeWithoutOffset, line: 4, text: "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXT-X-BYTERANGE:100\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .keyNoneWithAttributes, line: 3, text: media + "#EXT-X-KEY:METHOD=NONE,URI=\"k\"\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .keyMissingURI, line: 3, text: media + "#EXT-X-KEY:METHOD=AES-128\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .partWithoutPartInf, line: 3, text: media + "#EXT-X-PART:DURATION=1,URI=\"p.ts\"\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .dateRangeMissingID, line: 3, text: media + "#EXT-X-DATERANGE:START-DATE=\"2024-01-01T00:00:00Z\"\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .dateRangeMissingStartDate, line: 3, text: media + "#EXT-X-DATERANGE:ID=\"x\"\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .dateRangeEndBeforeStart, line: 3, text: media + "#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"2024-01-01T00:00:10Z\",END-DATE=\"2024-01-01T00:00:00Z\"\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .streamInfMissingBandwidth, line: 2, text: "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\na.m3u8\n"),
    InvalidCase(rule: .streamInfMissingURI, line: 2, text: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n"),
    InvalidCase(rule: .undefinedGroup, line: 3, text: "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"en\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"mp3\"\na.m3u8\n"),
    InvalidCase(rule: .closedCaptionsWithURI, line: 2, text: "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"CC\",INSTREAM-ID=\"CC1\",URI=\"cc.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"),
    InvalidCase(rule: .closedCaptionsMissingInstreamID, line: 2, text: "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"CC\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"),
    InvalidCase(rule: .defaultWithoutAutoselect, line: 2, text: "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",DEFAULT=YES,AUTOSELECT=NO,URI=\"en.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"a\"\na.m3u8\n"),
    InvalidCase(rule: .undefinedVariable, line: 5, text: "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:10\n#EXTINF:5,\n{$host}/a.ts\n"),
    InvalidCase(rule: .duplicateVariable, line: 4, text: "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"\n#EXT-X-TARGETDURATION:10\n#EXTINF:5,\na.ts\n"),
    InvalidCase(rule: .versionTooLow, line: 2, text: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-BYTERANGE:100@0\n#EXTINF:5,\na.ts\n"),
]

@Suite struct InvalidPlaylistTests {
    @Test(arguments: invalidCases) func strictModeRejectsWithRuleAndLine(_ invalid: InvalidCase) {
        do {
            _ = try Playlist.parseStrictly(bytes: invalid.bytes, options: invalid.options)
            Issue.record("strict parsing accepted a playlist that breaks \(invalid.rule.rawValue)")
        } catch {
            let matching = error.diagnostics.filter { $0.rule == invalid.rule }
            #expect(matching.map(\.line) == [invalid.line], "diagnostics: \(error.diagnostics)")
            #expect(matching.allSatisfy { $0.severity == .error })
        }
    }

    /// Lenient parsing reports the same rule on the same line, as a warning when players
    /// tolerate it (the model comes back either way: `ParseResult.playlist` is never nil).
    @Test(arguments: invalidCases) func lenientModeReportsTheSameRuleOnTheSameLine(_ invalid: InvalidCase) {
        var options = invalid.options
        options.mode = .lenient
        let result = Playlist.parse(bytes: invalid.bytes, options: options)
        let matching = result.diagnostics.filter { $0.rule == invalid.rule }
        #expect(matching.map(\.line) == [invalid.line], "diagnostics: \(result.diagnostics)")
        let expected: Diagnostic.Severity = invalid.rule.isToleratedInLenientMode ? .warning : .error
        #expect(matching.allSatisfy { $0.severity == expected })
    }

    @Test func everyRuleHasACase() {
        #expect(Set(invalidCases.map(\.rule)) == Set(ValidationRule.allCases))
    }

    @Test func diagnosticsCarryColumnAndSentence() throws {
        let result = Playlist.parse(media + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",URI=\"j\"\n#EXTINF:5,\na.ts\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.description == "3:35: error: duplicate-attribute: the attribute URI appears more than once")
    }

    @Test func lenientModeToleratesWhatPlayersTolerate() {
        let result = Playlist.parse("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.5,\na.ts\n")
        #expect(result.isValid)
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.playlist.media?.segments.count == 1)
    }
}

extension [UInt8] {
    /// U+FFFD (EF BF BD) becomes a lone 0xFF, which is never valid UTF-8.
    func replacingReplacementCharacterWithInvalidByte() -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < count {
            if index + 2 < count, self[index] == 0xEF, self[index + 1] == 0xBF, self[index + 2] == 0xBD {
                result.append(0xFF)
                index += 3
            } else {
                result.append(self[index])
                index += 1
            }
        }
        return result
    }
}
