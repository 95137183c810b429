import Foundation
import OriginSupport
import Testing

/// `hlsq probe` run as a real process: output and exit codes.
@Suite struct ProbeCommandTests {
    static let sample = TestOrigin.playlists.appendingPathComponent("chapters.mp4").path

    @Test func printsTheProbeAsText() throws {
        let run = try HLSQProcess.run("probe", Self.sample)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("duration  12 s"))
        #expect(run.output.contains("title              hlsq sample"))
        #expect(run.output.contains("#0 video h264 (Constrained Baseline) 160×90"))
        #expect(run.output.contains("#1 audio aac (LC) 44100 Hz 1 ch"))
        #expect(run.output.contains("0–4 s  Opening\n  4–8 s  Middle\n  8–12 s  Closing"))
    }

    @Test func printsTheProbeAsJSON() throws {
        let run = try HLSQProcess.run("probe", "--json", Self.sample)
        #expect(run.status == 0, "\(run.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["duration"] as? Double == 12)
        #expect(object["title"] as? String == "hlsq sample")
        let streams = try #require(object["streams"] as? [[String: Any]])
        #expect(streams.prefix(2).map { $0["codec"] as? String } == ["h264", "aac"])
        #expect(streams.first?["width"] as? Int == 160)
        let chapters = try #require(object["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Opening", "Middle", "Closing"])
        #expect(chapters.map { $0["start"] as? Double } == [0, 4, 8])
        #expect(chapters.map { $0["end"] as? Double } == [4, 8, 12])
    }

    @Test func probesAURL() throws {
        let origin = try TestOrigin()
        let run = try HLSQProcess.run("probe", "--json", origin.url("/vod-ts/segment0.ts"))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("\"format\" : \"mpegts\""))
    }

    struct ExitCase: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        ExitCase(name: "not media", arguments: [TestOrigin.playlists.appendingPathComponent("mixed.m3u").path],
                 status: 1, message: "invalid data"),
        ExitCase(name: "missing file", arguments: ["/nonexistent/hlsq.mp4"], status: 2, message: "not found"),
        ExitCase(name: "refused connection", arguments: ["http://127.0.0.1:1/chapters.mp4"], status: 2, message: "network failure"),
        ExitCase(name: "no location", arguments: [], status: 2, message: "Missing expected argument"),
        ExitCase(name: "bad timeout", arguments: ["--timeout", "0", "x.mp4"], status: 2, message: "--timeout"),
        ExitCase(name: "unknown option", arguments: ["--frobnicate", "x.mp4"], status: 2, message: "Unknown option"),
    ])
    func exitsWithTheDocumentedStatus(_ exit: ExitCase) throws {
        let run = try HLSQProcess.run(arguments: ["probe"] + exit.arguments)
        #expect(run.status == exit.status)
        #expect(run.errors.contains(exit.message), "\(run.errors)")
        #expect(run.output.isEmpty)
    }
}
