import MediaTime
import Playlist
import Testing

/// A playlist whose segments use every column: keys and a map that change, dates, byte
/// ranges, titles, parts, preserved lines, a gap and discontinuities.
private let richText = """
    #EXTM3U
    #EXT-X-VERSION:9
    #EXT-X-TARGETDURATION:7
    #EXT-X-MEDIA-SEQUENCE:100
    #EXT-X-PART-INF:PART-TARGET=2
    #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
    #EXT-X-MAP:URI="init.mp4"
    #EXT-X-KEY:METHOD=AES-128,URI="k1"
    #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
    #EXT-X-BYTERANGE:1000@0
    #EXTINF:6.006,first
    media.mp4
    #EXT-X-BYTERANGE:2000
    #EXTINF:6.006,
    media.mp4
    # a comment
    #EXT-X-DISCONTINUITY
    #EXT-X-KEY:METHOD=NONE
    #EXTINF:5.005,
    b.mp4
    #EXT-X-GAP
    #EXTINF:6,
    c.mp4
    #EXT-X-PART:DURATION=2,URI="d.0.mp4"
    #EXT-X-PART:DURATION=2,URI="d.1.mp4"
    #EXTINF:4,
    d.mp4
    #EXT-X-BITRATE:800
    #EXTINF:6.006,
    e.mp4
    """

private func richSegments() throws -> MediaSegmentList {
    try media(richText).0.segments
}

/// A deterministic generator, so that a failing sequence of edits can be replayed.
private struct Generator {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

@Suite struct MediaSegmentListTests {
    @Test func segmentsStoredOneByOneReadBackEqual() throws {
        let parsed = try richSegments()
        let array = Array(parsed)
        var list = MediaSegmentList()
        for segment in array {
            list.append(segment)
            #expect(list.checkInvariants())
        }
        #expect(Array(list) == array)
        #expect(list == parsed)
        #expect(list.hashValue == parsed.hashValue)
        #expect(MediaSegmentList(array) == parsed)
        #expect(array.map(\.byteRange) == [ByteRange(length: 1000, offset: 0), ByteRange(length: 2000, offset: 1000),
                                           nil, nil, nil, nil])
        #expect(list.map(\.title) == ["first", "", "", "", "", ""])
        #expect(list.map(\.mediaSequenceNumber) == [100, 101, 102, 103, 104, 105])
        #expect(list.map(\.discontinuitySequence) == [0, 0, 1, 1, 1, 1])
        #expect(list.map { $0.keys.map(\.uri) } == [["k1"], ["k1"], [], [], [], []])
        #expect(list.map(\.bitrate) == [nil, nil, nil, nil, nil, 800])
        #expect(list.map(\.isGap) == [false, false, false, true, false, false])
        #expect(list[2].precedingLines == [PreservedLine("# a comment")])
        #expect(list[4].parts.map(\.uri) == ["d.0.mp4", "d.1.mp4"])
        #expect(list.allSatisfy { $0.map?.uri == "init.mp4" })
    }

    /// Every edit applied to the list and to an array of the same segments leaves them equal.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func editsMatchAnArray(seed: UInt64) throws {
        let pool = Array(try richSegments()) + [
            MediaSegment(uri: "code.ts", duration: MediaTime(value: 1001, timescale: 30000), title: "from code"),
            MediaSegment(uri: "live.ts", duration: .indefinite),
        ]
        var generator = Generator(state: seed)
        var list = MediaSegmentList()
        var array: [MediaSegment] = []
        for _ in 0..<200 {
            let segment = pool[generator.next(pool.count)]
            switch generator.next(6) {
            case 0:
                list.append(segment)
                array.append(segment)
            case 1:
                let index = generator.next(array.count + 1)
                list.insert(segment, at: index)
                array.insert(segment, at: index)
            case 2 where !array.isEmpty:
                let index = generator.next(array.count)
                #expect(list.remove(at: index) == array.remove(at: index))
            case 3 where !array.isEmpty:
                let index = generator.next(array.count)
                list[index] = segment
                array[index] = segment
            case 4:
                let lower = generator.next(array.count + 1)
                let upper = lower + generator.next(array.count - lower + 1)
                let replacement = (0..<generator.next(4)).map { _ in pool[generator.next(pool.count)] }
                list.replaceSubrange(lower..<upper, with: replacement)
                array.replaceSubrange(lower..<upper, with: replacement)
            default:
                if array.count > 1 {
                    let (first, second) = (generator.next(array.count), generator.next(array.count))
                    list.swapAt(first, second)
                    array.swapAt(first, second)
                }
            }
            #expect(list.checkInvariants())
            #expect(list.count == array.count)
        }
        #expect(Array(list) == array)
        #expect(list == MediaSegmentList(array))
        #expect(list.indices.map(list.duration(at:)) == array.map(\.duration))
        #expect(list.indices.map(list.startTime(at:)) == array.map(\.startTime))
        #expect(list.indices.map(list.isGap(at:)) == array.map(\.isGap))
        #expect(list.indices.map(list.mediaSequenceNumber(at:)) == array.map(\.mediaSequenceNumber))
    }

    @Test func changingOneSegmentLeavesItsNeighbours() throws {
        var list = try richSegments()
        list[1].keys = []
        list[1].title = "changed"
        list[1].byteRange = nil
        list[1].isDiscontinuity = true
        #expect(list.checkInvariants())
        #expect(list.map { $0.keys.map(\.uri) } == [["k1"], [], [], [], [], []])
        #expect(list.map(\.title) == ["first", "changed", "", "", "", ""])
        #expect(list[0].byteRange == ByteRange(length: 1000, offset: 0))
        #expect(list[1].byteRange == nil)
        #expect(list.map(\.isDiscontinuity) == [false, true, true, false, false, false])
        // Derived values wait for recomputeTimeline().
        #expect(list.map(\.discontinuitySequence) == [0, 0, 1, 1, 1, 1])
        #expect(try richSegments() != list)
    }

    @Test func insertedSegmentsKeepNumbersUntilTheTimelineIsRecomputed() throws {
        var (playlist, _) = try media(richText)
        playlist.segments.insert(MediaSegment(uri: "intro.ts", duration: MediaTime(seconds: 2)), at: 2)
        #expect(playlist.segments.map(\.mediaSequenceNumber) == [100, 101, 0, 102, 103, 104, 105])
        #expect(!playlist.checkInvariants())
        playlist.recomputeTimeline()
        #expect(playlist.checkInvariants())
        #expect(playlist.segments.map(\.mediaSequenceNumber) == Array(100...106))
        #expect(playlist.segments.map(\.discontinuitySequence) == [0, 0, 0, 1, 1, 1, 1])
        #expect(playlist.segments[3].startTime == time("14.012"))
        #expect(playlist.segments[2].programDateTime == DateTime(iso8601: "2026-01-01T00:00:12.012Z"))
    }

    @Test func timesThatAreNotDecimalsKeepTheirExactValue() {
        var playlist = MediaPlaylist(targetDuration: 10)
        let durations = [
            MediaTime(value: 1001, timescale: 30000), MediaTime(value: 1 << 62, timescale: 1_000_000_000),
            MediaTime(value: 6006, timescale: 1000), MediaTime(value: -5, timescale: 10), .indefinite,
            MediaTime(value: 9, timescale: 1),
        ]
        playlist.segments = MediaSegmentList(durations.enumerated().map { MediaSegment(uri: "\($0.offset).ts", duration: $0.element) })
        playlist.recomputeTimeline()
        #expect(playlist.segments.checkInvariants())
        #expect(playlist.segments.map(\.duration.value) == durations.map(\.value))
        #expect(playlist.segments.map(\.duration.timescale) == durations.map(\.timescale))
        #expect(playlist.segments[1].startTime == MediaTime(value: 1001, timescale: 30000))
        #expect(playlist.segments[2].startTime == durations[0] + durations[1])
        #expect(playlist.segments[5].startTime == .indefinite)
    }

    @Test func listsEqualByContentNotBySource() throws {
        let lf = try media("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n").0.segments
        let crlf = try media("#EXTM3U\r\n#EXT-X-TARGETDURATION:6\r\n#EXTINF:6.000,\r\na.ts\r\n#EXTINF:6.0,\r\nb.ts\r\n").0.segments
        #expect(lf == crlf)
        #expect(lf.hashValue == crlf.hashValue)
        let built: MediaSegmentList = [MediaSegment(uri: "a.ts", duration: MediaTime(seconds: 6)),
                                       MediaSegment(uri: "b.ts", duration: MediaTime(seconds: 6))]
        var renumbered = lf
        renumbered.replaceSubrange(0..<2, with: built)
        #expect(renumbered != lf, "the built segments have sequence number 0 and start at 0")
        #expect(built.description == Array(built).description)
    }
}

/// The parser reads most segments through a fast path; these mix such segments with ones it
/// must leave to the general path, and check that both give the same model and diagnostics.
@Suite struct PlainSegmentTests {
    @Test func plainSegmentsBetweenIrregularOnes() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:6
            #EXT-X-DEFINE:NAME="host",VALUE="cdn"
            #EXTINF:6.006,
            a.ts
            #EXTINF:6.006,
            b.ts
            #EXTINF:6.006,titled
            c.ts
            #EXTINF:6.006,

            d.ts
            #EXTINF:6.006
            e.ts
            #EXTINF:6.006,
            https://{$host}.example/f.ts
            #EXTINF:7.5,
            g.ts
            #EXTINF:-1,
            h.ts
            #EXTINF:6.006,
            # comment
            i.ts
            #EXTINF:6.006,
            #EXT-X-GAP
            j.ts
            #EXTINF:6.006,
            k.ts
            """)
        #expect(playlist.segments.map(\.uri) == ["a.ts", "b.ts", "c.ts", "d.ts", "e.ts", "https://cdn.example/f.ts", "g.ts",
                                                  "h.ts", "i.ts", "j.ts", "k.ts"])
        #expect(playlist.segments.map(\.title) == ["", "", "titled", "", "", "", "", "", "", "", ""])
        #expect(playlist.segments.map(\.duration) == [time("6.006"), time("6.006"), time("6.006"), time("6.006"),
                                                       time("6.006"), time("6.006"), time("7.5"), .zero, time("6.006"),
                                                       time("6.006"), time("6.006")])
        #expect(playlist.segments.map(\.isGap) == [false, false, false, false, false, false, false, false, false, true, false])
        #expect(playlist.segments[8].precedingLines == [PreservedLine("# comment")])
        #expect(playlist.segments.map(\.mediaSequenceNumber) == Array(0...10))
        #expect(playlist.segments[10].startTime == time("55.548"))
        #expect(diagnostics.map(\.rule) == [.segmentExceedsTargetDuration, .invalidTagValue])
        #expect(diagnostics.map(\.line) == [18, 20])
        #expect(playlist.checkInvariants())
    }

    @Test func repeatedDurationTextsAreExact() throws {
        let (playlist, diagnostics) = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:11
            #EXTINF:1.5,
            a.ts
            #EXTINF:1.50,
            b.ts
            #EXTINF:1.5,
            c.ts
            #EXTINF:10.5,
            d.ts
            #EXTINF:1.5,
            e.ts
            #EXTINF:6.000000001,
            f.ts
            #EXTINF:6.000000001,
            g.ts
            #EXTINF:6,
            h.ts
            """)
        #expect(playlist.segments.map(\.duration) == [time("1.5"), time("1.5"), time("1.5"), time("10.5"), time("1.5"),
                                                       time("6.000000001"), time("6.000000001"), MediaTime(seconds: 6)])
        #expect(playlist.segments.map(\.duration.timescale) == [10, 10, 10, 10, 10, 1_000_000_000, 1_000_000_000, 1])
        #expect(diagnostics.map(\.rule) == [.versionTooLow])
    }

    /// The plain path looks for `{` in the same scan as the line's end, a word at a time: a
    /// reference at the start, inside or at the end of the word holding the newline, past the
    /// first word, or in a last line without a newline must still send the URI to substitution.
    /// Each URI follows a plain segment, so that the plain path is the one reading it.
    @Test(arguments: ["\n", "\r\n"], ["{$v}.ts", "b{$v}.ts", "bbbbbbb{$v}", "segments/long/path/{$v}.ts", "{$v}"])
    func aVariableInAPlainSegmentsURIIsSubstituted(lineEnd: String, uri: String) throws {
        let expected = uri.replacing("{$v}", with: "x")
        for isLastLine in [false, true] {
            let lines = ["#EXTM3U", "#EXT-X-VERSION:8", "#EXT-X-TARGETDURATION:6", "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"x\"",
                         "#EXTINF:6,", "a.ts", "#EXTINF:6,", uri] + (isLastLine ? [] : ["#EXTINF:6,", "c.ts"])
            let (playlist, diagnostics) = try media(lines.joined(separator: lineEnd))
            #expect(playlist.segments.map(\.uri) == ["a.ts", expected] + (isLastLine ? [] : ["c.ts"]))
            #expect(diagnostics.isEmpty)
        }
    }

    @Test func aPlaylistWithoutTargetDurationStillReportsLongSegments() throws {
        let (playlist, diagnostics) = try media("#EXTM3U\n#EXTINF:6,\na.ts\n#EXTINF:8,\nb.ts\n#EXT-X-TARGETDURATION:6\n")
        #expect(playlist.segments.count == 2)
        #expect(diagnostics.map(\.rule) == [.segmentExceedsTargetDuration])
        #expect(diagnostics.map(\.line) == [6])
    }
}
