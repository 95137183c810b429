import Loader
import Testing

@Suite struct BandwidthEstimatorTests {
    @Test func usesTheDefaultUntilASampleCounts() {
        var estimator = BandwidthEstimator(configuration: .init(defaultEstimate: 123_000))
        #expect(estimator.estimate == 123_000 && !estimator.hasSamples)
        // Too small to say anything about throughput.
        let counted = estimator.addSample(bytes: 15_999, duration: .seconds(1))
        #expect(!counted)
        #expect(estimator.estimate == 123_000)
    }

    @Test func theFirstSampleIsTheEstimate() {
        var estimator = BandwidthEstimator()
        let counted = estimator.addSample(bytes: 50_000, duration: .seconds(2))
        #expect(counted)
        #expect(abs(estimator.estimate - 200_000) < 1e-6)
        #expect(abs((estimator.fastEstimate ?? 0) - 200_000) < 1e-6)
        #expect(abs((estimator.slowEstimate ?? 0) - 200_000) < 1e-6)
    }

    @Test func aDropShowsAtOnceThroughTheFastAverage() {
        var estimator = BandwidthEstimator()
        for _ in 0..<10 { estimator.addSample(bytes: 1_000_000, duration: .seconds(1)) }  // 8 Mbit/s
        estimator.addSample(bytes: 125_000, duration: .seconds(2))  // 0.5 Mbit/s for 2 s
        let fast = estimator.fastEstimate ?? 0
        let slow = estimator.slowEstimate ?? 0
        // One sample of weight 2 keeps 0.5^(2/3) of the fast average and 0.5^(2/9) of the slow.
        #expect(fast < slow)
        #expect(estimator.estimate == fast)
        #expect(fast < 5_600_000 && fast > 5_000_000)
    }

    @Test func aBurstOfQuickDownloadsCountsForItsTransferTimeOnly() {
        var estimator = BandwidthEstimator()
        estimator.addSample(bytes: 50_000, duration: .seconds(2))  // 200 kbit/s over 2 s
        for _ in 0..<5 { estimator.addSample(bytes: 25_000, duration: .milliseconds(2)) }  // 10 Mbit/s, floored at 20 ms
        // 0.1 s at 10 Mbit/s against 2 s at 200 kbit/s: near the time-weighted mean (667 kbit/s),
        // far from the burst's rate.
        #expect(estimator.estimate > 600_000 && estimator.estimate < 800_000)
        #expect((estimator.slowEstimate ?? 0) < (estimator.fastEstimate ?? 0))
    }

    @Test func durationsAreFlooredSoAnInstantDownloadIsFinite() {
        var estimator = BandwidthEstimator(configuration: .init(minimumSampleDuration: .milliseconds(20)))
        estimator.addSample(bytes: 100_000, duration: .zero)
        #expect(abs(estimator.estimate - 40_000_000) < 1e-3)
    }
}

@Suite struct VariantSelectorTests {
    static let candidates = [
        VariantSelector.Candidate(bandwidth: 145_136, audioRenditionNames: ["English", "Français"]),
        VariantSelector.Candidate(bandwidth: 286_512, audioRenditionNames: ["English", "Français"]),
        VariantSelector.Candidate(bandwidth: 1_200_000, audioRenditionNames: ["English"]),
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var estimate: Double
        var peak: Double = 0
        var audio: RenditionChoice = .automatic
        var current: Int?
        var expected: Int
        var testDescription: String { "\(estimate) peak \(peak) \(audio) from \(String(describing: current)) → \(expected)" }
    }

    @Test(arguments: [
        // The first choice needs the up-switch headroom: 0.7 × estimate.
        Case(estimate: 500_000, expected: 1),
        Case(estimate: 400_000, expected: 0),  // 0.7 × 400k = 280k < 286.5k
        Case(estimate: 410_000, expected: 1),
        Case(estimate: 409_000, current: 0, expected: 0),  // 0.7 × 409k = 286.3k: just short
        Case(estimate: 409_400, current: 0, expected: 1),
        Case(estimate: 2_000_000, expected: 2),
        // Staying (or going down) needs only 0.9 × estimate.
        Case(estimate: 320_000, current: 1, expected: 1),
        Case(estimate: 317_000, current: 1, expected: 0),
        Case(estimate: 198_000, current: 1, expected: 0),
        // Nothing fits: the lowest.
        Case(estimate: 10_000, current: 2, expected: 0),
        // The peak bit rate caps the choice; below every variant, the lowest.
        Case(estimate: 2_000_000, peak: 300_000, expected: 1),
        Case(estimate: 2_000_000, peak: 100_000, expected: 0),
        // A named audio rendition keeps only the variants that carry it.
        Case(estimate: 2_000_000, audio: .named("Français"), expected: 1),
        Case(estimate: 2_000_000, audio: .named("Deutsch"), expected: 2),
    ])
    func choosesTheVariant(_ test: Case) {
        let chosen = VariantSelector().choose(
            among: Self.candidates, estimate: test.estimate, peakBitRate: test.peak, audio: test.audio, current: test.current)
        #expect(chosen == test.expected)
    }

    @Test func aTieGoesToTheVariantListedFirst() {
        let twins = [VariantSelector.Candidate(bandwidth: 100), VariantSelector.Candidate(bandwidth: 100)]
        #expect(VariantSelector().choose(among: twins, estimate: 1_000, peakBitRate: 0, audio: .automatic, current: nil) == 0)
        #expect(VariantSelector().choose(among: [], estimate: 1_000, peakBitRate: 0, audio: .automatic, current: nil) == nil)
    }
}
