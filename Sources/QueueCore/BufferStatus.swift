import MediaTime

/// The thresholds that decide an item's buffer flags.
public struct BufferPolicy: Hashable, Sendable {
    /// The contiguous forward buffer needed for ``BufferStatus/isPlaybackLikelyToKeepUp``.
    public var minimumForwardBufferToKeepUp: MediaTime
    /// The forward buffer target when the item's preferred forward buffer duration is zero.
    public var automaticForwardBufferDuration: MediaTime

    public init(
        minimumForwardBufferToKeepUp: MediaTime = MediaTime(seconds: 2),
        automaticForwardBufferDuration: MediaTime = MediaTime(seconds: 30)
    ) {
        self.minimumForwardBufferToKeepUp = minimumForwardBufferToKeepUp
        self.automaticForwardBufferDuration = automaticForwardBufferDuration
    }
}

/// An item's buffer health at its playhead, like `AVPlayerItem`'s three flags plus the forward
/// buffer they are computed from.
///
/// - ``forwardBufferDuration``: the loaded media from the playhead to the end of the
///   contiguous loaded range around it, not past the item's end;
/// - ``isPlaybackBufferEmpty``: no media ahead of the playhead;
/// - ``isPlaybackBufferFull``: the forward buffer reaches its target (the item's preferred
///   forward buffer duration, or the policy's automatic one), or reaches the item's end;
/// - ``isPlaybackLikelyToKeepUp``: the forward buffer reaches the item's end, or it covers at
///   least the policy's minimum and the measured download rate keeps up with the indicated
///   bitrate (when an indicated bitrate is known, a measurement must exist and be at least as
///   large).
public struct BufferStatus: Hashable, Sendable {
    public var forwardBufferDuration: MediaTime
    public var isPlaybackBufferEmpty: Bool
    public var isPlaybackBufferFull: Bool
    public var isPlaybackLikelyToKeepUp: Bool
}

extension PlayerItem {
    /// The buffer flags at the playhead under `policy`.
    public func bufferStatus(policy: BufferPolicy = BufferPolicy()) -> BufferStatus {
        let end = forwardEnd
        let atEnd = end.isNumeric && currentTime >= end
        var forward = MediaTime.zero
        var reachesEnd = atEnd
        if !atEnd, let range = loadedTimeRanges.range(containing: currentTime) {
            let bufferEnd = min(range.end, end)
            forward = bufferEnd.distance(from: currentTime)
            reachesEnd = end.isNumeric && range.end >= end
        }
        let target = preferences.preferredForwardBufferDuration > .zero
            ? preferences.preferredForwardBufferDuration : policy.automaticForwardBufferDuration
        let downloadKeepsUp: Bool
        if let indicated = indicatedBitrate {
            downloadKeepsUp = (measuredDownloadBitrate ?? 0) >= indicated
        } else {
            downloadKeepsUp = true
        }
        return BufferStatus(
            forwardBufferDuration: forward,
            isPlaybackBufferEmpty: forward == .zero,
            isPlaybackBufferFull: reachesEnd || forward >= target,
            isPlaybackLikelyToKeepUp: reachesEnd
                || (forward >= policy.minimumForwardBufferToKeepUp && downloadKeepsUp)
        )
    }
}

extension MediaTime {
    /// `self − earlier`, exact when the result fits and otherwise rounded to the nanosecond.
    /// Times from different sources (1/1000 and 1/90000 s, say) can have timescales whose
    /// least common multiple overflows; the playhead arithmetic must not turn invalid then.
    func distance(from earlier: MediaTime) -> MediaTime {
        let exact = self - earlier
        if exact.isValid { return exact }
        guard let end = nanoseconds(rounding: .toNearestOrAwayFromZero),
              let start = earlier.nanoseconds(rounding: .toNearestOrAwayFromZero) else { return exact }
        return MediaTime(value: end &- start, timescale: 1_000_000_000)
    }

    /// The distance between two times, whichever comes first.
    func gap(to other: MediaTime) -> MediaTime {
        self >= other ? distance(from: other) : other.distance(from: self)
    }

    /// `self + other` with the same fallback as ``distance(from:)``.
    func adding(_ other: MediaTime) -> MediaTime {
        let exact = self + other
        if exact.isValid { return exact }
        guard let a = nanoseconds(rounding: .toNearestOrAwayFromZero),
              let b = other.nanoseconds(rounding: .toNearestOrAwayFromZero) else { return exact }
        return MediaTime(value: a &+ b, timescale: 1_000_000_000)
    }

    /// The time in whole nanoseconds, rounded by `rule`; nil when not numeric or too large.
    func nanoseconds(rounding rule: FloatingPointRoundingRule) -> Int64? {
        // The playhead is kept in nanoseconds: skip the general conversion on every tick.
        if timescale == 1_000_000_000 { return value }
        return converted(toTimescale: 1_000_000_000, rounding: rule).value
    }
}
