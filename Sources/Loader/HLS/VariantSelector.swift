/// Chooses the variant of a multivariant playlist to load, from the bandwidth estimate, the
/// item's `preferredPeakBitRate` and its selected audio rendition.
///
/// The rules, in order:
/// 1. **Audio.** When a rendition is chosen by name, only the variants whose audio group has a
///    rendition of that name are eligible (all of them when none has).
/// 2. **Peak bit rate.** With a cap above zero, only the eligible variants whose `BANDWIDTH`
///    is at most the cap remain; when none is that low, the lowest eligible variant does.
/// 3. **Bandwidth.** The highest remaining variant whose `BANDWIDTH` fits in a safe share of
///    the estimate wins: ``safety`` of it for the current variant and those below it,
///    the smaller ``upSwitchSafety`` for those above it (and for the first choice), so that
///    a switch up needs clear headroom and the choice does not flap around one rate. When
///    none fits, the lowest remaining variant.
///
/// Ties in `BANDWIDTH` go to the variant listed first. A pure value.
public struct VariantSelector: Sendable, Hashable {
    /// What the selector needs to know of a variant.
    public struct Candidate: Sendable, Hashable {
        /// `BANDWIDTH`, in bits per second.
        public var bandwidth: Int
        /// The names of the renditions in the variant's audio group.
        public var audioRenditionNames: [String]

        public init(bandwidth: Int, audioRenditionNames: [String] = []) {
            self.bandwidth = bandwidth
            self.audioRenditionNames = audioRenditionNames
        }
    }

    /// The share of the estimate the current variant, or a lower one, may use.
    public var safety: Double
    /// The share of the estimate a higher variant (or the first choice) may use.
    public var upSwitchSafety: Double

    public init(safety: Double = 0.9, upSwitchSafety: Double = 0.7) {
        self.safety = safety
        self.upSwitchSafety = upSwitchSafety
    }

    /// The index of the variant to load, or nil when there is none.
    public func choose(
        among candidates: [Candidate], estimate: Double, peakBitRate: Double, audio: RenditionChoice, current: Int?
    ) -> Int? {
        var eligible = Array(candidates.indices)
        if case .named(let name) = audio {
            let carrying = eligible.filter { candidates[$0].audioRenditionNames.contains(name) }
            if !carrying.isEmpty { eligible = carrying }
        }
        // Stable order by bandwidth: the first listed wins a tie.
        eligible.sort { (candidates[$0].bandwidth, $0) < (candidates[$1].bandwidth, $1) }
        guard let lowest = eligible.first else { return nil }
        if peakBitRate > 0 {
            eligible = eligible.filter { Double(candidates[$0].bandwidth) <= peakBitRate }
            if eligible.isEmpty { return lowest }
        }
        let currentBandwidth = current.flatMap { candidates.indices.contains($0) ? candidates[$0].bandwidth : nil }
        var chosen = eligible[0]
        for index in eligible {
            let bandwidth = candidates[index].bandwidth
            let isUp = currentBandwidth.map { bandwidth > $0 } ?? true
            let budget = estimate * (isUp ? upSwitchSafety : safety)
            if Double(bandwidth) <= budget, bandwidth > candidates[chosen].bandwidth {
                chosen = index
            }
        }
        return chosen
    }
}
