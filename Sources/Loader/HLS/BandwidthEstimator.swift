import Foundation

/// An estimate of the network's bandwidth from the segments downloaded so far: two
/// exponentially weighted moving averages of the measured throughput, a fast one and a slow
/// one, of which the lower counts.
///
/// This is the scheme hls.js and Shaka Player use, written from their published behaviour:
/// - Each sample is one download: its bits over its transfer time. A sample weighs its
///   transfer time in seconds, so a long download moves the averages more than a short one,
///   and a burst of tiny cached-at-the-edge downloads barely moves them.
/// - An average with half-life `h` keeps the fraction `0.5^(w/h)` of its old value when a
///   sample of weight `w` arrives.
/// - Both averages start at zero and are divided by `1 − 0.5^(W/h)` (W the total weight so
///   far), which removes the bias towards the zero they started from: after one sample, the
///   estimate is that sample.
/// - The estimate is the minimum of the two: the fast average reacts at once to a drop, the
///   slow one keeps a sudden burst from switching up too early.
/// - Downloads smaller than ``Configuration/minimumSampleBytes`` are ignored: their time is
///   mostly latency, not throughput. Transfer times are floored at
///   ``Configuration/minimumSampleDuration``.
/// - Until a sample counts, the estimate is ``Configuration/defaultEstimate``.
///
/// A pure value: no clock, no I/O.
public struct BandwidthEstimator: Sendable, Hashable {
    public struct Configuration: Sendable, Hashable {
        /// Seconds of transfer time after which a sample's weight in the fast average halves.
        public var fastHalfLife: Double
        /// The same for the slow average.
        public var slowHalfLife: Double
        /// Downloads smaller than this are not samples.
        public var minimumSampleBytes: Int64
        /// Shorter transfer times count as this long.
        public var minimumSampleDuration: Duration
        /// Bits per second assumed before any sample.
        public var defaultEstimate: Double

        public init(
            fastHalfLife: Double = 3, slowHalfLife: Double = 9, minimumSampleBytes: Int64 = 16_000,
            minimumSampleDuration: Duration = .milliseconds(20), defaultEstimate: Double = 500_000
        ) {
            self.fastHalfLife = fastHalfLife
            self.slowHalfLife = slowHalfLife
            self.minimumSampleBytes = minimumSampleBytes
            self.minimumSampleDuration = minimumSampleDuration
            self.defaultEstimate = defaultEstimate
        }
    }

    public let configuration: Configuration
    private var fast: MovingAverage
    private var slow: MovingAverage

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        fast = MovingAverage(halfLife: configuration.fastHalfLife)
        slow = MovingAverage(halfLife: configuration.slowHalfLife)
    }

    /// Adds one download of `bytes` that took `duration`; returns whether it counted.
    @discardableResult
    public mutating func addSample(bytes: Int64, duration: Duration) -> Bool {
        guard bytes >= configuration.minimumSampleBytes else { return false }
        let seconds = max(duration, configuration.minimumSampleDuration).inSeconds
        guard seconds > 0, seconds.isFinite else { return false }
        let bitsPerSecond = Double(bytes) * 8 / seconds
        fast.add(bitsPerSecond, weight: seconds)
        slow.add(bitsPerSecond, weight: seconds)
        return true
    }

    /// Whether any sample has counted yet.
    public var hasSamples: Bool { fast.totalWeight > 0 }

    /// The bandwidth to plan with, in bits per second.
    public var estimate: Double {
        guard hasSamples else { return configuration.defaultEstimate }
        return min(fast.value, slow.value)
    }

    /// The fast average alone (for diagnostics).
    public var fastEstimate: Double? { hasSamples ? fast.value : nil }
    /// The slow average alone (for diagnostics).
    public var slowEstimate: Double? { hasSamples ? slow.value : nil }
}

/// One exponentially weighted moving average with weights, corrected for its zero start.
private struct MovingAverage: Sendable, Hashable {
    /// The fraction of the old value kept per unit of weight: `0.5^(1/halfLife)`.
    let retention: Double
    var biasedValue = 0.0
    var totalWeight = 0.0

    init(halfLife: Double) {
        retention = halfLife > 0 ? pow(0.5, 1 / halfLife) : 0
    }

    mutating func add(_ sample: Double, weight: Double) {
        let kept = pow(retention, weight)
        biasedValue = sample * (1 - kept) + biasedValue * kept
        totalWeight += weight
    }

    var value: Double {
        let correction = 1 - pow(retention, totalWeight)
        return correction > 0 ? biasedValue / correction : biasedValue
    }
}
