import MediaTime

/// What a loader reports about the item it loads. The engine feeds each report to
/// ``QueuePlayer/report(_:for:)``.
public enum LoaderReport: Hashable, Sendable {
    /// The item can play: its duration (indefinite for live) and its kind (not `unknown`).
    case readyToPlay(duration: MediaTime, kind: PlayerItem.Kind)
    /// The item cannot play, ever.
    case failed(ItemFailure)
    /// The duration changed: an EVENT playlist grew, a live stream ended.
    case durationChanged(MediaTime)
    /// Everything loaded now (replaces the previous ranges).
    case loadedTimeRanges(TimeRangeSet)
    /// One more range loaded, such as a segment.
    case segmentLoaded(TimeRange)
    /// Where seeks may land now (replaces the previous ranges): for live, the sliding window.
    case seekableTimeRanges(TimeRangeSet)
    /// The measured download rate, in bits per second.
    case downloadBitrate(Double)
    /// One media request completed: for the access log.
    case mediaRequest(bytes: Int64, transferDuration: MediaTime, mediaDuration: MediaTime)
    /// More bytes of a request already counted by ``mediaRequest(bytes:transferDuration:mediaDuration:)``
    /// arrived, as a long progressive download reports while it runs: for the access log.
    case transferProgress(bytes: Int64, transferDuration: MediaTime)
    /// Playback switched to a variant: its bandwidth becomes the indicated bitrate, and a new
    /// access-log entry opens.
    case variantSwitched(indicatedBitrate: Double, uri: String)
    case mediaInformation(MediaInformation)
    /// An error worth logging; the core dates it with the injected clock.
    case errorLogEntry(uri: String?, statusCode: Int, domain: String, comment: String)
}

extension QueuePlayer {
    /// Applies a loader report to the item `id`.
    ///
    /// Refused: ``QueueRefusal/Reason-swift.struct/notInQueue`` (the item left the list; the
    /// engine drops the report), ``QueueRefusal/Reason-swift.struct/itemFailed`` (a failed
    /// item takes only error-log entries), ``QueueRefusal/Reason-swift.struct/invalidReport``.
    public mutating func report(_ report: LoaderReport, for id: ItemID) throws(QueueRefusal) -> QueueOutcome {
        var out = beginTransition()
        let slot = try accept(validateReport(report, for: id), out)
        apply(report, to: slot, &out)
        return finishTransition(&out)
    }

    func validateReport(_ report: LoaderReport, for id: ItemID) -> Result<Slot, QueueRefusal> {
        guard let slot = list.slot(of: id) else {
            return .failure(QueueRefusal(.notInQueue, "\(id) is not in the queue"))
        }
        let item = list[slot]
        if case .errorLogEntry = report { return .success(slot) }
        if let failure = item.failure {
            return .failure(QueueRefusal(.itemFailed, "\(id) failed already (\(failure))"))
        }
        func invalid(_ message: String) -> Result<Slot, QueueRefusal> {
            .failure(QueueRefusal(.invalidReport, message))
        }
        switch report {
        case .readyToPlay(let duration, let kind):
            guard kind != .unknown else { return invalid("a ready item must have a known kind") }
            guard Self.isDuration(duration) else { return invalid("invalid duration \(duration)") }
        case .durationChanged(let duration):
            guard Self.isDuration(duration) else { return invalid("invalid duration \(duration)") }
        case .downloadBitrate(let bitrate), .variantSwitched(let bitrate, _):
            guard bitrate.isFinite, bitrate >= 0 else { return invalid("invalid bitrate \(bitrate)") }
        case .mediaRequest(let bytes, let transfer, let media):
            guard bytes >= 0, transfer.isNumeric, transfer >= .zero, media.isNumeric, media >= .zero else {
                return invalid("a media request needs non-negative bytes and durations")
            }
        case .transferProgress(let bytes, let transfer):
            guard bytes >= 0, transfer.isNumeric, transfer >= .zero else {
                return invalid("transfer progress needs non-negative bytes and duration")
            }
        case .loadedTimeRanges(let ranges), .seekableTimeRanges(let ranges):
            guard ranges.start.map({ $0 >= .zero }) ?? true else { return invalid("ranges start before zero") }
        case .segmentLoaded(let range):
            guard !range.isValid || range.start >= .zero else { return invalid("a range starts before zero") }
        case .failed, .mediaInformation, .errorLogEntry:
            break
        }
        return .success(slot)
    }

    static func isDuration(_ duration: MediaTime) -> Bool {
        duration.isIndefinite || (duration.isNumeric && duration >= .zero)
    }

    mutating func apply(_ report: LoaderReport, to slot: Slot, _ out: inout QueueOutcome) {
        let id = list[slot].id
        switch report {
        case .readyToPlay(let duration, let kind):
            list[slot].kind = kind
            setDuration(duration, of: slot, &out)
            if list[slot].status != .readyToPlay {
                list[slot].status = .readyToPlay
                out.post(.statusChanged(id, .readyToPlay))
                out.request(.persist(.item(id)))
            }
            placeAtLiveEdgeIfUnplaced(slot)
            out.post(.itemStateChanged(id))
        case .failed(let failure):
            fail(slot, failure, &out)
        case .durationChanged(let duration):
            setDuration(duration, of: slot, &out)
            out.post(.itemStateChanged(id))
        case .loadedTimeRanges(let ranges):
            list[slot].loadedTimeRanges = ranges
            loadedRangesChanged(slot, &out)
        case .segmentLoaded(let range):
            list[slot].loadedTimeRanges.formUnion(range)
            loadedRangesChanged(slot, &out)
        case .seekableTimeRanges(let ranges):
            list[slot].seekableTimeRanges = ranges
            followLiveWindow(slot, &out)
            out.post(.itemStateChanged(id))
        case .downloadBitrate(let bitrate):
            list[slot].measuredDownloadBitrate = bitrate
            out.post(.itemStateChanged(id))
        case .mediaRequest(let bytes, let transfer, let media):
            if list[slot].accessLog.isEmpty { openAccessLogEvent(slot, startedNow: false, &out) }
            let last = list[slot].accessLog.count - 1
            list[slot].accessLog[last].numberOfMediaRequests += 1
            list[slot].accessLog[last].numberOfBytesTransferred += bytes
            list[slot].accessLog[last].transferDuration = list[slot].accessLog[last].transferDuration.adding(transfer)
            list[slot].accessLog[last].segmentsDownloadedDuration =
                list[slot].accessLog[last].segmentsDownloadedDuration.adding(media)
            out.post(.itemStateChanged(id))
        case .transferProgress(let bytes, let transfer):
            if list[slot].accessLog.isEmpty { openAccessLogEvent(slot, startedNow: false, &out) }
            let last = list[slot].accessLog.count - 1
            list[slot].accessLog[last].numberOfBytesTransferred += bytes
            list[slot].accessLog[last].transferDuration = list[slot].accessLog[last].transferDuration.adding(transfer)
            out.post(.itemStateChanged(id))
        case .variantSwitched(let bitrate, let uri):
            list[slot].indicatedBitrate = bitrate
            let playing = slot == currentSlot && timeControlStatus == .playing
            openAccessLogEvent(slot, startedNow: playing, uri: uri, &out)
            out.post(.itemStateChanged(id))
        case .mediaInformation(let information):
            list[slot].mediaInformation = information
            out.post(.itemStateChanged(id))
        case .errorLogEntry(let uri, let statusCode, let domain, let comment):
            list[slot].errorLog.append(ErrorLogEvent(
                date: clock.wallClockNow(), uri: uri, statusCode: statusCode, domain: domain, comment: comment))
            if list[slot].errorLog.count > configuration.logLimit { list[slot].errorLog.removeFirst() }
            out.post(.newErrorLogEntry(id))
        }
    }

    /// A numeric duration shorter than the playhead pulls the playhead back to it.
    mutating func setDuration(_ duration: MediaTime, of slot: Slot, _ out: inout QueueOutcome) {
        list[slot].duration = duration
        if duration.isNumeric && list[slot].currentTime > duration {
            jumpPlayhead(slot, to: duration, &out)
        }
    }

    mutating func loadedRangesChanged(_ slot: Slot, _ out: inout QueueOutcome) {
        let item = list[slot]
        if let seek = pendingSeek, seek.item == item.id, item.loadedTimeRanges.contains(seek.target) {
            completePendingSeek(finished: true, &out)
        }
        out.post(.itemStateChanged(item.id))
    }

    /// A live item is placed at the live edge the first time; afterwards, when the window
    /// slides past its playhead, the playhead jumps to the window's start.
    mutating func followLiveWindow(_ slot: Slot, _ out: inout QueueOutcome) {
        let item = list[slot]
        guard item.isLive, let start = item.seekableTimeRanges.start else { return }
        if item.startsAtLiveEdge {
            placeAtLiveEdgeIfUnplaced(slot)
        } else if item.currentTime < start {
            if let seek = pendingSeek, seek.item == item.id { completePendingSeek(finished: false, &out) }
            jumpPlayhead(slot, to: start, &out)
            if slot == currentSlot { openAccessLogEvent(slot, startedNow: timeControlStatus == .playing, &out) }
        }
    }

    /// The item failed for good. The current item reports failedToPlayToEndTime, then the
    /// queue advances under `.advance`, and pauses otherwise.
    mutating func fail(_ slot: Slot, _ failure: ItemFailure, _ out: inout QueueOutcome) {
        let id = list[slot].id
        list[slot].status = .failed(failure)
        out.post(.statusChanged(id, .failed(failure)))
        out.request(.persist(.item(id)))
        // History copies of the item must not bring it back to play.
        historyLog.markFailed(id, failure)
        loadingWindowIsStale = true
        guard slot == currentSlot else { return }
        out.post(.failedToPlayToEndTime(id, failure))
        completePendingSeek(finished: false, &out)
        if settings.actionAtItemEnd == .advance, advanceEntry(at: lastInstant, &out) { return }
        changeRate(to: 0, at: lastInstant, &out)
    }
}
