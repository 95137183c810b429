// The HLS loader at the scale the issue names (the live runs come first, so that their
// resident memory does not include what the VOD runs allocate; `LoaderBenchmark live` or
// `LoaderBenchmark vod` runs one part):
// - loaded-range bookkeeping for a 100,000-segment VOD, through the loader's own range logic
//   (SegmentScheduler choosing each next segment, LoadedSegments adding it), and the same
//   through the whole loading state machine, reports included;
// - monitoring 100 live items at once: one real ffmpeg live stream, served by the test
//   origin under 100 URLs (a query parameter tells them apart), tracked playlists only, then
//   with segment downloads. CPU is this process's user + system time over the run
//   (getrusage), as a share of one core; the origin and ffmpeg are other processes.
import BenchmarkSupport
import Foundation
import Loader
import MediaTime
import OriginSupport
import Playlist

let part = CommandLine.arguments.dropFirst().first
let runsLive = part == nil || part == "live"
let runsVOD = part == nil || part == "vod"

// MARK: - 100 live items

/// The shape of each live run.
enum LiveRun {
    static let items = 100
    static let warmUp = Duration.seconds(3)
    static let length = Duration.seconds(20)
}

/// What the items reported over the measured part of a run.
struct LiveCounts: Sendable {
    var reloads = 0
    var segments = 0
    var bytes: Int64 = 0
    var healthFailures: [String] = []
    var terminal = 0
}

/// Counts the reports of one item from `start` on.
func tally(_ reports: AsyncStream<LoaderReport>, from start: ContinuousClock.Instant) async -> LiveCounts {
    var counts = LiveCounts()
    var lastEntry: AccessLogEntry?
    for await report in reports {
        let measured = ContinuousClock.now >= start
        switch report {
        case .liveStatus where measured:
            counts.reloads += 1
        case .liveHealth(let change) where measured && change.isFailing:
            counts.healthFailures.append(change.check)
        case .accessLog(let entry):
            if measured, let lastEntry, lastEntry.uri == entry.uri {
                counts.segments += entry.numberOfMediaRequests - lastEntry.numberOfMediaRequests
                counts.bytes += entry.numberOfBytesTransferred - lastEntry.numberOfBytesTransferred
            }
            lastEntry = entry
        default:
            if report.isTerminal { counts.terminal += 1 }
        }
    }
    return counts
}

/// CPU time (user + system) this process used so far.
func cpuTime() -> Duration {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func duration(_ time: timeval) -> Duration { .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec)) }
    return duration(usage.ru_utime) + duration(usage.ru_stime)
}

func monitor(_ url: String, client: HTTPClient, loadsSegments: Bool) async {
    let configuration = HLSLoader.Configuration(loadsSegments: loadsSegments, cachesSegments: false)
    let loader = HLSLoader(client: client, configuration: configuration)
    let measuredFrom = ContinuousClock.now + LiveRun.warmUp
    let items = (0..<LiveRun.items).map { index in
        let reports = loader.load(url + "?item=\(index)")
        return Task { await tally(reports, from: measuredFrom) }
    }
    try? await Task.sleep(until: measuredFrom)
    let cpuBefore = cpuTime()
    let started = ContinuousClock.now
    try? await Task.sleep(for: LiveRun.length)
    let cpu = cpuTime() - cpuBefore
    let wall = ContinuousClock.now - started
    let resident = currentResidentMemoryBytes() ?? 0
    for item in items { item.cancel() }
    var total = LiveCounts()
    for item in items {
        let counts = await item.value
        total.reloads += counts.reloads
        total.segments += counts.segments
        total.bytes += counts.bytes
        total.healthFailures += counts.healthFailures
        total.terminal += counts.terminal
    }
    let seconds = wall.inSeconds
    let label = loadsSegments ? "with segments" : "playlists only"
    print("\n\(LiveRun.items) live items, \(label), \(Int(seconds)) s measured after \(LiveRun.warmUp) of warm-up")
    report("CPU, share of one core (\(label))", cpu.inSeconds / seconds * 100, "%",
           goal: loadsSegments ? nil : "<= 25 %")
    report("resident memory (\(label))", Double(resident) / 1_048_576, "MiB", goal: loadsSegments ? nil : "<= 150 MiB")
    report("playlist reloads per second, all items", Double(total.reloads) / seconds, "/s")
    if loadsSegments {
        report("segments downloaded per second, all items", Double(total.segments) / seconds, "/s")
        report("segment bytes per second, all items", Double(total.bytes) / seconds / 1_048_576, "MiB/s")
    }
    report("health checks that failed", Double(total.healthFailures.count), "")
    if !total.healthFailures.isEmpty { print("  failed: \(Set(total.healthFailures).sorted())") }
    if total.terminal > 0 { print("  \(total.terminal) items ended early") }
}

/// Monitors 100 live items, playlists only and then with segments.
func benchmarkLive() async throws {
    let dataFolder = URL(fileURLWithPath: "Benchmarks/data/live-stream")
    try? FileManager.default.removeItem(at: dataFolder)
    try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true)
    let encoder = try LiveEncoder(folder: dataFolder, lifetime: 300)
    defer { encoder.stop() }
    let origin = try TestOrigin(root: dataFolder)
    defer { origin.stop() }
    try await encoder.waitForSegments(3)
    let client = try HTTPClient()
    let url = origin.url("/" + LiveEncoder.playlistName)
    await monitor(url, client: client, loadsSegments: false)
    await monitor(url, client: client, loadsSegments: true)
}

// MARK: - VOD bookkeeping

/// Loads the whole VOD through the state machine, answering each request at once; returns
/// the time spent on the segments (the playlist's parse excluded).
func loadThroughStateMachine(_ vodText: String, url vodURL: String, segmentCount: Int, whole wholeVOD: TimeRangeSet) -> Duration {
    let configuration = HLSLoader.Configuration(
        vodForwardBufferDuration: MediaTime(seconds: 1 << 40), maximumForwardBufferBytes: .max)
    var state = HLSLoadingState(url: vodURL, configuration: configuration, directives: LoadingDirectives())
    let moment = LoaderMoment(elapsed: .zero, date: Date(timeIntervalSince1970: 1_800_000_000))
    var effects = state.start(at: moment)
    guard case .fetchPlaylist(let root, _) = effects.first else { fatalError("no playlist request") }
    effects = state.playlistFetched(root, result: .success(FetchedPlaylist(body: Array(vodText.utf8), url: vodURL)), at: moment)
    let transfer = MediaTransferSummary(bodyBytes: 1_000_000, transferDuration: .milliseconds(100))
    var segments = 0
    let elapsed = ContinuousClock().measure {
        while let request = effects.lazy.compactMap({ effect -> HLSRequestID? in
            if case .fetchMedia(let id, _) = effect { id } else { nil }
        }).first {
            effects = state.mediaFetched(request, result: .success(transfer), at: moment)
            segments += 1
        }
    }
    guard segments == segmentCount, state.loadedTimeRanges == wholeVOD, effects.last == .report(.loadingFinished) else {
        fatalError("the state machine loaded \(segments) segments: \(state.loadedTimeRanges)")
    }
    return elapsed
}

/// Loads a 100,000-segment VOD through the range logic, then through the state machine.
func benchmarkVOD() {
    let segmentCount = 100_000
    let vodText = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:7\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        + (0..<segmentCount).map { "#EXTINF:6.006,\nsegment\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
    let vodURL = "http://origin.test/vod/index.m3u8"
    guard case .media(let vod) = Playlist.parse(vodText, options: ParseOptions(baseURL: vodURL)).playlist else {
        fatalError("the generated VOD playlist does not parse as a media playlist")
    }
    let wholeVOD = TimeRangeSet([TimeRange(start: .zero, end: vod.duration)])

    print("\nHLS loader: \(segmentCount) segments of 6.006 s (\(vod.duration.seconds ?? 0) s)")
    let bookkeeping = measure {
        var scheduler = SegmentScheduler()
        var loaded = LoadedSegments()
        while let index = scheduler.nextSegment(
            in: vod, offset: .zero, anchor: .zero, limit: .indefinite, loaded: loaded, failed: []) {
            let segment = vod.segments[index]
            loaded.add(TimeRange(start: segment.startTime, duration: segment.duration), bytes: 1_000_000)
        }
        guard loaded.ranges == wholeVOD else { fatalError("the VOD did not load whole: \(loaded.ranges)") }
        keep(loaded)
    }
    report("VOD range bookkeeping per segment (median)", bookkeeping.medianNanoseconds(per: segmentCount), "ns",
           goal: "<= 1000 ns")

    var machineRuns = (0..<5).map { _ in
        loadThroughStateMachine(vodText, url: vodURL, segmentCount: segmentCount, whole: wholeVOD)
    }
    machineRuns.sort()
    report("VOD through the loading state machine per segment (median)",
           Timing.nanoseconds(machineRuns[machineRuns.count / 2], per: segmentCount), "ns")
}

if runsLive { try await benchmarkLive() }
if runsVOD { benchmarkVOD() }
report("peak resident memory, whole run", Double(peakResidentMemoryBytes()) / 1_048_576, "MiB")

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
