import MediaTime

extension HLSLoader {
    /// How an HLS loader loads: buffer sizes, retries, limits, bandwidth estimation and
    /// variant choice, health thresholds.
    public struct Configuration: Sendable {
        /// The forward buffer of a VOD item when the item's `preferredForwardBufferDuration`
        /// is zero (automatic).
        public var vodForwardBufferDuration: MediaTime
        /// The most bytes of loaded segments ahead of the playhead, all tracks together; the
        /// loader waits for the playhead before loading more.
        public var maximumForwardBufferBytes: Int64
        /// The stale health check fails when a live playlist has not changed for this many
        /// target durations.
        public var staleMultiple: Double
        /// Whether segments are downloaded at all. Off, the loader only tracks playlists (a
        /// monitor of live streams): seekable ranges, live figures and health, no loaded ranges.
        public var loadsSegments: Bool
        /// Whether segments may come from (and go to) the client's on-disk cache, so that a
        /// looping VOD item does not download them again.
        public var cachesSegments: Bool
        /// Retries of a playlist's first load; a live reload that fails is simply tried again
        /// at the next reload.
        public var playlistRetry: RetryPolicy
        /// Retries of a segment before it is left as a hole.
        public var segmentRetry: RetryPolicy
        public var playlistLimits: HTTPLimits
        public var segmentLimits: HTTPLimits
        public var bandwidth: BandwidthEstimator.Configuration
        public var variantSelector: VariantSelector

        public init(
            vodForwardBufferDuration: MediaTime = MediaTime(seconds: 30),
            maximumForwardBufferBytes: Int64 = 64 << 20,
            staleMultiple: Double = 3.5,
            loadsSegments: Bool = true,
            cachesSegments: Bool = true,
            playlistRetry: RetryPolicy = .standard,
            segmentRetry: RetryPolicy = .standard,
            playlistLimits: HTTPLimits = HTTPLimits(totalTimeout: .seconds(20), maximumBodyBytes: 64 << 20),
            segmentLimits: HTTPLimits = HTTPLimits(),
            bandwidth: BandwidthEstimator.Configuration = BandwidthEstimator.Configuration(),
            variantSelector: VariantSelector = VariantSelector()
        ) {
            self.vodForwardBufferDuration = vodForwardBufferDuration
            self.maximumForwardBufferBytes = maximumForwardBufferBytes
            self.staleMultiple = staleMultiple
            self.loadsSegments = loadsSegments
            self.cachesSegments = cachesSegments
            self.playlistRetry = playlistRetry
            self.segmentRetry = segmentRetry
            self.playlistLimits = playlistLimits
            self.segmentLimits = segmentLimits
            self.bandwidth = bandwidth
            self.variantSelector = variantSelector
        }
    }
}
