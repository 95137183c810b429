import Loader
import MediaTime
import Playlist
import Testing

@Suite struct LoadedSegmentsTests {
    @Test func segmentsInOrderMergeIntoOneExactRange() {
        var loaded = LoadedSegments()
        let playlist = mediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:7
            #EXTINF:6.006,
            a.ts
            #EXTINF:6.006,
            b.ts
            #EXTINF:3.003,
            c.ts
            #EXT-X-ENDLIST
            """)
        for segment in playlist.segments { loaded.add(segment.timeRange, bytes: 100) }
        #expect(loaded.ranges == msRanges((0, 15_015)))
        #expect(loaded.bytesAhead == 300)
        #expect(loaded.checkInvariants())
    }

    @Test func bytesAheadFollowTheMovingPlayhead() {
        var loaded = LoadedSegments()
        loaded.add(msRange(0, 2000), bytes: 10)
        loaded.add(msRange(2000, 4000), bytes: 20)
        loaded.add(msRange(8000, 10_000), bytes: 40)
        #expect(loaded.bytesAhead == 70)
        loaded.advance(playhead: .ms(2000))
        #expect(loaded.bytesAhead == 60)
        loaded.advance(playhead: .ms(9000))
        #expect(loaded.bytesAhead == 40)
        // Behind the playhead: loaded, but not ahead.
        loaded.add(msRange(4000, 6000), bytes: 1000)
        #expect(loaded.bytesAhead == 40)
        #expect(loaded.ranges == msRanges((0, 6000), (8000, 10_000)))
        #expect(loaded.checkInvariants())
    }

    @Test func trimmingKeepsWhatIsInsideTheWindow() {
        var loaded = LoadedSegments()
        loaded.add(msRange(0, 4000), bytes: 1)
        loaded.add(msRange(6000, 8000), bytes: 1)
        loaded.trim(before: .ms(3000))
        #expect(loaded.ranges == msRanges((3000, 4000), (6000, 8000)))
        loaded.trim(before: .ms(7000))
        #expect(loaded.ranges == msRanges((7000, 8000)))
    }
}

@Suite struct SegmentSchedulerTests {
    /// Ten 2-second segments; segment 4 is a gap.
    static let playlist = mediaPlaylist(
        "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:2\n"
            + (0..<10).map { index in (index == 4 ? "#EXT-X-GAP\n" : "") + "#EXTINF:2,\nsegment\(index).ts\n" }.joined()
            + "#EXT-X-ENDLIST\n")

    /// Loads what the scheduler asks for, one segment at a time, until it asks for nothing.
    func loadAll(
        _ scheduler: inout SegmentScheduler, _ loaded: inout LoadedSegments, anchor: MediaTime, limit: MediaTime,
        failed: Set<Int> = [], offset: MediaTime = .zero
    ) -> [Int] {
        var order: [Int] = []
        while let index = scheduler.nextSegment(
            in: Self.playlist, offset: offset, anchor: anchor, limit: limit, loaded: loaded, failed: failed) {
            order.append(index)
            let segment = Self.playlist.segments[index]
            loaded.add(TimeRange(start: offset + segment.startTime, duration: segment.duration), bytes: 1)
            if order.count > 20 { break }
        }
        return order
    }

    @Test func loadsInOrderFromTheAnchorUpToTheLimitSkippingGaps() {
        var scheduler = SegmentScheduler()
        var loaded = LoadedSegments()
        #expect(loadAll(&scheduler, &loaded, anchor: .ms(3000), limit: .ms(12_000)) == [1, 2, 3, 5])
        // The limit moved on: loading continues where it stopped.
        #expect(loadAll(&scheduler, &loaded, anchor: .ms(5000), limit: .ms(16_000)) == [6, 7])
        #expect(loaded.ranges == msRanges((2000, 8000), (10_000, 16_000)))
    }

    @Test func aSeekBackLoadsWhatIsMissingAndSkipsWhatIsLoaded() {
        var scheduler = SegmentScheduler()
        var loaded = LoadedSegments()
        _ = loadAll(&scheduler, &loaded, anchor: .ms(8000), limit: .ms(14_000))  // 5, 6
        scheduler.reset()
        #expect(loadAll(&scheduler, &loaded, anchor: .zero, limit: .indefinite) == [0, 1, 2, 3, 7, 8, 9])
        #expect(loaded.ranges == msRanges((0, 8000), (10_000, 20_000)))
    }

    @Test func failedSegmentsAreSkipped() {
        var scheduler = SegmentScheduler()
        var loaded = LoadedSegments()
        #expect(loadAll(&scheduler, &loaded, anchor: .zero, limit: .ms(8000), failed: [1, 2]) == [0, 3])
    }

    @Test func theOffsetPlacesThePlaylistOnTheItemTimeline() {
        var scheduler = SegmentScheduler()
        var loaded = LoadedSegments()
        #expect(loadAll(&scheduler, &loaded, anchor: .ms(105_000), limit: .ms(110_000), offset: .ms(100_000)) == [2, 3])
        #expect(loaded.ranges == msRanges((104_000, 108_000)))
    }

    @Test func anAnchorPastTheEndAsksForNothing() {
        var scheduler = SegmentScheduler()
        var loaded = LoadedSegments()
        #expect(loadAll(&scheduler, &loaded, anchor: .ms(25_000), limit: .indefinite).isEmpty)
    }
}
