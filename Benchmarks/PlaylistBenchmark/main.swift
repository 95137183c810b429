// Parsing and writing media playlists of 100,000 segments: a 12-hour VOD or a 48-hour live
// window. Goals: 500 MB/s parsing the plain playlist and 300 MB/s the rich one (release
// build), writing at least as fast as parsing, peak memory under 4x the file size.
//
// Memory is measured in a child process per figure (this executable run again with
// `--peak-memory`), because the peak resident size only grows within a process.
import BenchmarkSupport
import Foundation
import MediaTime
import Playlist

let segmentCount = 100_000
let dataDirectory = URL(fileURLWithPath: "Benchmarks/data")

/// The two inputs: EXTINF and URI only, and the same with a date and byte range on every
/// segment, a key every 1,000 segments, a date range every 2,000 and a discontinuity every
/// 5,000.
enum Input: String, CaseIterable {
    case plain, rich

    var url: URL { dataDirectory.appendingPathComponent("playlist-\(rawValue).m3u8") }

    func generate() -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:7\n#EXT-X-MEDIA-SEQUENCE:1000\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        text.reserveCapacity(segmentCount * (self == .plain ? 40 : 140))
        let start = DateTime(iso8601: "2026-01-01T00:00:00Z")!
        var elapsed = MediaTime.zero
        var offset = 0
        for index in 0..<segmentCount {
            let duration = index % 7 == 6 ? "5.005" : "6.006"
            if self == .rich {
                if index % 5_000 == 0 && index > 0 { text += "#EXT-X-DISCONTINUITY\n" }
                if index % 1_000 == 0 {
                    let iv = String(repeating: String(index / 1_000 % 10), count: 32)
                    text += "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/vod/key-\(index / 1_000).bin\",IV=0x\(iv)\n"
                }
                if index % 2_000 == 0 {
                    text += "#EXT-X-DATERANGE:ID=\"ad-\(index)\",CLASS=\"com.example.ad\",START-DATE=\"\((start + elapsed).iso8601)\","
                        + "DURATION=30.03,X-AD-ID=\"campaign-\(index)\"\n"
                }
                text += "#EXT-X-PROGRAM-DATE-TIME:\((start + elapsed).iso8601)\n"
                let length = 180_000 + index % 1_000 * 17
                if index % 100 == 0 { offset = 0 }
                text += "#EXT-X-BYTERANGE:\(length)@\(offset)\n"
                offset += length
                text += "#EXTINF:\(duration),\nmedia-\(index / 100).ts\n"
            } else {
                text += "#EXTINF:\(duration),\nsegment-\(index).ts\n"
            }
            elapsed += MediaTime(decimalSeconds: duration)!
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    func load() throws -> [UInt8] {
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            try generate().write(to: url, atomically: true, encoding: .utf8)
        }
        return try readFile(url.path)
    }
}

/// The file's bytes, read straight into one array so that no second copy inflates the peak.
func readFile(_ path: String) throws -> [UInt8] {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let size = Int(try handle.seekToEnd())
    try handle.seek(toOffset: 0)
    let descriptor = handle.fileDescriptor
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        count = 0
        while count < size {
            let read = Glibc.read(descriptor, buffer.baseAddress! + count, size - count)
            if read <= 0 { break }
            count += read
        }
    }
}

let options = ParseOptions(baseURL: "https://media.example.com/vod/index.m3u8")

func parse(_ bytes: [UInt8]) -> MediaPlaylist {
    guard let playlist = Playlist.parse(bytes: bytes, options: options).playlist.media else {
        fatalError("the benchmark input is not a media playlist")
    }
    return playlist
}

// MARK: Child process: one peak-memory figure

if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--peak-memory",
   let input = Input(rawValue: CommandLine.arguments[2]) {
    let before = peakResidentMemoryBytes()
    let bytes = try input.load()
    let playlist = parse(bytes)
    var afterParse = peakResidentMemoryBytes()
    if CommandLine.arguments[3] == "write" {
        afterParse = peakResidentMemoryBytes()
        let written = PlaylistWriter.bytes(of: playlist, style: .canonical)
        keep(written)
        print(peakResidentMemoryBytes() - afterParse)
    } else {
        print(afterParse - before)
    }
    keep(playlist)
    exit(0)
}

func childPeakMemory(_ input: Input, _ phase: String) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--peak-memory", input.rawValue, phase]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
}

/// Seconds per parse and per dump of Python's m3u8 package, from `compare.py`.
func pythonSeconds(_ input: Input) -> (parse: Double, dump: Double)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "Benchmarks/PlaylistBenchmark/compare.py", input.url.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    do {
        try process.run()
    } catch {
        return nil
    }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard process.terminationStatus == 0, fields.count == 2 else { return nil }
    return (fields[0], fields[1])
}

// MARK: Figures

print("Playlist: media playlists of \(segmentCount) segments")
for input in Input.allCases {
    let bytes = try input.load()
    let megabytes = Double(bytes.count) / 1_000_000
    let goal = input == .plain ? 500.0 : 300.0
    print("\(input.rawValue): \(String(format: "%.1f", megabytes)) MB")

    let playlist = parse(bytes)
    precondition(playlist.segments.count == segmentCount && playlist.duration.isNumeric)
    // Results are kept until the timing is done, so that freeing one is not counted as parsing
    // the next.
    var results: [MediaPlaylist] = []
    results.reserveCapacity(8)
    let parsing = measure(repetitions: 7) { results.append(parse(bytes)) }
    results = []
    let parseSeconds = Double(parsing.bestNanoseconds(per: 1)) / 1e9
    report("\(input.rawValue) parse", megabytes / parseSeconds, "MB/s", goal: ">= \(Int(goal))")
    report("\(input.rawValue) parse", parsing.bestNanoseconds(per: segmentCount), "ns/segment")

    var written: [UInt8] = []
    let writing = measure(repetitions: 7) { written = PlaylistWriter.bytes(of: playlist, style: .canonical) }
    precondition(Playlist.parse(bytes: written, options: options).playlist == .media(playlist), "canonical text differs")
    let writeSeconds = Double(writing.bestNanoseconds(per: 1)) / 1e9
    report("\(input.rawValue) write (canonical)", Double(written.count) / 1e6 / writeSeconds, "MB/s",
           goal: ">= parse (\(String(format: "%.0f", megabytes / parseSeconds)))")
    report("\(input.rawValue) write (canonical)", writing.bestNanoseconds(per: segmentCount), "ns/segment")

    let parsePeak = try childPeakMemory(input, "parse")
    let writePeak = try childPeakMemory(input, "write")
    report("\(input.rawValue) parse peak memory", Double(parsePeak) / 1e6, "MB")
    report("\(input.rawValue) parse peak memory / file size", Double(parsePeak) / Double(bytes.count), "x", goal: "< 4")
    report("\(input.rawValue) parse peak memory per segment (file included)", Double(parsePeak) / Double(segmentCount), "bytes")
    report("\(input.rawValue) write peak memory", Double(writePeak) / 1e6, "MB")
    report("\(input.rawValue) write peak memory / file size", Double(writePeak) / Double(bytes.count), "x", goal: "< 4")

    if let python = pythonSeconds(input) {
        report("\(input.rawValue) Python m3u8 parse", python.parse * 1000, "ms")
        report("\(input.rawValue) Python m3u8 dump", python.dump * 1000, "ms")
        report("\(input.rawValue) parse speed-up over Python m3u8", python.parse / parseSeconds, "x")
        report("\(input.rawValue) write speed-up over Python m3u8", python.dump / writeSeconds, "x")
    } else {
        print("\(input.rawValue): Python m3u8 comparison unavailable (see compare.py)")
    }
}
