import Foundation
import Synchronization

/// ffmpeg writing a real live HLS stream into a folder, as a child process: a 160×90 test
/// pattern at 12 frames per second, one keyframe per second, 1-second MPEG-TS segments,
/// a sliding window of six with `EXT-X-PROGRAM-DATE-TIME`, old segments deleted, no
/// `EXT-X-ENDLIST` when it stops:
///
/// ```
/// ffmpeg -re -f lavfi -i testsrc2=size=160x90:rate=12 -t 90 -c:v libx264 -g 12 … -f hls
///   -hls_time 1 -hls_list_size 6
///   -hls_flags delete_segments+program_date_time+omit_endlist+temp_file index.m3u8
/// ```
///
/// Serve ``folder`` with `TestOrigin(root:)`. ``pause()`` and ``resume()`` send `SIGSTOP`
/// and `SIGCONT`, ``restart()`` starts a new encoder whose media sequence starts over at 0.
///
/// Every encoder stops after ``lifetime`` seconds of media even if nobody stops it, so a
/// crashed test run leaves no ffmpeg behind for long; ``stop()`` and deinit kill it at once
/// (the playlist then ends as it was, without a last partial segment).
public final class LiveEncoder: Sendable {
    public let folder: URL
    /// The most seconds one ffmpeg run encodes.
    public let lifetime: Int
    private let process = Mutex<Process?>(nil)

    /// The playlist's file name in ``folder``.
    public static let playlistName = "index.m3u8"

    /// Starts ffmpeg writing into `folder`; the first segment's media sequence number is
    /// `startNumber`.
    public init(folder: URL, startNumber: Int = 0, lifetime: Int = 90) throws {
        self.folder = folder
        self.lifetime = lifetime
        try start(startNumber: startNumber)
    }

    deinit {
        stop()
    }

    /// The process id of the running ffmpeg, if one runs.
    public var processIdentifier: Int32? {
        process.withLock { $0.map(\.processIdentifier) }
    }

    /// Starts ffmpeg (after ``stop()``, or again after it ended).
    public func start(startNumber: Int = 0) throws {
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = [
            "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-re", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=12", "-t", "\(lifetime)",
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
            "-g", "12", "-keyint_min", "12", "-sc_threshold", "0",
            "-f", "hls", "-hls_time", "1", "-hls_list_size", "6", "-start_number", "\(startNumber)",
            "-hls_flags", "delete_segments+program_date_time+omit_endlist+temp_file",
            "-hls_segment_filename", folder.appendingPathComponent("segment%d.ts").path,
            folder.appendingPathComponent(Self.playlistName).path,
        ]
        ffmpeg.standardInput = FileHandle.nullDevice
        ffmpeg.standardOutput = FileHandle.nullDevice
        try process.withLock { running in
            guard running == nil else { throw EncoderError(message: "ffmpeg is already running") }
            try ffmpeg.run()
            running = ffmpeg
        }
    }

    /// Freezes ffmpeg (`SIGSTOP`): the playlist stops changing.
    public func pause() {
        if let pid = processIdentifier { kill(pid, SIGSTOP) }
    }

    /// Lets a paused ffmpeg go on (`SIGCONT`).
    public func resume() {
        if let pid = processIdentifier { kill(pid, SIGCONT) }
    }

    /// Ends ffmpeg and waits for it. Calling it again does nothing.
    public func stop() {
        guard let ffmpeg = process.withLock({ running in defer { running = nil }; return running }) else { return }
        if ffmpeg.isRunning {
            // SIGKILL, not SIGTERM: a child inherits its spawner's blocked signals, and the
            // test runner's threads may block SIGTERM, which ffmpeg would then never see.
            // An encoder that dies at once is what the tests want anyway.
            kill(ffmpeg.processIdentifier, SIGKILL)
        }
        ffmpeg.waitUntilExit()
    }

    /// Stops ffmpeg and starts a new one in the same folder: its media sequence starts over.
    public func restart(startNumber: Int = 0) throws {
        stop()
        try start(startNumber: startNumber)
    }

    /// The playlist as ffmpeg last wrote it, or nil before it wrote one.
    public func playlistText() -> String? {
        try? String(contentsOf: folder.appendingPathComponent(Self.playlistName), encoding: .utf8)
    }

    /// Waits until the playlist lists at least `count` segments.
    public func waitForSegments(_ count: Int, timeout: Duration = .seconds(15)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let listed = playlistText().map { $0.components(separatedBy: "#EXTINF").count - 1 } ?? 0
            if listed >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw EncoderError(message: "ffmpeg did not list \(count) segments within \(timeout)")
    }
}

/// The encoder could not be started or did not produce its stream.
public struct EncoderError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
