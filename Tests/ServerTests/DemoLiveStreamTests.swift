import Foundation
import MediaTime
import Playlist
import Testing

@testable import Server

@Suite struct DemoLiveStreamTests {
    /// The sample VOD the server loops: playlists/vod-ts, six segments of 2 s.
    static let vod: MediaPlaylist = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("playlists/vod-ts/index.m3u8")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return Playlist.parse(text).playlist.media ?? MediaPlaylist(targetDuration: 2)
    }()

    static func stream() throws -> DemoLiveStream {
        try #require(DemoLiveStream(vod: vod, uriPrefix: "/media/vod-ts/"))
    }

    static func date(_ seconds: Double) -> DateTime {
        DateTime(secondsSince1970: MediaTime(seconds: seconds))
    }

    /// The text at `seconds`, parsed back strictly: the generator's output must be a valid
    /// live media playlist.
    static func published(_ stream: DemoLiveStream, at seconds: Double) throws -> MediaPlaylist {
        let text = stream.text(at: date(seconds))
        let result = Playlist.parse(text, options: ParseOptions(mode: .strict, baseURL: "http://127.0.0.1/demo/live.m3u8"))
        #expect(result.isValid, "\(result.diagnostics)\n\(text)")
        #expect(!text.contains("#EXT-X-ENDLIST"))
        return try #require(result.playlist.media)
    }

    @Test func theSampleLoopIsSixSegmentsOfTwoSeconds() {
        #expect(Self.vod.segments.count == 6)
        #expect(Self.vod.segments.allSatisfy { $0.duration == MediaTime(seconds: 2) })
    }

    @Test func aWindowOfSixPublishedSegmentsEndsBeforeTheOneBeingRecorded() throws {
        // 1,000,001 s after the epoch: segment 500,000 plays (it started at 1,000,000 s).
        let playlist = try Self.published(try Self.stream(), at: 1_000_001)
        #expect(playlist.segments.count == 6)
        #expect(playlist.mediaSequence == 499_994)
        #expect(playlist.targetDuration == 2)
        #expect(playlist.hasEndList == false)
        // 499,994 mod 6 = 2: the window starts at loop segment 2.
        #expect(playlist.segments.map(\.uri) == [2, 3, 4, 5, 0, 1].map { "/media/vod-ts/segment\($0).ts" })
        #expect(playlist.segments.map(\.url).first == "http://127.0.0.1/media/vod-ts/segment2.ts")
        #expect(playlist.segments.map(\.programDateTime) == (0..<6).map { Self.date(999_988 + 2 * Double($0)) })
    }

    @Test func eachWrapIsADiscontinuityAndTheSequenceCountsThoseThatSlidOut() throws {
        let stream = try Self.stream()
        let playlist = try Self.published(stream, at: 1_000_001)
        // Segment 499,998 is loop segment 0: a wrap, the 83,333rd since the epoch.
        #expect(playlist.segments.map(\.isDiscontinuity) == [false, false, false, false, true, false])
        #expect(playlist.discontinuitySequence == 83_332)
        #expect(playlist.segments[4].discontinuitySequence == 83_333)

        // A window starting right at a wrap shows that discontinuity itself.
        let atWrap = try Self.published(stream, at: 1_000_001 + 4)
        #expect(atWrap.mediaSequence == 499_996)
        #expect(atWrap.segments.map(\.isDiscontinuity) == [false, false, true, false, false, false])
        let startingAtWrap = try Self.published(stream, at: 1_000_001 + 8)
        #expect(startingAtWrap.mediaSequence == 499_998)
        #expect(startingAtWrap.segments.first?.isDiscontinuity == true)
        #expect(startingAtWrap.discontinuitySequence == 83_332)
        #expect(startingAtWrap.segments.first?.discontinuitySequence == 83_333)
    }

    @Test func successivePlaylistsSlideAndAgreeOnEverySegmentTheyShare() throws {
        let stream = try Self.stream()
        var previous = try Self.published(stream, at: 1_000_000.5)
        for step in 1...20 {
            // Reloads every 0.7 s: sometimes nothing new, sometimes one segment more.
            let current = try Self.published(stream, at: 1_000_000.5 + 0.7 * Double(step))
            #expect(current.mediaSequence >= previous.mediaSequence)
            #expect(current.mediaSequence - previous.mediaSequence <= 1)
            for segment in current.segments {
                guard let same = previous.segments.first(where: { $0.mediaSequenceNumber == segment.mediaSequenceNumber }) else { continue }
                #expect(same.uri == segment.uri)
                #expect(same.programDateTime == segment.programDateTime)
                #expect(same.discontinuitySequence == segment.discontinuitySequence)
            }
            previous = current
        }
        #expect(previous.mediaSequence == 500_001)
    }

    @Test func theWindowIsShorterJustAfterTheEpoch() throws {
        let stream = try Self.stream()
        #expect(stream.playlist(at: Self.date(1)).segments.isEmpty)
        let early = try Self.published(stream, at: 5)
        #expect(early.mediaSequence == 0)
        #expect(early.segments.map(\.uri) == ["/media/vod-ts/segment0.ts", "/media/vod-ts/segment1.ts"])
        #expect(early.discontinuitySequence == 0)
    }

    @Test func segmentsOfDifferentLengthsKeepAnExactTimeline() throws {
        let loop = [
            DemoLiveStream.Segment(uri: "a.ts", duration: MediaTime(value: 2_020_133, timescale: 1_000_000)),
            DemoLiveStream.Segment(uri: "b.ts", duration: MediaTime(value: 1, timescale: 1)),
            DemoLiveStream.Segment(uri: "c.ts", duration: MediaTime(value: 3, timescale: 2)),
        ]
        let stream = try #require(DemoLiveStream(loop: loop, windowSegmentCount: 3))
        // The loop lasts 4.520133 s; 10 loops later, 2.5 s in, segment b plays.
        let playlist = stream.playlist(at: DateTime(secondsSince1970: MediaTime(value: 47_701_330, timescale: 1_000_000)))
        #expect(playlist.segments.map(\.uri) == ["b.ts", "c.ts", "a.ts"])
        #expect(playlist.segments.map(\.mediaSequenceNumber) == [28, 29, 30])
        #expect(playlist.segments.last?.programDateTime == DateTime(secondsSince1970: MediaTime(value: 45_201_330, timescale: 1_000_000)))
        #expect(playlist.targetDuration == 2)
    }

    @Test func anEmptyLoopOrAZeroDurationIsRefused() {
        #expect(DemoLiveStream(loop: []) == nil)
        #expect(DemoLiveStream(loop: [DemoLiveStream.Segment(uri: "a.ts", duration: .zero)]) == nil)
        #expect(DemoLiveStream(loop: [DemoLiveStream.Segment(uri: "a.ts", duration: .indefinite)]) == nil)
    }
}
