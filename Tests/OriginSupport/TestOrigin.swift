import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The test HTTP origin, `Tests/origin/origin.py`, running as a child process.
///
/// `TestOrigin()` starts the script with `python3`, waits until it prints its base URL (it is
/// listening by then) and keeps it running until ``stop()`` or deinit. The origin serves a
/// folder (the repository's `playlists/` unless told otherwise) on 127.0.0.1 with an
/// ephemeral port, so tests running in parallel each get their own.
///
/// Faults are injected per request: either in the URL (``url(_:faults:)``), or with rules
/// matched against request paths (``addRule(path:times:faults:)``) for URLs a test does not
/// build itself, such as the segments of a playlist. ``requests()`` returns what the origin
/// answered. The origin's own stdin is a pipe held by this object: if the test process dies,
/// the pipe closes and the origin exits, so no server outlives its test run.
///
/// The control requests use Foundation's URL loading, not hlsq's `Loader`, so that tests of
/// the loader never depend on the code under test to set up their faults.
public final class TestOrigin: Sendable {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public let baseURL: String
    /// The folder being served.
    public let root: URL

    private let process: Process
    // Kept so that the origin's stdin stays open for as long as this object lives.
    private let stdin: Pipe

    /// The repository's `playlists/` folder.
    public static let playlists = repository.appendingPathComponent("playlists")

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static let script = repository.appendingPathComponent("Tests/origin/origin.py")

    /// Starts an origin serving `root`.
    public init(root: URL = TestOrigin.playlists) throws {
        self.root = root
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--root", root.path, "--exit-on-stdin-eof"]
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()

        // The first line is the base URL; an early end means the script failed to start
        // (its error went to our stderr).
        var line = Data()
        let reader = stdout.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("http://127.0.0.1:") else {
            process.terminate()
            throw OriginError(message: "the origin did not start (it printed \"\(text)\")")
        }
        baseURL = text
    }

    deinit {
        stop()
    }

    /// Stops the origin and waits for it to exit. Calling it again does nothing.
    public func stop() {
        // Either ends the origin: the signal, or the end of its stdin.
        if process.isRunning {
            process.terminate()
        }
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The URL of `path` (which starts with `/`) with `faults` as query parameters.
    public func url(_ path: String, faults: Fault = Fault()) -> String {
        let query = faults.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return baseURL + path + (query.isEmpty ? "" : "?" + query)
    }

    /// Adds a rule: requests whose path matches the glob `path` get `faults`, for the next
    /// `times` matching requests or for all of them when `times` is nil. When `ranged` is
    /// given, only requests with (true) or without (false) a `Range` header match. Rules are
    /// tried in the order they were added; faults in a URL's query override a rule's.
    /// Returns the rule's id.
    @discardableResult
    public func addRule(path: String, times: Int? = nil, ranged: Bool? = nil, faults: Fault) async throws -> Int {
        var rule: [String: Any] = ["path": path]
        if let times { rule["times"] = times }
        if let ranged { rule["ranged"] = ranged }
        for parameter in faults.parameters {
            rule[parameter.name] = parameter.json
        }
        let body = try JSONSerialization.data(withJSONObject: rule)
        let answer = try await control("POST", "faults", body: body)
        struct Created: Decodable { var id: Int }
        return try JSONDecoder().decode(Created.self, from: answer).id
    }

    /// Removes one rule, or every rule when `id` is nil.
    public func removeRules(id: Int? = nil) async throws {
        _ = try await control("DELETE", id.map { "faults/\($0)" } ?? "faults")
    }

    /// Every request the origin has finished answering, oldest first.
    public func requests() async throws -> [OriginRequest] {
        let answer = try await control("GET", "requests")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode([OriginRequest].self, from: answer)
    }

    /// The logged requests that match `predicate`, once there are at least `count` of them
    /// or 5 seconds have passed. The origin logs a request just after its last byte, so a
    /// client can finish before its request shows up: use this rather than ``requests()``
    /// right after a transfer.
    public func requests(
        atLeast count: Int, matching predicate: (OriginRequest) -> Bool
    ) async throws -> [OriginRequest] {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let matching = try await requests().filter(predicate)
            if matching.count >= count || ContinuousClock.now >= deadline { return matching }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Forgets the requests answered so far.
    public func clearRequests() async throws {
        _ = try await control("DELETE", "requests")
    }

    private func control(_ method: String, _ endpoint: String, body: Data? = nil) async throws -> Data {
        guard let url = URL(string: baseURL + "/_origin/" + endpoint) else {
            throw OriginError(message: "bad control URL for \(endpoint)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw OriginError(message: "\(method) \(endpoint): \(status) \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }
}

/// Faults the origin injects into one answer. Every field is optional; they combine (a
/// delayed, throttled, truncated body, say). docs/DEVELOPMENT.md documents each.
public struct Fault: Sendable, Hashable {
    /// Answer with this status and a short text body instead of the file.
    public var status: Int?
    /// Seconds to wait before sending the status line.
    public var delay: Double?
    /// Throttle the body to this many bytes per second.
    public var rate: Int?
    /// Send this many body bytes, then nothing more, holding the connection for `stallFor`
    /// seconds (60 by default) or until the client leaves.
    public var stallAfter: Int?
    public var stallFor: Double?
    /// Announce the full length, send this many body bytes, then close the connection.
    public var truncate: Int?
    /// Answer 302 to the same URL with one redirect fewer, this many times.
    public var redirect: Int?
    /// Answer 302 to this location.
    public var redirectTo: String?
    /// Answer 200 with the whole file even when a byte range is asked for.
    public var ignoreRange: Bool


    public init(
        status: Int? = nil, delay: Double? = nil, rate: Int? = nil,
        stallAfter: Int? = nil, stallFor: Double? = nil, truncate: Int? = nil,
        redirect: Int? = nil, redirectTo: String? = nil, ignoreRange: Bool = false
    ) {
        self.status = status
        self.delay = delay
        self.rate = rate
        self.stallAfter = stallAfter
        self.stallFor = stallFor
        self.truncate = truncate
        self.redirect = redirect
        self.redirectTo = redirectTo
        self.ignoreRange = ignoreRange
    }

    /// The origin's names for the faults that are set, with their query and JSON values.
    var parameters: [(name: String, value: String, json: Any)] {
        var result: [(String, String, Any)] = []
        if let status { result.append(("status", "\(status)", status)) }
        if let delay { result.append(("delay", "\(delay)", delay)) }
        if let rate { result.append(("rate", "\(rate)", rate)) }
        if let stallAfter { result.append(("stall_after", "\(stallAfter)", stallAfter)) }
        if let stallFor { result.append(("stall_for", "\(stallFor)", stallFor)) }
        if let truncate { result.append(("truncate", "\(truncate)", truncate)) }
        if let redirect { result.append(("redirect", "\(redirect)", redirect)) }
        if let redirectTo {
            let escaped = redirectTo.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? redirectTo
            result.append(("redirect_to", escaped, redirectTo))
        }
        if ignoreRange { result.append(("ignore_range", "1", 1)) }
        return result
    }
}

/// One request as the origin logged it after answering.
public struct OriginRequest: Sendable, Decodable, Hashable {
    public var method: String
    public var path: String
    public var query: String
    /// The request's `Range` header.
    public var range: String?
    public var userAgent: String?
    public var acceptEncoding: String?
    /// The status sent, or nil when the client left before the answer started.
    public var status: Int?
    /// `gzip` when the body was compressed.
    public var contentEncoding: String?
    /// Body bytes written to the socket.
    public var bytesSent: Int
}

/// The origin could not be started or controlled.
public struct OriginError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
