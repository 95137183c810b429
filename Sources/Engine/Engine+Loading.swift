import Foundation
import Loader
import MediaTime
import QueueCore

// Loader sessions: one per item the queue core wants loaded. A session's task resolves the
// item's kind, starts the loader for it and feeds its reports to the actor; the Engine sends
// it directives (playhead, load-from position, preferences, renditions) as they change.

extension Engine {
    func startLoader(for item: ItemID, in id: QueueID) {
        guard !isShutDown, let playerItem = running[id]?.player.item(item) else { return }
        stopLoader(for: item)
        nextLoaderGeneration += 1
        let generation = nextLoaderGeneration
        let initial = Self.directives(for: playerItem)
        let (directives, continuation) = AsyncStream.makeStream(
            of: LoadingDirectives.self, bufferingPolicy: .bufferingNewest(1))
        let loaders = configuration.loaders
        let url = playerItem.url
        let knownKind: MediaKind? = switch playerItem.kind {
        case .hls: .hls
        case .mediaFile: .mediaFile
        case .unknown: nil
        }
        let task = Task {
            let kind: MediaKind
            if let knownKind {
                kind = knownKind
            } else {
                kind = await loaders.kind(of: url)
            }
            guard !Task.isCancelled, let loader = self.loaderResolved(kind, loaders: loaders, for: item, generation: generation)
            else { return }
            let request = ItemLoadRequest(url: url, kind: kind, directives: self.sessions[item]?.current ?? initial)
            for await report in loader.load(request, directives: directives) {
                self.receive(report, for: item, generation: generation)
            }
        }
        sessions[item] = LoaderSession(
            queueID: id, generation: generation, task: task, directives: continuation, current: initial)
    }

    /// The session of `item` learned the item's kind: returns its loader, or nil (after
    /// saying why in the item's error log) when there is none for that kind.
    func loaderResolved(
        _ kind: MediaKind, loaders: ItemLoaders, for item: ItemID, generation: Int
    ) -> (any ItemLoader)? {
        guard let session = session(of: item, generation) else { return nil }
        self.sessions[item]?.translator = LoaderReportTranslator(kind: kind)
        if let loader = loaders.loader(for: kind) { return loader }
        let why = QueueCore.LoaderReport.errorLogEntry(
            uri: running[session.queueID]?.player.item(item)?.url, statusCode: -1, domain: "hlsq.engine",
            comment: "no \(kind == .hls ? "HLS" : "media-file") loader is configured: the item cannot load")
        apply(why, to: item, in: session.queueID)
        return nil
    }

    private func session(of item: ItemID, _ generation: Int) -> LoaderSession? {
        guard let session = sessions[item], session.generation == generation else { return nil }
        return session
    }

    func stopLoader(for item: ItemID) {
        guard let session = sessions.removeValue(forKey: item) else { return }
        session.task.cancel()
        session.directives.finish()
    }

    /// A report from the session `generation` of `item`; reports of a stopped session are
    /// dropped.
    func receive(_ report: Loader.LoaderReport, for item: ItemID, generation: Int) {
        guard !isShutDown, let session = session(of: item, generation), var translator = session.translator else { return }
        let translation = translator.translate(report)
        sessions[item]?.translator = translator
        let id = session.queueID
        for coreReport in translation.reports {
            switch coreReport {
            case .mediaRequest(let bytes, _, _), .transferProgress(let bytes, _): bytesTransferred += bytes
            default: break
            }
            apply(coreReport, to: item, in: id)
        }
        if !translation.sideEffects.isEmpty { running[id]?.itemStates[item] = nil }
        for effect in translation.sideEffects {
            switch effect {
            case .live(let status):
                running[id]?.sides[item, default: ItemSide()].live = status
                if let state = itemState(item, in: id), let live = state.live {
                    publish([.liveStatus(itemID: item, live: live)], about: id)
                }
            case .health(let change):
                if change.isFailing {
                    let since = running[id]?.sides[item]?.health[change.check]?.since ?? change.date
                    running[id]?.sides[item, default: ItemSide()].health[change.check] =
                        LiveHealthRecord(check: change.check, since: since, message: change.message)
                } else {
                    running[id]?.sides[item]?.health[change.check] = nil
                }
                publish([.liveHealth(itemID: item, check: change.check, isFailing: change.isFailing, message: change.message)],
                        about: id)
            case .cacheHits(let count):
                if running[id]?.sides[item, default: ItemSide()].cacheHits.isEmpty ?? false {
                    running[id]?.sides[item]?.cacheHits.append(0)
                }
                if let last = running[id]?.sides[item]?.cacheHits.indices.last {
                    running[id]?.sides[item]?.cacheHits[last] += count
                }
                requestItemUpdate(item, in: id)
            case .variantURI(let uri):
                running[id]?.sides[item, default: ItemSide()].variantURI = uri
            case .rejoinLiveEdge(let time):
                rejoinLiveEdge(item, at: time, in: id)
            case .finished:
                sessions[item]?.isFinished = true
            }
        }
        rescheduleTimer()
    }

    /// The live window slid past the playhead of `item`: playback continues at the live sync
    /// point, as a seek (observers see a time jump; the queue core had only moved the playhead
    /// to the window's start). Only the current item plays, so only it rejoins; a seek the
    /// player refuses (a linear-playback range) leaves the playhead where the core put it.
    func rejoinLiveEdge(_ item: ItemID, at time: MediaTime, in id: QueueID) {
        guard running[id]?.player.currentItemID == item else { return }
        _ = try? perform(.seek(to: time), on: id)
    }

    /// A seek landed where nothing is loaded: the loader loads from there (a finished
    /// loader is started again, from there).
    func loadFrom(_ time: MediaTime, item: ItemID, in id: QueueID) {
        guard sessions[item] != nil else { return }
        nextLoadSerial += 1
        let position = LoadPosition(time: time, serial: nextLoadSerial)
        if sessions[item]?.isFinished == true {
            startLoader(for: item, in: id)
        }
        send(to: item) { directives in
            directives.loadFrom = position
            directives.playhead = time
        }
    }

    /// The item's preferences or rendition choices changed.
    func applyPreferences(of item: ItemID, in id: QueueID) {
        guard let playerItem = running[id]?.player.item(item) else { return }
        let wanted = Self.directives(for: playerItem)
        // An HLS loader that finished has no stream left to hear a new rendition or variant
        // choice: it starts again, with the choice in its first directives.
        if let session = sessions[item], session.isFinished, session.translator?.kind == .hls,
           (session.current.audio, session.current.subtitles, session.current.preferredPeakBitRate)
            != (wanted.audio, wanted.subtitles, wanted.preferredPeakBitRate) {
            startLoader(for: item, in: id)
            return
        }
        send(to: item) { directives in
            directives.preferredForwardBufferDuration = wanted.preferredForwardBufferDuration
            directives.preferredPeakBitRate = wanted.preferredPeakBitRate
            directives.audio = wanted.audio
            directives.subtitles = wanted.subtitles
        }
    }

    /// Keeps the current item's loader told where the playhead is: at once after a jump,
    /// otherwise once it moved a second or more.
    func updatePlayheadDirectives(in id: QueueID, outcomes: [QueueOutcome]) {
        guard let current = running[id]?.player.currentItemID, let session = sessions[current],
              let item = running[id]?.player.item(current) else { return }
        let jumped = outcomes.contains { outcome in
            outcome.notifications.contains { if case .timeJumped(item.id, _) = $0 { true } else { false } }
        }
        let sent = session.current.playhead
        let moved = item.currentTime.isNumeric && sent.isNumeric
            && abs((item.currentTime.seconds ?? 0) - (sent.seconds ?? 0)) >= 1
        guard jumped || moved else { return }
        send(to: item.id) { $0.playhead = item.currentTime }
    }

    private func send(to item: ItemID, _ change: (inout LoadingDirectives) -> Void) {
        guard var directives = sessions[item]?.current else { return }
        change(&directives)
        guard directives != sessions[item]?.current else { return }
        sessions[item]?.current = directives
        sessions[item]?.directives.yield(directives)
    }

    static func directives(for item: PlayerItem) -> LoadingDirectives {
        func choice(_ characteristic: MediaCharacteristic) -> RenditionChoice {
            switch item.mediaSelections[characteristic] ?? .automatic {
            case .automatic: .automatic
            case .off: .off
            case .option(let name): .named(name)
            }
        }
        return LoadingDirectives(
            playhead: item.currentTime, preferredForwardBufferDuration: item.preferences.preferredForwardBufferDuration,
            preferredPeakBitRate: item.preferences.preferredPeakBitRate, audio: choice(.audible), subtitles: choice(.legible))
    }
}
