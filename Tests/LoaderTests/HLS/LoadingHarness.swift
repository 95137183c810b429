import Foundation
import Loader
import MediaTime
import Testing

/// Drives an ``HLSLoadingState`` on a virtual clock: it plays the shell's part, keeping the
/// requests the state asked for until a test answers them, and collecting the reports.
struct LoadingHarness {
    var state: HLSLoadingState
    /// The virtual clock: time since the loading started.
    private(set) var elapsed: Duration = .zero
    static let epoch = Date(timeIntervalSince1970: 1_900_000_000)
    /// Playlists by URL, answered by ``servePlaylists()``.
    var playlists: [String: String] = [:]
    private(set) var reports: [LoaderReport] = []
    /// Requests asked for and not answered or cancelled yet, in the order asked.
    private(set) var pending: [(id: HLSRequestID, request: HTTPRequest, isPlaylist: Bool)] = []
    /// Every media request made, in order.
    private(set) var mediaRequests: [HTTPRequest] = []
    private(set) var playlistRequests: [(url: String, at: Duration)] = []

    init(url: String, configuration: HLSLoader.Configuration = HLSLoader.Configuration(),
         directives: LoadingDirectives = LoadingDirectives()) {
        state = HLSLoadingState(url: url, configuration: configuration, directives: directives)
    }

    var now: LoaderMoment {
        LoaderMoment(elapsed: elapsed, date: Self.epoch.addingTimeInterval(elapsed.seconds))
    }

    mutating func start() {
        absorb(state.start(at: now))
    }

    mutating func absorb(_ effects: [HLSLoadingEffect]) {
        for effect in effects {
            switch effect {
            case .fetchPlaylist(let id, let request):
                pending.append((id, request, true))
                playlistRequests.append((request.url, elapsed))
            case .fetchMedia(let id, let request):
                pending.append((id, request, false))
                mediaRequests.append(request)
            case .cancel(let id):
                pending.removeAll { $0.id == id }
            case .report(let report):
                reports.append(report)
            }
        }
        #expect(state.checkInvariants())
    }

    /// Moves the clock to `time`, firing the state's deadlines on the way.
    mutating func advance(to time: Duration) {
        while let deadline = state.nextDeadline, deadline <= time {
            elapsed = max(elapsed, deadline)
            absorb(state.timerFired(at: now))
        }
        elapsed = max(elapsed, time)
    }

    mutating func advance(by duration: Duration) {
        advance(to: elapsed + duration)
    }

    /// Answers every pending playlist request from ``playlists`` (a 404 for unknown URLs).
    mutating func servePlaylists() {
        while let index = pending.firstIndex(where: \.isPlaylist) {
            let (id, request, _) = pending.remove(at: index)
            if let text = playlists[request.url] {
                absorb(state.playlistFetched(id, result: .success(FetchedPlaylist(body: Array(text.utf8), url: request.url)), at: now))
            } else {
                absorb(state.playlistFetched(id, result: .failure(Self.status(404, request.url)), at: now))
            }
        }
    }

    /// Runs the clock to `time`, answering each playlist reload as soon as it is asked for.
    mutating func serveReloads(until time: Duration) {
        servePlaylists()
        while let deadline = state.nextDeadline, deadline <= time {
            advance(to: deadline)
            servePlaylists()
        }
        advance(to: time)
    }

    /// Fails the pending playlist request of `url`.
    mutating func failPlaylist(_ url: String, status: Int) {
        guard let index = pending.firstIndex(where: { $0.isPlaylist && $0.request.url == url }) else {
            Issue.record("no pending playlist request for \(url)")
            return
        }
        let (id, _, _) = pending.remove(at: index)
        absorb(state.playlistFetched(id, result: .failure(Self.status(status, url)), at: now))
    }

    /// The URL of the oldest pending media request.
    var nextMediaURL: String? { pending.first { !$0.isPlaylist }?.request.url }

    /// Answers the oldest pending media request: `bytes` bytes in `duration` (or a status).
    mutating func answerMedia(bytes: Int64 = 100_000, duration: Duration = .milliseconds(100), status: Int? = nil) {
        guard let index = pending.firstIndex(where: { !$0.isPlaylist }) else {
            Issue.record("no pending media request")
            return
        }
        let (id, request, _) = pending.remove(at: index)
        if let status {
            absorb(state.mediaFetched(id, result: .failure(Self.status(status, request.url)), at: now))
        } else {
            absorb(state.mediaFetched(id, result: .success(MediaTransferSummary(bodyBytes: bytes, transferDuration: duration)), at: now))
        }
    }

    /// Answers media requests until none is pending.
    mutating func answerAllMedia(bytes: Int64 = 100_000, duration: Duration = .milliseconds(100)) {
        var answered = 0
        while nextMediaURL != nil, answered < 1000 {
            answerMedia(bytes: bytes, duration: duration)
            answered += 1
        }
    }

    static func status(_ status: Int, _ url: String) -> HTTPError {
        HTTPError(.httpStatus, url: url, message: "the server answered \(status)", statusCode: status)
    }

    mutating func receive(_ directives: LoadingDirectives) {
        absorb(state.receiveDirectives(directives, at: now))
    }

    /// The reports since the last call.
    mutating func takeReports() -> [LoaderReport] {
        defer { reports.removeAll() }
        return reports
    }

    var lastLoaded: TimeRangeSet? {
        reports.last { if case .loadedTimeRanges = $0 { true } else { false } }.flatMap {
            if case .loadedTimeRanges(let ranges) = $0 { ranges } else { nil }
        }
    }
}

extension LoaderReport {
    var loadedRanges: TimeRangeSet? { if case .loadedTimeRanges(let ranges) = self { ranges } else { nil } }
    var seekableRanges: TimeRangeSet? { if case .seekableTimeRanges(let ranges) = self { ranges } else { nil } }
    var liveStatus: LiveStatus? { if case .liveStatus(let status) = self { status } else { nil } }
    var liveHealth: LiveHealthChange? { if case .liveHealth(let change) = self { change } else { nil } }
    var errorEntry: ErrorLogEntry? { if case .errorLog(let entry) = self { entry } else { nil } }
    var accessEntry: AccessLogEntry? { if case .accessLog(let entry) = self { entry } else { nil } }
    var streamDescription: StreamDescription? { if case .streamDescribed(let description) = self { description } else { nil } }

    /// A short name of the case, to compare report orders.
    var kind: String {
        switch self {
        case .mediaProbed: "mediaProbed"
        case .streamDescribed: "streamDescribed"
        case .durationChanged: "durationChanged"
        case .seekableTimeRanges: "seekable"
        case .liveStatus: "liveStatus"
        case .liveHealth: "liveHealth"
        case .fellBehindLiveWindow: "fellBehind"
        case .loadedTimeRanges: "loaded"
        case .accessLog: "accessLog"
        case .errorLog: "errorLog"
        case .failed: "failed"
        case .loadingFinished: "finished"
        case .loadingStopped: "stopped"
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
