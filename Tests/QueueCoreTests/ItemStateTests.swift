import MediaTime
import QueueCore
import Testing

@Suite struct ItemStatusTests {
    @Test func statusFollowsTheLoadingWindowAndTheReports() {
        var harness = Harness(["a", "b", "c"])
        #expect(harness.player.item(ItemID("a"))?.status == .loading)
        #expect(harness.player.item(ItemID("b"))?.status == .loading)
        #expect(harness.player.item(ItemID("c"))?.status == .unknown)
        #expect(harness.player.loadingItemIDs == [ItemID("a"), ItemID("b")])
        harness.ready("b")
        #expect(harness.notifications.contains(.statusChanged(ItemID("b"), .readyToPlay)))
        #expect(harness.effects.contains(.persist(.item(ItemID("b")))))
        // b leaves the window: stays ready, drops what was loaded.
        harness.run { player throws(QueueRefusal) in try player.move(ItemID("b"), after: ItemID("c")) }
        #expect(harness.effects.contains(.stopLoading(ItemID("b"))))
        #expect(harness.player.item(ItemID("b"))?.status == .readyToPlay)
        #expect(harness.player.item(ItemID("b"))?.loadedTimeRanges.isEmpty == true)
        // c entered the window and is loading; moving it out puts it back to unknown.
        #expect(harness.player.item(ItemID("c"))?.status == .loading)
        harness.run { player throws(QueueRefusal) in try player.move(ItemID("c"), after: nil) }
        #expect(harness.player.item(ItemID("c"))?.status == .unknown)
        #expect(harness.notifications.contains(.statusChanged(ItemID("c"), .unknown)))
    }

    @Test(arguments: [
        LoaderReport.readyToPlay(duration: seconds(5), kind: .unknown),
        .readyToPlay(duration: .invalid, kind: .hls),
        .durationChanged(seconds(-1)),
        .downloadBitrate(-5),
        .downloadBitrate(.infinity),
        .variantSwitched(indicatedBitrate: .nan, uri: "x"),
        .mediaRequest(bytes: -1, transferDuration: .zero, mediaDuration: .zero),
        .mediaRequest(bytes: 1, transferDuration: .indefinite, mediaDuration: .zero),
        .loadedTimeRanges(TimeRangeSet([range(-2, 3)])),
        .segmentLoaded(range(-2, 3)),
    ])
    func invalidReportsAreRefused(report: LoaderReport) {
        var harness = Harness(["a"])
        #expect(harness.refuse { player throws(QueueRefusal) in try player.report(report, for: ItemID("a")) } == .invalidReport)
    }

    @Test func reportsForItemsThatLeftAreRefused() {
        var harness = Harness(["a"])
        #expect(harness.refuse { player throws(QueueRefusal) in
            try player.report(.downloadBitrate(1), for: ItemID("gone"))
        } == .notInQueue)
    }

    @Test(arguments: [
        // loaded end, playhead, preferred buffer, measured, indicated → empty, full, likely
        (Int64(0), Int64(0), Int64(0), nil as Double?, nil as Double?, true, false, false),
        (1, 0, 0, nil, nil, false, false, false),
        (2, 0, 0, nil, nil, false, false, true),
        (30, 0, 0, nil, nil, false, true, true),
        (8, 0, 8, nil, nil, false, true, true),
        (8, 0, 8, 1e6, 2e6, false, true, false),
        (8, 0, 0, 3e6, 2e6, false, false, true),
        (60, 58, 0, nil, 2e6, false, true, true),
        (60, 60, 0, nil, nil, true, true, true),
    ])
    func bufferFlags(
        loadedEnd: Int64, playhead: Int64, preferred: Int64, measured: Double?, indicated: Double?,
        empty: Bool, full: Bool, likely: Bool
    ) {
        var harness = Harness(["a"])
        harness.ready("a", duration: 60, loaded: loadedEnd)
        if loadedEnd == 0 { harness.report(.loadedTimeRanges(TimeRangeSet()), for: ItemID("a")) }
        if let measured { harness.report(.downloadBitrate(measured), for: ItemID("a")) }
        if let indicated { harness.report(.variantSwitched(indicatedBitrate: indicated, uri: "v"), for: ItemID("a")) }
        harness.run { player throws(QueueRefusal) in
            try player.setPreferences(PlayerItem.Preferences(preferredForwardBufferDuration: seconds(preferred)), of: ItemID("a"))
        }
        if playhead > 0 { harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(playhead)) } }
        let status = harness.player.bufferStatus(of: ItemID("a"))
        #expect(status?.isPlaybackBufferEmpty == empty)
        #expect(status?.isPlaybackBufferFull == full)
        #expect(status?.isPlaybackLikelyToKeepUp == likely)
        #expect(status?.forwardBufferDuration == seconds(max(0, min(loadedEnd, 60) - playhead)))
    }

    @Test(arguments: [
        PlayerItem.Preferences(preferredForwardBufferDuration: seconds(-1)),
        PlayerItem.Preferences(preferredPeakBitRate: -1),
        PlayerItem.Preferences(forwardPlaybackEndTime: .indefinite),
        PlayerItem.Preferences(reversePlaybackEndTime: seconds(-3)),
        PlayerItem.Preferences(forwardPlaybackEndTime: seconds(5), reversePlaybackEndTime: seconds(5)),
    ])
    func invalidPreferencesAreRefused(preferences: PlayerItem.Preferences) {
        var harness = Harness(["a"])
        #expect(harness.refuse { player throws(QueueRefusal) in try player.setPreferences(preferences, of: ItemID("a")) } == .invalidPreference)
    }
}

@Suite struct MediaSelectionTests {
    static let information = MediaInformation(
        variants: [Variant(uri: "low.m3u8", bandwidth: 300_000), Variant(uri: "high.m3u8", bandwidth: 900_000)],
        mediaSelectionGroups: [
            MediaSelectionGroup(characteristic: .audible, options: [
                MediaSelectionOption(name: "English", language: "en", isDefault: true, isAutoselect: true),
                MediaSelectionOption(name: "Français", language: "fr"),
            ]),
            MediaSelectionGroup(characteristic: .legible, options: [MediaSelectionOption(name: "English CC", language: "en")]),
        ],
        chapters: [Chapter(title: "Opening", timeRange: range(0, 4))])

    @Test func selectionsApplyAndAreValidatedOnceTheMediaIsKnown() {
        var harness = Harness(["a"])
        // Before the media information is known, a name is kept as asked.
        harness.run { player throws(QueueRefusal) in try player.selectMediaOption(.option("Deutsch"), for: .audible, of: ItemID("a")) }
        harness.ready("a")
        harness.report(.mediaInformation(Self.information), for: ItemID("a"))
        var item = harness.player.item(ItemID("a"))!
        #expect(item.currentMediaSelection[.audible]?.name == "English", "an unknown name falls back to the default")
        #expect(item.currentMediaSelection[.legible] == nil, "subtitles without a default are off")
        harness.run { player throws(QueueRefusal) in try player.selectMediaOption(.option("Français"), for: .audible, of: ItemID("a")) }
        harness.run { player throws(QueueRefusal) in try player.selectMediaOption(.option("English CC"), for: .legible, of: ItemID("a")) }
        item = harness.player.item(ItemID("a"))!
        #expect(item.currentMediaSelection[.audible]?.language == "fr")
        #expect(item.currentMediaSelection[.legible]?.name == "English CC")
        #expect(harness.effects.contains(.applyLoadingPreferences(ItemID("a"))))
        #expect(item.mediaInformation.variants.count == 2 && item.mediaInformation.chapters.first?.title == "Opening")
        harness.run { player throws(QueueRefusal) in try player.selectMediaOption(.off, for: .legible, of: ItemID("a")) }
        #expect(harness.player.item(ItemID("a"))!.currentMediaSelection[.legible] == nil)
    }

    @Test(arguments: [
        (MediaSelection.option("Deutsch"), MediaCharacteristic.audible, QueueRefusal.Reason.unknownMediaSelectionOption),
        (.off, .audible, .emptySelectionNotAllowed),
    ])
    func refusals(selection: MediaSelection, characteristic: MediaCharacteristic, expected: QueueRefusal.Reason) {
        var harness = Harness(["a"])
        harness.ready("a")
        harness.report(.mediaInformation(Self.information), for: ItemID("a"))
        #expect(harness.refuse { player throws(QueueRefusal) in
            try player.selectMediaOption(selection, for: characteristic, of: ItemID("a"))
        } == expected)
    }

    @Test func aMissingGroupIsRefused() {
        var harness = Harness(["a"])
        harness.ready("a")
        harness.report(.mediaInformation(MediaInformation(mediaSelectionGroups: [Self.information.mediaSelectionGroups[0]])), for: ItemID("a"))
        #expect(harness.refuse { player throws(QueueRefusal) in
            try player.selectMediaOption(.option("English CC"), for: .legible, of: ItemID("a"))
        } == .unknownMediaSelectionGroup)
    }
}

@Suite struct LogTests {
    @Test func theAccessLogHasOneEntryPerUninterruptedPeriod() throws {
        var harness = Harness(["a"])
        harness.report(.mediaRequest(bytes: 500_000, transferDuration: milliseconds(500), mediaDuration: seconds(6)), for: ItemID("a"))
        harness.ready("a", duration: 60)
        harness.report(.variantSwitched(indicatedBitrate: 800_000, uri: "https://media.test/a/low.m3u8"), for: ItemID("a"))
        let requested = harness.clock.wallClockNow()
        harness.clock.advance(by: .seconds(1))
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(4))
        var log = harness.player.currentItem!.accessLog
        #expect(log.count == 2, "the preload entry, then the variant switch")
        #expect(log[0].numberOfMediaRequests == 1 && log[0].numberOfBytesTransferred == 500_000)
        #expect(log[0].observedBitrate == 8_000_000)
        #expect(log[0].segmentsDownloadedDuration == seconds(6))
        #expect(log[0].playbackType == nil && log[1].playbackType == .vod)
        #expect(log[1].uri == "https://media.test/a/low.m3u8" && log[1].indicatedBitrate == 800_000)
        #expect(log[1].playbackStartDate == WallClockDate(nanosecondsSince1970: requested.nanosecondsSince1970 + 1_000_000_000))
        #expect(log[1].durationWatched == seconds(4))
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(30)) }
        harness.wait(.seconds(2))
        log = harness.player.currentItem!.accessLog
        #expect(log.count == 3, "a seek opens a new entry")
        #expect(log[2].playbackStartOffset == seconds(30) && log[2].durationWatched == seconds(2))
        #expect(log[2].uri == "https://media.test/a/low.m3u8")
        #expect(harness.notifications.filter { $0 == .newAccessLogEntry(ItemID("a")) }.count == 3)
    }

    @Test func startupTimeRunsFromThePlayRequestToPlayback() {
        var harness = Harness(["a"])
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.milliseconds(750))
        harness.ready("a", duration: 60)
        #expect(harness.player.timeControlStatus == .playing)
        #expect(harness.player.currentItem?.accessLog.last?.startupTime == milliseconds(750))
    }

    @Test func theErrorLogIsDatedByTheInjectedClock() {
        var harness = Harness(["a"])
        harness.clock.advance(by: .seconds(3))
        let date = harness.clock.wallClockNow()
        harness.report(.errorLogEntry(uri: "https://media.test/a/3.ts", statusCode: 404, domain: "http", comment: "segment missing"),
                       for: ItemID("a"))
        let entry = harness.player.item(ItemID("a"))?.errorLog.last
        #expect(entry == ErrorLogEvent(date: date, uri: "https://media.test/a/3.ts", statusCode: 404, domain: "http", comment: "segment missing"))
        #expect(harness.notifications.contains(.newErrorLogEntry(ItemID("a"))))
    }

    @Test func logsAreBounded() {
        var harness = Harness(["a"], configuration: QueueConfiguration(logLimit: 3))
        for code in 0..<5 {
            harness.report(.errorLogEntry(uri: nil, statusCode: code, domain: "http", comment: ""), for: ItemID("a"))
        }
        #expect(harness.player.item(ItemID("a"))?.errorLog.map(\.statusCode) == [2, 3, 4])
    }
}

@Suite struct ObserverTests {
    @Test func periodicObserversFireOnCrossingsJumpsAndStartStop() throws {
        var harness = Harness(["a"])
        harness.ready("a", duration: 60)
        let observer = try harness.player.addPeriodicTimeObserver(interval: milliseconds(500))
        harness.run { player throws(QueueRefusal) in try player.play() }
        #expect(harness.notifications.contains(.periodicTime(observer, ItemID("a"), .zero)), "playback started")
        harness.clearRecords()
        harness.wait(.milliseconds(400))
        #expect(!harness.notifications.contains { if case .periodicTime = $0 { true } else { false } }, "0.4 s crosses no multiple of 0.5 s")
        harness.wait(.milliseconds(200))
        #expect(harness.notifications.contains(.periodicTime(observer, ItemID("a"), milliseconds(600))))
        harness.clearRecords()
        harness.wait(.seconds(3))
        let fired = harness.notifications.filter { if case .periodicTime = $0 { true } else { false } }
        #expect(fired == [.periodicTime(observer, ItemID("a"), milliseconds(3600))], "one per step, with the time reached")
        harness.clearRecords()
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(20)) }
        #expect(harness.notifications.contains(.periodicTime(observer, ItemID("a"), seconds(20))))
        try harness.player.removeTimeObserver(observer)
        harness.clearRecords()
        harness.wait(.seconds(2))
        #expect(!harness.notifications.contains { if case .periodicTime = $0 { true } else { false } })
        let removedTwice = #expect(throws: QueueRefusal.self) { try harness.player.removeTimeObserver(observer) }
        #expect(removedTwice?.reason == .unknownTimeObserver)
        let zeroInterval = #expect(throws: QueueRefusal.self) { try harness.player.addPeriodicTimeObserver(interval: .zero) }
        #expect(zeroInterval?.reason == .invalidTimeObserver)
        let noNumericTime = #expect(throws: QueueRefusal.self) { try harness.player.addBoundaryTimeObserver(times: [.indefinite]) }
        #expect(noNumericTime?.reason == .invalidTimeObserver)
    }

    @Test func boundaryObserversFireWhenPlaybackCrossesNotOnSeeks() throws {
        var harness = Harness(["a"])
        harness.ready("a", duration: 60)
        let observer = try harness.player.addBoundaryTimeObserver(times: [seconds(5), seconds(2), seconds(30)])
        harness.run { player throws(QueueRefusal) in try player.play() }
        harness.wait(.seconds(6))
        let crossed = harness.notifications.compactMap { if case .boundaryTimeCrossed(observer, _, let time) = $0 { time } else { nil } }
        #expect(crossed == [seconds(2), seconds(5)])
        harness.clearRecords()
        harness.run { player throws(QueueRefusal) in try player.seek(to: seconds(40)) }
        #expect(!harness.notifications.contains { if case .boundaryTimeCrossed = $0 { true } else { false } })
        harness.run { player throws(QueueRefusal) in try player.setRate(-2) }
        harness.wait(.seconds(6))
        let backward = harness.notifications.compactMap { if case .boundaryTimeCrossed(observer, _, let time) = $0 { time } else { nil } }
        #expect(backward == [seconds(30)], "reverse playback crosses 30 on its way down to 28")
    }
}
