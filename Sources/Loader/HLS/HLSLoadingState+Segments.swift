import MediaTime
import Playlist

// Segments, seeks, variant switches and rendition changes.

extension HLSLoadingState {
    /// How far ahead of the anchor a track loads: the item's preference, else 30 s for VOD
    /// and the hold-back for live, so that a player at the live sync point buffers up to the
    /// edge.
    func forwardBufferDuration(for window: LiveWindow) -> MediaTime {
        let preferred = directives.preferredForwardBufferDuration
        if preferred.isNumeric, preferred > .zero { return preferred }
        return window.behavior == .vod ? configuration.vodForwardBufferDuration : window.holdBack
    }

    /// Starts the next download of every track that has none running, while the forward
    /// buffer has room.
    mutating func scheduleDownloads(_ effects: inout [HLSLoadingEffect]) {
        guard configuration.loadsSegments else { return }
        let anchor = anchor
        let bytesAhead = tracks.values.reduce(Int64(0)) { $0 + $1.loaded.bytesAhead }
        guard bytesAhead < configuration.maximumForwardBufferBytes else { return }
        for role in HLSTrackRole.allCases {
            guard var track = tracks[role], !track.awaitingPlaylist, track.download == nil, track.retry == nil,
                  let placed = track.placed else { continue }
            let limit = anchor + forwardBufferDuration(for: placed.window)
            let next = track.scheduler.nextSegment(
                in: placed.playlist, offset: placed.offset, anchor: anchor, limit: limit, loaded: track.loaded,
                failed: track.failed)
            tracks[role] = track
            guard let index = next else { continue }
            let segment = placed.playlist.segments[index]
            let segmentRange = segment.byteRange.flatMap { ByteRange(offset: Int64($0.offset), length: Int64($0.length)) }
            var job = MediaJob(
                sequenceNumber: segment.mediaSequenceNumber,
                timeRange: TimeRange(start: placed.offset + segment.startTime, duration: segment.duration),
                request: mediaRequest(segment.url, segmentRange), map: nil)
            if let map = segment.map {
                let mapRange = map.byteRange.flatMap { ByteRange(offset: Int64($0.offset), length: Int64($0.length)) }
                let key = MapKey(url: map.url, byteRange: mapRange)
                if !track.fetchedMaps.contains(key) {
                    job.map = key
                    job.request = mediaRequest(key.url, key.byteRange)
                }
            }
            fetchMedia(role, job, attempt: 1, &effects)
        }
    }

    func mediaRequest(_ url: String, _ byteRange: ByteRange?) -> HTTPRequest {
        HTTPRequest(url: url, byteRange: byteRange, limits: configuration.segmentLimits, isCacheable: configuration.cachesSegments)
    }

    /// The anchor moved other than by playing (a seek, a rejoin): every track searches again
    /// from it, holes are tried again, and downloads that are no longer wanted stop.
    mutating func retarget(_ effects: inout [HLSLoadingEffect]) {
        let anchor = anchor
        for role in HLSTrackRole.allCases {
            guard var track = tracks[role] else { continue }
            track.failed.removeAll()
            track.scheduler.reset()
            track.retry = nil
            if let id = track.download, case .media(_, _, let job, _)? = requests[id], let window = track.window {
                let wanted = TimeRange(start: anchor, end: anchor + forwardBufferDuration(for: window))
                if job.timeRange.intersection(wanted) == nil, !job.timeRange.contains(anchor) {
                    requests[id] = nil
                    effects.append(.cancel(id))
                    track.download = nil
                }
            }
            track.loaded.advance(playhead: anchor)
            tracks[role] = track
        }
    }

    /// Chooses the variant and renditions again (after a bandwidth sample, or when the peak
    /// bit rate or the rendition choices changed), switching when the choice changed.
    mutating func reselect(_ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        guard multivariant != nil, phase == .running, tracks[.main]?.awaitingPlaylist == false else { return }
        if let chosen = chooseVariant(), chosen != variantIndex {
            switchVariant(to: chosen, now, &effects)
        }
        configureRenditionTracks(now, &effects)
    }

    /// The variant to load now, among those whose playlist did not fail for good; nil when
    /// none is left.
    func chooseVariant() -> Int? {
        guard let multivariant else { return nil }
        let usable = multivariant.variants.indices.filter { !excludedVariants.contains($0) }
        let candidates = usable.map { index in
            let variant = multivariant.variants[index]
            return VariantSelector.Candidate(
                bandwidth: variant.stream.bandwidth,
                audioRenditionNames: variant.audioGroup.map { group in
                    multivariant.renditions(ofType: .audio, inGroup: group).map(\.name)
                } ?? [])
        }
        let chosen = configuration.variantSelector.choose(
            among: candidates, estimate: bandwidth.estimate, peakBitRate: directives.preferredPeakBitRate,
            audio: directives.audio, current: variantIndex.flatMap { usable.firstIndex(of: $0) })
        return chosen.map { usable[$0] }
    }

    /// Moves the main track to variant `index`: its playlist is fetched (the old one stays
    /// until then, to place the new one on the timeline) and a new access-log entry opens.
    mutating func switchVariant(to index: Int, _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        guard let multivariant, var main = tracks[.main] else { return }
        let variant = multivariant.variants[index]
        variantIndex = index
        main.url = variant.url
        main.indicatedBitrate = variant.stream.bandwidth
        main.awaitingPlaylist = true
        main.playlistAttempt = 1
        tracks[.main] = main
        fetchPlaylist(.main, now, &effects)
        // Before the item is ready, the first entry opens with the first playlist.
        guard phase == .running else { return }
        let entry = AccessLogEntry(uri: variant.url, indicatedBitrate: Double(variant.stream.bandwidth))
        accessLog = entry
        effects.append(.report(.accessLog(entry)))
    }

    /// Makes the audio and subtitle tracks those of the selected renditions in the current
    /// variant's groups: a rendition muxed into the variant (no URI), or none, has no track.
    mutating func configureRenditionTracks(_ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        guard let multivariant, let variantIndex else { return }
        let variant = multivariant.variants[variantIndex]
        let wanted: [(HLSTrackRole, String?)] = [
            (.audio, variant.audioGroup.flatMap {
                multivariant.selectedRenditionURL(audio: true, inGroup: $0, choice: directives.audio)
            }),
            (.subtitles, variant.subtitlesGroup.flatMap {
                multivariant.selectedRenditionURL(audio: false, inGroup: $0, choice: directives.subtitles)
            }),
        ]
        for (role, url) in wanted where tracks[role]?.url != url {
            if let old = tracks[role] { cancelRequests(of: old, &effects) }
            tracks[role] = nil
            if let url {
                tracks[role] = makeTrack(url: url)
                fetchPlaylist(role, now, &effects)
            }
        }
    }
}

extension MultivariantPlaylist {
    /// The playlist URL of the rendition `choice` selects in an audio or subtitles group:
    /// the one named, else for audio the `DEFAULT=YES` one or the first, and for subtitles
    /// none. Nil when the selected rendition is muxed into the variant (no URI).
    func selectedRenditionURL(audio: Bool, inGroup group: String, choice: RenditionChoice) -> String? {
        let candidates = renditions(ofType: audio ? .audio : .subtitles, inGroup: group)
        if case .named(let name) = choice, let named = candidates.first(where: { $0.name == name }) {
            return named.url
        }
        // Audio cannot be off; subtitles are off unless named.
        guard audio else { return nil }
        return (candidates.first(where: \.isDefault) ?? candidates.first)?.url
    }
}
