import Foundation
import MediaTime
import Playlist

// Playlists: the item's URL, the media playlists of the tracks, live reloads and health.

extension HLSLoadingState {
    /// The most error diagnostics of one playlist that go to the error log.
    static let loggedDiagnosticsLimit = 3

    mutating func rootFetched(
        _ result: Result<FetchedPlaylist, HTTPError>, attempt: Int, startedAt: Duration, startedDate: Date,
        _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]
    ) {
        let fetched: FetchedPlaylist
        switch result {
        case .failure(let error):
            guard error.code != .cancelled else { return }
            effects.append(.report(.errorLog(ErrorLogEntry(error, date: now.date))))
            var random = SystemRandomNumberGenerator()
            let decision = configuration.playlistRetry.decision(
                afterAttempt: attempt, failedWith: error.code, statusCode: error.statusCode, random: &random)
            if case .retry(let delay) = decision {
                rootRetry = (attempt + 1, now.elapsed + delay)
            } else {
                var final = error
                final.attempts = attempt
                terminate(with: .failed(LoadError(final)), &effects)
            }
            return
        case .success(let value):
            fetched = value
        }
        let parsed = Playlist.parse(bytes: fetched.body, options: ParseOptions(baseURL: fetched.url))
        switch parsed.playlist {
        case .multivariant(let playlist):
            logDiagnostics(parsed.diagnostics, uri: url, now, &effects)
            guard !playlist.variants.isEmpty else {
                fail(invalid: "the multivariant playlist lists no variant (EXT-X-STREAM-INF)", now, &effects)
                return
            }
            multivariant = playlist
            let chosen = chooseVariant() ?? 0
            variantIndex = chosen
            let variant = playlist.variants[chosen]
            tracks[.main] = makeTrack(url: variant.url, indicatedBitrate: variant.stream.bandwidth)
            fetchPlaylist(.main, now, &effects)
            configureRenditionTracks(now, &effects)
        case .media(let playlist):
            if let missingHeader = parsed.diagnostics.first(where: { $0.rule == .extm3uFirst }) {
                fail(invalid: "it is not an HLS playlist (line \(missingHeader.line): \(missingHeader.message))", now, &effects)
                return
            }
            tracks[.main] = makeTrack(url: url)
            diagnosedPlaylists.insert(url)
            logDiagnostics(parsed.diagnostics, uri: url, now, &effects)
            apply(playlist, body: fetched.body, to: .main, startedAt: startedAt, startedDate: startedDate, now, &effects)
        case .m3u:
            fail(invalid: "it is not an HLS playlist: no HLS tag was found (an extended M3U or a list of URLs)", now,
                 &effects)
        }
    }

    mutating func fail(invalid reason: String, _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        let error = LoadError(invalidPlaylist: url, reason: reason)
        effects.append(.report(.errorLog(ErrorLogEntry(
            date: now.date, uri: url, serverAddress: nil, statusCode: -1, domain: ErrorLogEntry.playlistDomain,
            comment: error.message))))
        terminate(with: .failed(error), &effects)
    }

    /// Logs a playlist's first error diagnostics, each with its line.
    func logDiagnostics(_ diagnostics: [Diagnostic], uri: String, _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        for diagnostic in diagnostics.filter({ $0.severity == .error }).prefix(Self.loggedDiagnosticsLimit) {
            effects.append(.report(.errorLog(ErrorLogEntry(
                date: now.date, uri: uri, serverAddress: nil, statusCode: -1, domain: ErrorLogEntry.playlistDomain,
                comment: diagnostic.description))))
        }
    }

    mutating func mediaPlaylistFetched(
        _ result: Result<FetchedPlaylist, HTTPError>, role: HLSTrackRole, startedAt: Duration, startedDate: Date,
        _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]
    ) {
        guard let track = tracks[role] else { return }
        switch result {
        case .failure(let error):
            guard error.code != .cancelled else { return }
            effects.append(.report(.errorLog(ErrorLogEntry(error, date: now.date))))
            playlistFailed(role, message: error.description, error: error, now, &effects)
        case .success(let fetched):
            let parsed = Playlist.parse(
                bytes: fetched.body,
                options: ParseOptions(baseURL: fetched.url, importedVariables: multivariant?.variablesForImport ?? [:]))
            guard case .media(let playlist) = parsed.playlist else {
                let message = "\(track.url) is not a media playlist (it reads as \(parsed.playlist.kindName))"
                effects.append(.report(.errorLog(ErrorLogEntry(
                    date: now.date, uri: track.url, serverAddress: nil, statusCode: -1,
                    domain: ErrorLogEntry.playlistDomain, comment: message))))
                playlistFailed(role, message: message, error: nil, now, &effects)
                return
            }
            if diagnosedPlaylists.insert(track.url).inserted {
                logDiagnostics(parsed.diagnostics, uri: track.url, now, &effects)
            }
            apply(playlist, body: fetched.body, to: role, startedAt: startedAt, startedDate: startedDate, now, &effects)
        }
    }

    /// A playlist could not be loaded (already logged). A first load is retried by the
    /// playlist retry policy and then gives up: a variant is dropped for another one, the item
    /// fails when no variant is left (or there were none), a rendition is dropped. A live
    /// reload is tried again at the failed-reload pace.
    mutating func playlistFailed(
        _ role: HLSTrackRole, message: String, error: HTTPError?, _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]
    ) {
        guard var track = tracks[role] else { return }
        if track.awaitingPlaylist {
            var random = SystemRandomNumberGenerator()
            let decision = error.map {
                configuration.playlistRetry.decision(
                    afterAttempt: track.playlistAttempt, failedWith: $0.code, statusCode: $0.statusCode, random: &random)
            } ?? .giveUp
            if case .retry(let delay) = decision {
                track.playlistAttempt += 1
                track.nextReloadAt = now.elapsed + delay
                tracks[role] = track
            } else if role == .main {
                // Another variant may still work: drop this one and choose among the rest.
                if multivariant != nil, let failing = variantIndex {
                    excludedVariants.insert(failing)
                    if let next = chooseVariant() {
                        switchVariant(to: next, now, &effects)
                        return
                    }
                }
                if var final = error {
                    final.attempts = track.playlistAttempt
                    terminate(with: .failed(LoadError(final)), &effects)
                } else {
                    fail(invalid: message, now, &effects)
                }
            } else {
                cancelRequests(of: track, &effects)
                tracks[role] = nil
            }
            return
        }
        let targetDuration = Duration.seconds(track.placed?.playlist.targetDuration ?? 1)
        track.nextReloadAt = PlaylistReloadTiming.nextReload(
            after: .failed, loadStartedAt: now.elapsed, now: now.elapsed, targetDuration: targetDuration)
        tracks[role] = track
        if role == .main {
            applyHealth(health.playlistFailed(message), now, &effects)
        }
    }

    /// A media playlist arrived for `role`: place it on the timeline, schedule its reload,
    /// and for the main track report what changed.
    mutating func apply(
        _ playlist: MediaPlaylist, body: [UInt8], to role: HLSTrackRole, startedAt: Duration, startedDate: Date,
        _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]
    ) {
        guard var track = tracks[role] else { return }
        let wasAwaiting = track.awaitingPlaylist
        let previous = track.placed
        let changed = wasAwaiting || body != previous?.body
        if changed || previous == nil {
            var offset = MediaTime.zero
            if let previous {
                offset = PlaylistTimeline.offset(of: playlist, after: (previous.playlist, previous.offset))
            } else if role != .main, let main = tracks[.main]?.placed {
                offset = PlaylistTimeline.offset(ofRendition: playlist, alignedWith: (main.playlist, main.offset))
            }
            let regressed = previous.map { playlist.mediaSequence < $0.playlist.mediaSequence } ?? false
            if wasAwaiting || regressed {
                track.scheduler.reset()
            }
            if regressed { track.failed.removeAll() }
            track.placed = PlacedPlaylist(playlist: playlist, offset: offset, body: body)
        }
        track.awaitingPlaylist = false
        track.playlistAttempt = 1
        guard let placed = track.placed else { return }
        let window = placed.window
        if window.behavior == .live {
            track.loaded.trim(before: window.start)
            if !track.failed.isEmpty { track.failed = track.failed.filter { $0 >= placed.playlist.mediaSequence } }
        }
        let outcome: PlaylistReloadTiming.Outcome = changed ? .changed : .unchanged
        track.nextReloadAt = window.behavior.isLive
            ? PlaylistReloadTiming.nextReload(
                after: outcome, loadStartedAt: startedAt, now: now.elapsed,
                targetDuration: .seconds(placed.playlist.targetDuration))
            : nil
        tracks[role] = track
        guard role == .main else { return }
        mainPlaylistApplied(
            changed: changed, switched: wasAwaiting && previous != nil, wasLive: previous?.window.behavior.isLive ?? false,
            startedDate: startedDate, now, &effects)
    }

    private mutating func mainPlaylistApplied(
        changed: Bool, switched: Bool, wasLive: Bool, startedDate: Date, _ now: LoaderMoment,
        _ effects: inout [HLSLoadingEffect]
    ) {
        guard let mainTrack = tracks[.main], let main = mainTrack.placed else { return }
        let playlist = main.playlist
        let window = main.window
        if phase == .loadingPlaylist {
            phase = .running
            followsLiveEdge = window.behavior.isLive && directives.loadFrom == nil
            accessLog = AccessLogEntry(uri: mainTrack.url, indicatedBitrate: mainTrack.indicatedBitrate.map(Double.init))
        }
        if window.behavior.isLive {
            if switched { health.forgetPreviousPlaylist() }
            applyHealth(health.playlistLoaded(playlist, changed: changed, at: now.elapsed), now, &effects)
        } else if wasLive {
            applyHealth(health.playlistEnded(), now, &effects)
        }
        let description = StreamDescription(playlist: playlist, offset: main.offset, multivariant: multivariant)
        if description != reportedDescription {
            reportedDescription = description
            effects.append(.report(.streamDescribed(description)))
        }
        let seekable = TimeRangeSet([window.seekableRange])
        if seekable != reportedSeekable {
            reportedSeekable = seekable
            effects.append(.report(.seekableTimeRanges(seekable)))
        }
        guard window.behavior.isLive else { return }
        effects.append(.report(.liveStatus(liveStatus(changed: changed, startedDate: startedDate, now))))
        if window.behavior == .live, !followsLiveEdge, anchor < window.start {
            followsLiveEdge = true
            retarget(&effects)
            effects.append(.report(.fellBehindLiveWindow(rejoinAt: window.syncPoint)))
        }
    }

    /// The live figures after a reload of the main track.
    func liveStatus(changed: Bool, startedDate: Date, _ now: LoaderMoment) -> LiveStatus {
        let main = tracks[.main]?.placed
        let window = main?.window
        let playlist = main?.playlist
        let targetDuration = Duration.seconds(playlist?.targetDuration ?? 0)
        return LiveStatus(
            liveEdge: window?.liveEdge ?? .zero,
            targetLatency: window?.holdBack ?? .zero,
            wallClockLatency: wallClockLatency(at: anchor, now),
            mediaSequence: playlist?.mediaSequence ?? 0,
            windowLength: window?.length ?? .zero,
            targetDuration: window?.targetDuration ?? .zero,
            reloadInterval: PlaylistReloadTiming.interval(after: changed ? .changed : .unchanged, targetDuration: targetDuration),
            lastReloadAt: startedDate,
            playlistAge: health.lastChangedAt.map { now.elapsed - $0 } ?? .zero,
            isStale: health.isFailing(.stale),
            playlistChanged: changed
        )
    }

    /// The wall clock minus the program date-time at `time`, when the main playlist has dates.
    func wallClockLatency(at time: MediaTime, _ now: LoaderMoment) -> Duration? {
        guard let main = tracks[.main]?.placed, !main.playlist.segments.isEmpty else { return nil }
        let playlist = main.playlist
        let relative = time - main.offset
        let index = playlist.segmentIndex(containing: relative)
            ?? (relative < .zero ? 0 : playlist.segments.count - 1)
        let segment = playlist.segments[index]
        guard let date = segment.programDateTime,
              let mediaSeconds = (date.secondsSince1970 + (relative - segment.startTime)).seconds else { return nil }
        return .seconds(now.date.timeIntervalSince1970 - mediaSeconds)
    }

    /// Turns health transitions into reports: a failure is an error-log entry (except a fetch
    /// failure, logged already as the HTTP error it is) and a health report; a recovery is a
    /// health report.
    mutating func applyHealth(_ events: [LiveHealthMonitor.Event], _ now: LoaderMoment, _ effects: inout [HLSLoadingEffect]) {
        let uri = tracks[.main]?.url ?? url
        for event in events {
            if event.isFailing, event.check != .playlistFetch {
                effects.append(.report(.errorLog(ErrorLogEntry(
                    date: now.date, uri: uri, serverAddress: nil, statusCode: event.check.statusCode,
                    domain: ErrorLogEntry.liveDomain, comment: "\(event.check.rawValue): \(event.message)"))))
            }
            effects.append(.report(.liveHealth(LiveHealthChange(
                check: event.check.rawValue, isFailing: event.isFailing, message: event.message, date: now.date))))
        }
    }
}

extension LiveHealthChange {
    /// The check, when it is one of ``LiveHealthMonitor/Check``.
    public var healthCheck: LiveHealthMonitor.Check? { LiveHealthMonitor.Check(rawValue: check) }
}
