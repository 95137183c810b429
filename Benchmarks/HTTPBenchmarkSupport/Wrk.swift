import Foundation

/// What wrk reports for one run.
public struct LoadResult: Sendable {
    public var requestsPerSecond: Double
    public var requests: Int
    /// Socket errors plus responses that were not 2xx or 3xx.
    public var errors: Int
    public var latencyP99: Duration?
}

/// Runs wrk (Debian package `wrk`) against a URL: the load generator the reference
/// figure was measured with.
public enum Wrk {
    public static func run(
        url: String, threads: Int = 2, connections: Int = 32, seconds: Int = 5
    ) throws -> LoadResult {
        let output = try runProcess(
            "wrk", ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", url]
        )
        return try parse(output)
    }

    /// Reads the summary lines of wrk's text output.
    static func parse(_ output: String) throws -> LoadResult {
        var result = LoadResult(requestsPerSecond: 0, requests: 0, errors: 0, latencyP99: nil)
        var sawRate = false
        for line in output.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            guard let first = fields.first else { continue }
            switch first {
            case "Requests/sec:":
                result.requestsPerSecond = Double(fields[1]) ?? 0
                sawRate = true
            case "99%":
                result.latencyP99 = fields.count > 1 ? duration(fields[1]) : nil
            case "Non-2xx":
                result.errors += Int(fields.last ?? "") ?? 0
            case "Socket":
                // "Socket errors: connect 0, read 0, write 0, timeout 0"
                result.errors += fields.compactMap { Int($0) }.reduce(0, +)
            default:
                // "  240000 requests in 5.00s, 5.12GB read"
                if fields.count > 2, fields[1] == "requests", fields[2] == "in" {
                    result.requests = Int(first) ?? 0
                }
            }
        }
        guard sawRate else { throw BenchmarkError("wrk printed no Requests/sec line:\n\(output)") }
        return result
    }

    /// wrk's durations: `812.00us`, `1.20ms`, `2.00s`.
    static func duration(_ text: String) -> Duration? {
        for (suffix, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)) else { return nil }
            return .nanoseconds(Int64(value * scale * 1e9))
        }
        return nil
    }
}

/// A benchmark that cannot run: a tool is missing or misbehaves.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Runs a program found on PATH (or an absolute path) and returns its standard output.
/// Fails when it cannot start or exits with a non-zero status.
public func runProcess(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
        throw BenchmarkError("\(program) exited with \(process.terminationStatus):\n\(text)")
    }
    return text
}
