import Foundation
import Testing

/// The real `hlsq serve` binary as a child process, on an ephemeral port with a database in
/// a temporary folder (kept across restarts of the same value).
final class ServerProcess {
    /// The `hlsq` executable, built next to the test bundle (this target depends on it).
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent()
        .appendingPathComponent("hlsq")

    /// The package's root, where `Public/` and `playlists/` are.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let folder: URL
    let arguments: [String]
    let environment: [String: String]
    private(set) var process: Process?
    private(set) var port: UInt16 = 0
    private(set) var baseURL = ""
    private var errors: Pipe?

    var databasePath: String { folder.appendingPathComponent("hlsq.sqlite").path }

    init(arguments: [String] = [], environment: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.arguments = arguments
        self.environment = environment
        try start()
    }

    deinit {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the binary and waits for the line that names its URL.
    func start() throws {
        let process = Process()
        process.executableURL = Self.executable
        process.currentDirectoryURL = Self.repository
        process.arguments = ["serve", "--port", "0", "--db", databasePath] + arguments
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("HLSQ_") { environment[key] = nil }
        environment.merge(self.environment) { $1 }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        self.process = process
        self.errors = errors
        // The first line: "hlsq serve: the dashboard is at http://127.0.0.1:PORT/ (…)".
        var line: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else {
            process.terminate()
            process.waitUntilExit()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw TestFailure("hlsq serve printed no URL: \(text.debugDescription) \(complaint)")
        }
        let url = String(text[range])
        baseURL = String(url.dropLast())
        port = UInt16(url.split(separator: ":").last?.dropLast() ?? "") ?? 0
    }

    /// Sends `signal` and waits for the process to end; returns its status and how long it
    /// took.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> (status: Int32, reason: Process.TerminationReason, duration: Duration) {
        guard let process else { return (0, .exit, .zero) }
        let start = ContinuousClock.now
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        self.process = nil
        return (process.terminationStatus, process.terminationReason, ContinuousClock.now - start)
    }

    /// What the server wrote on standard error (after it stopped).
    func errorOutput() -> String {
        guard let errors else { return "" }
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
