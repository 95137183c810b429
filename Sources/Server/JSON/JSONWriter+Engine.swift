import Engine
import Foundation
import MediaTime
import Playlist

// The API's resources as docs/API.md shows them, written from the Engine's values. Member
// order follows the documentation; times are seconds (see `seconds(_:)`), dates are ISO 8601
// UTC with milliseconds.

extension JSONWriter {
    // MARK: - Queues

    /// A queue snapshot. `eventQueueID` adds a leading `queueId` member, as every event's
    /// data has one; `seekID` adds the `seekId` a seek command answers with.
    mutating func queueSnapshot(_ queue: QueueState, eventQueueID: Bool = false, seekID: SeekID? = nil) {
        beginObject()
        if eventQueueID { member("queueId", queue.id.description) }
        member("id", queue.id.description)
        member("name", queue.name)
        key("settings")
        queueSettings(queue.settings)
        member("rate", queue.rate)
        member("timeControlStatus", queue.timeControlStatus.rawValue)
        member("reasonForWaitingToPlay", queue.reasonForWaitingToPlay?.rawValue)
        member("currentItemId", queue.currentItemID?.rawValue)
        key("currentIndex")
        if let index = queue.currentIndex { integer(index) } else { null() }
        member("currentTime", seconds: queue.currentTime)
        member("serverTime", Self.isoDate(queue.serverTime))
        // Events about a long queue list only its first items; itemCount says how many.
        member("itemCount", queue.itemCount)
        key("items")
        beginArray()
        for item in queue.items { itemSummary(item) }
        endArray()
        key("history")
        beginArray()
        for item in queue.history { itemSummary(item) }
        endArray()
        key("lastEventId")
        integer(queue.lastEventID.rawValue)
        if let seekID {
            key("seekId")
            integer(seekID.rawValue)
        }
        endObject()
    }

    mutating func queueSettings(_ settings: QueueSettings) {
        beginObject()
        member("actionAtItemEnd", settings.actionAtItemEnd.rawValue)
        member("consume", settings.consume)
        key("loop")
        loopMode(settings.loopMode)
        member("defaultRate", settings.defaultRate)
        member("automaticallyWaitsToMinimizeStalling", settings.automaticallyWaitsToMinimizeStalling)
        endObject()
    }

    mutating func loopMode(_ mode: LoopMode) {
        beginObject()
        switch mode {
        case .off:
            member("mode", "off")
        case .queue:
            member("mode", "queue")
        case .item(let loop):
            member("mode", "item")
            itemLoopMembers(loop)
        }
        endObject()
    }

    private mutating func itemLoopMembers(_ loop: ItemLoop) {
        key("plays")
        if let plays = loop.plays { integer(plays) } else { null() }
        key("range")
        if let range = loop.timeRange { timeRange(range) } else { null() }
    }

    mutating func queueSummary(_ queue: QueueSummary) {
        beginObject()
        member("id", queue.id.description)
        member("name", queue.name)
        member("itemCount", queue.itemCount)
        member("currentItemId", queue.currentItemID?.rawValue)
        member("timeControlStatus", queue.timeControlStatus.rawValue)
        member("rate", queue.rate)
        endObject()
    }

    // MARK: - Items

    /// The summary of an item, as queue snapshots list it.
    mutating func itemSummary(_ state: ItemState) {
        beginObject()
        itemSummaryMembers(state)
        endObject()
    }

    /// The full item: the summary's members, then preferences, loop, media information,
    /// live figures and logs.
    mutating func item(_ state: ItemState) {
        let item = state.item
        beginObject()
        itemSummaryMembers(state)
        key("preferences")
        beginObject()
        member("preferredForwardBufferDuration", seconds: item.preferences.preferredForwardBufferDuration)
        member("preferredPeakBitRate", item.preferences.preferredPeakBitRate)
        member("forwardPlaybackEndTime", seconds: item.preferences.forwardPlaybackEndTime)
        member("reversePlaybackEndTime", seconds: item.preferences.reversePlaybackEndTime)
        endObject()
        key("loop")
        if let loop = item.loop {
            beginObject()
            itemLoopMembers(loop)
            endObject()
        } else {
            null()
        }
        key("variants")
        beginArray()
        for variant in item.mediaInformation.variants {
            beginObject()
            member("bandwidth", variant.bandwidth)
            key("averageBandwidth")
            if let average = variant.averageBandwidth { integer(average) } else { null() }
            member("codecs", variant.codecs)
            member("resolution", variant.resolution.map { "\($0.width)x\($0.height)" })
            member("frameRate", variant.frameRate)
            member("url", variant.uri)
            member("isCurrent", variant.uri == state.currentVariantURI)
            endObject()
        }
        endArray()
        key("mediaSelectionGroups")
        beginArray()
        let selection = item.currentMediaSelection
        for group in item.mediaInformation.mediaSelectionGroups {
            beginObject()
            member("characteristic", group.characteristic.rawValue)
            key("options")
            beginArray()
            for option in group.options {
                beginObject()
                member("name", option.name)
                member("language", option.language)
                member("isDefault", option.isDefault)
                member("url", option.uri)
                endObject()
            }
            endArray()
            member("selected", selection[group.characteristic]?.name)
            endObject()
        }
        endArray()
        key("chapters")
        beginArray()
        for chapter in item.mediaInformation.chapters {
            beginObject()
            member("title", chapter.title)
            member("start", seconds: chapter.timeRange.start)
            member("end", seconds: chapter.timeRange.end)
            endObject()
        }
        endArray()
        key("linearPlaybackRanges")
        beginArray()
        for range in item.mediaInformation.linearPlaybackRanges {
            beginObject()
            member("start", seconds: range.timeRange.start)
            member("end", seconds: range.timeRange.end)
            member("label", range.label)
            endObject()
        }
        endArray()
        key("live")
        if let live = state.live { self.live(live) } else { null() }
        key("accessLog")
        beginArray()
        for record in state.accessLog { accessLogEntry(record.event, cacheHits: record.numberOfCacheHits) }
        endArray()
        key("errorLog")
        beginArray()
        for entry in item.errorLog { errorLogEntry(entry) }
        endArray()
        endObject()
    }

    private mutating func itemSummaryMembers(_ state: ItemState) {
        let item = state.item
        member("id", item.id.rawValue)
        member("url", item.url)
        member("title", item.title)
        member("kind", Self.kindName(item.kind))
        switch item.status {
        case .unknown: member("status", "unknown")
        case .loading: member("status", "loading")
        case .readyToPlay: member("status", "readyToPlay")
        case .failed: member("status", "failed")
        }
        key("error")
        if let failure = item.failure { self.failure(failure) } else { null() }
        member("duration", seconds: item.duration)
        member("currentTime", seconds: item.currentTime)
        key("loadedTimeRanges")
        timeRanges(item.loadedTimeRanges)
        key("seekableTimeRanges")
        timeRanges(item.seekableTimeRanges)
        key("buffer")
        beginObject()
        member("isPlaybackLikelyToKeepUp", state.buffer.isPlaybackLikelyToKeepUp)
        member("isPlaybackBufferEmpty", state.buffer.isPlaybackBufferEmpty)
        member("isPlaybackBufferFull", state.buffer.isPlaybackBufferFull)
        member("forwardBufferSeconds", seconds: state.buffer.forwardBufferDuration)
        endObject()
        member("isLive", item.isLive)
        member("loopCount", item.loopCount)
    }

    static func kindName(_ kind: PlayerItem.Kind) -> String {
        switch kind {
        case .hls: "hls"
        case .mediaFile: "media"
        case .unknown: "unknown"
        }
    }

    mutating func failure(_ failure: ItemFailure) {
        beginObject()
        member("domain", failure.domain)
        member("code", failure.code)
        member("message", failure.message)
        endObject()
    }

    mutating func live(_ live: LiveState) {
        let status = live.status
        beginObject()
        member("liveEdge", seconds: status.liveEdge)
        member("latency", seconds: live.latency)
        member("wallClockLatency", seconds: status.wallClockLatency)
        member("targetLatency", seconds: status.targetLatency)
        member("mediaSequence", status.mediaSequence)
        member("windowLength", seconds: status.windowLength)
        member("playlistAge", seconds: status.playlistAge)
        member("targetDuration", seconds: status.targetDuration)
        member("reloadInterval", seconds: status.reloadInterval)
        member("lastReloadAt", Self.isoDate(status.lastReloadAt))
        member("isStale", status.isStale)
        key("health")
        beginArray()
        for record in live.health {
            beginObject()
            member("check", record.check)
            member("since", Self.isoDate(record.since))
            member("message", record.message)
            endObject()
        }
        endArray()
        endObject()
    }

    /// An access-log entry; `cacheHits` is nil in events, which carry the queue core's entry
    /// alone.
    mutating func accessLogEntry(_ entry: AccessLogEvent, cacheHits: Int?) {
        beginObject()
        member("playbackStartDate", entry.playbackStartDate.map(Self.isoDate))
        member("uri", entry.uri)
        member("playbackType", entry.playbackType?.rawValue)
        member("numberOfMediaRequests", entry.numberOfMediaRequests)
        key("numberOfBytesTransferred")
        integer(entry.numberOfBytesTransferred)
        member("transferDuration", seconds: entry.transferDuration)
        member("observedBitrate", entry.observedBitrate)
        member("indicatedBitrate", entry.indicatedBitrate)
        member("numberOfStalls", entry.numberOfStalls)
        member("segmentsDownloadedDuration", seconds: entry.segmentsDownloadedDuration)
        member("durationWatched", seconds: entry.durationWatched)
        member("startupTime", seconds: entry.startupTime)
        key("numberOfCacheHits")
        if let cacheHits { integer(cacheHits) } else { null() }
        endObject()
    }

    mutating func errorLogEntry(_ entry: ErrorLogEvent) {
        beginObject()
        member("date", Self.isoDate(entry.date))
        member("uri", entry.uri)
        member("statusCode", entry.statusCode)
        member("domain", entry.domain)
        member("comment", entry.comment)
        endObject()
    }

    mutating func playbackStatus(_ status: PlaybackStatus) {
        member("timeControlStatus", status.timeControlStatus.rawValue)
        member("reasonForWaitingToPlay", status.reasonForWaitingToPlay?.rawValue)
        member("rate", status.rate)
        member("currentTime", seconds: status.currentTime)
    }

    // MARK: - Dates

    /// `2026-11-22T14:00:00.123Z`: UTC, exactly three fraction digits (what JavaScript's
    /// `Date.parse` reads everywhere).
    static func isoDate(_ date: WallClockDate) -> String {
        isoDate(nanosecondsSince1970: date.nanosecondsSince1970)
    }

    static func isoDate(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return isoDate(nanosecondsSince1970: Int64(exactly: milliseconds).map { $0 * 1_000_000 } ?? 0)
    }

    static func isoDate(nanosecondsSince1970 nanoseconds: Int64) -> String {
        // Whole milliseconds, rounded down, so the text always has three fraction digits.
        let (milliseconds, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let floored = remainder < 0 ? milliseconds - 1 : milliseconds
        return DateTime(secondsSince1970: MediaTime(value: floored, timescale: 1000)).iso8601
    }
}
