import CAVFormat
import CShims
import Foundation
import MediaTime
import Synchronization

/// Reads a media file's container with libavformat: duration, streams, metadata, chapters.
///
/// A location is a local path, a `file:` URL, or an `http`/`https` URL (libavformat then
/// does its own HTTP requests, with hlsq's User-Agent). Probing blocks on I/O, so each
/// probe runs on a thread of its own, never on Swift's cooperative pool; the caller awaits
/// it. Cancelling the awaiting task, or the timeout passing, interrupts libavformat through
/// its interrupt callback, and the probe throws ``ProbeError/Code/cancelled`` or
/// ``ProbeError/Code/timedOut``.
public enum MediaProbe {
    /// Probes `location`, giving up after `timeout`.
    public static func probe(_ location: String, timeout: Duration = .seconds(30)) async throws(ProbeError) -> MediaInfo {
        let interruption = ProbeInterruption(deadline: .now + timeout)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: probeNow(location, interruption: interruption, timeout: timeout))
                }
                thread.name = "hlsq-probe"
                thread.start()
            }
        } onCancel: {
            interruption.cancel()
        }
        return try result.get()
    }

    /// libavformat logs to stderr by default; hlsq reports errors itself.
    private static let quietLogs: Void = {
        av_log_set_level(AV_LOG_FATAL)
        avformat_network_init()
    }()

    /// The path libavformat should open: `file:` URLs become paths, the rest is unchanged.
    static func input(for location: String) -> String {
        guard location.lowercased().hasPrefix("file:"), let url = URL(string: location), url.isFileURL else {
            return location
        }
        return url.path
    }

    private static func probeNow(_ location: String, interruption: ProbeInterruption, timeout: Duration) -> Result<MediaInfo, ProbeError> {
        quietLogs
        let context: DemuxerContext
        do {
            context = try DemuxerContext(location: location, input: input(for: location), interruption: interruption, timeout: timeout)
        } catch {
            return .failure(error)
        }
        let format = context.format
        let found = avformat_find_stream_info(format, nil)
        guard found >= 0 else {
            return .failure(.from(averror: found, location: location, interruption: interruption.reason))
        }
        let streams = (0..<Int(format.pointee.nb_streams)).compactMap { index in
            format.pointee.streams[index].map { stream(index: index, $0.pointee) }
        }
        guard !streams.isEmpty else {
            return .failure(ProbeError(.noStreams, location: location, message: "the container holds no stream"))
        }
        let chapters = (0..<Int(format.pointee.nb_chapters)).compactMap { index in
            format.pointee.chapters[index].map { chapter($0.pointee) }
        }
        let duration = format.pointee.duration
        return .success(MediaInfo(
            location: location,
            formatName: format.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
            formatDescription: format.pointee.iformat.flatMap { $0.pointee.long_name.map { String(cString: $0) } },
            duration: duration > 0 && duration != Int64.min
                ? MediaTime(value: duration, timescale: AV_TIME_BASE) : .indefinite,
            bitRate: positive(format.pointee.bit_rate),
            metadata: dictionary(format.pointee.metadata),
            streams: streams,
            chapters: chapters.sorted { $0.start < $1.start }
        ))
    }

    private static func stream(index: Int, _ stream: AVStream) -> MediaStream {
        let parameters = stream.codecpar.pointee
        let kind: MediaStream.Kind = switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        default: .unknown
        }
        let tags = dictionary(stream.metadata)
        let frameRate = stream.avg_frame_rate
        return MediaStream(
            index: index,
            kind: kind,
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            profile: avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) },
            language: tags["language"].flatMap { $0 == "und" ? nil : $0 },
            title: tags["title"],
            bitRate: positive(parameters.bit_rate),
            width: kind == .video ? positive(Int64(parameters.width)) : nil,
            height: kind == .video ? positive(Int64(parameters.height)) : nil,
            frameRate: kind == .video && frameRate.den > 0 && frameRate.num > 0
                ? Double(frameRate.num) / Double(frameRate.den) : nil,
            sampleRate: kind == .audio ? positive(Int64(parameters.sample_rate)) : nil,
            channels: kind == .audio ? positive(Int64(parameters.ch_layout.nb_channels)) : nil,
            duration: stream.duration > 0 && stream.duration != Int64.min
                ? time(stream.duration, in: stream.time_base) : nil,
            isDefault: stream.disposition & AV_DISPOSITION_DEFAULT != 0
        )
    }

    private static func chapter(_ chapter: AVChapter) -> MediaChapter {
        MediaChapter(
            start: time(chapter.start, in: chapter.time_base),
            end: time(chapter.end, in: chapter.time_base),
            title: dictionary(chapter.metadata)["title"]
        )
    }

    /// `value × num / den` exactly, as a MediaTime with timescale `den`.
    static func time(_ value: Int64, in base: AVRational) -> MediaTime {
        guard base.den > 0 else { return .invalid }
        let (scaled, overflow) = value.multipliedReportingOverflow(by: Int64(base.num))
        return overflow ? .invalid : MediaTime(value: scaled, timescale: base.den)
    }

    private static func positive(_ value: Int64) -> Int? {
        value > 0 ? Int(value) : nil
    }

    private static func dictionary(_ dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            result[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
        return result
    }
}

/// One opened libavformat input; closes it in deinit. Used by one probe thread only.
final class DemuxerContext {
    let format: UnsafeMutablePointer<AVFormatContext>


    deinit {
        var pointer: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&pointer)
    }

    /// Opens `input` (the form of `location` libavformat reads), with `interruption` as
    /// libavformat's interrupt callback.
    init(location: String, input: String, interruption: ProbeInterruption, timeout: Duration) throws(ProbeError) {
        guard let allocated = avformat_alloc_context() else {
            throw ProbeError(.failed, location: location, averror: hlsq_averror(ENOMEM), message: "out of memory")
        }
        allocated.pointee.interrupt_callback = AVIOInterruptCB(
            callback: ProbeInterruption.check,
            opaque: Unmanaged.passUnretained(interruption).toOpaque()
        )
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "user_agent", "hlsq/\(HLSQVersion.current)", 0)
        // Network reads and writes give up after this many microseconds of silence.
        av_dict_set(&options, "rw_timeout", String(timeout.inMilliseconds * 1000), 0)
        var opening: UnsafeMutablePointer<AVFormatContext>? = allocated
        // On failure libavformat frees the context and sets the pointer to nil.
        let code = avformat_open_input(&opening, input, nil, &options)
        guard code == 0, let opened = opening else {
            throw .from(averror: code, location: location, interruption: interruption.reason)
        }
        format = opened
    }
}

/// The flag libavformat polls, through its interrupt callback, to stop a blocking probe.
final class ProbeInterruption: Sendable {
    enum Reason: Sendable { case cancelled, timedOut }

    private let cancelled = Atomic<Bool>(false)
    private let deadline: ContinuousClock.Instant

    init(deadline: ContinuousClock.Instant) {
        self.deadline = deadline
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Why the probe must stop now, if it must.
    var reason: Reason? {
        if cancelled.load(ordering: .relaxed) { return .cancelled }
        return ContinuousClock.now >= deadline ? .timedOut : nil
    }

    /// libavformat's interrupt callback, called on the probing thread: non-zero stops it.
    static let check: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<ProbeInterruption>.fromOpaque(opaque).takeUnretainedValue().reason == nil ? 0 : 1
    }
}
