import Foundation
import Glibc
import MicroHTTPD
import Synchronization
import Testing

/// Runs blocking client work on a thread of its own, so that it never occupies one of the
/// few threads of Swift's cooperative pool, which the server's handlers need.
func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}

/// A server on an ephemeral loopback port, for one test.
func startServer(
    _ configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
) throws -> HTTPServer {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    return try HTTPServer(configuration: configuration, handler: handler)
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// A value shared between a test and its handlers.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    var current: Value { value.withLock { $0 } }

    func update<R: Sendable>(_ body: (inout Value) -> R) -> R {
        value.withLock { body(&$0) }
    }
}

/// A one-shot signal a handler can await and a test can fire.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

struct ClientError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking HTTP/1.1 client on a plain socket, to send exactly the bytes a test wants
/// (slow, malformed, pipelined) and to read a response, or a stream, as it arrives.
/// Tests hand it from one offloaded thread to the next; the lock makes that safe.
final class RawHTTPClient: Sendable {
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let descriptor: Int32
    /// Bytes received and not yet parsed.
    private let received = Mutex<[UInt8]>([])

    /// Connects to 127.0.0.1:`port`; reads give up after `readTimeout`.
    init(port: UInt16, readTimeout: Duration = .seconds(5)) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw ClientError(description: "connect: \(String(cString: strerror(code)))")
        }
        let (seconds, attoseconds) = readTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw ClientError(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer; false at end of stream (or a reset connection).
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received.withLock { $0.append(contentsOf: chunk[..<count]) }
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw ClientError(description: "recv: \(String(cString: strerror(errno)))")
    }

    /// Waits until the server closes the connection, discarding what it sends.
    /// True when it closed; false when it sent bytes and kept the connection open, or timed out.
    func waitForClose() -> Bool {
        (try? fill()) == false
    }

    private func readLine() throws -> String {
        while true {
            let line = received.withLock { buffer -> String? in
                guard let end = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                let line = buffer[..<end]
                defer { buffer.removeFirst(end + 1) }
                return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
            if let line { return line }
            guard try fill() else { throw ClientError(description: "connection closed in a line") }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while received.withLock({ $0.count }) < count {
            guard try fill() else { throw ClientError(description: "connection closed in a body") }
        }
        return received.withLock { buffer in
            defer { buffer.removeFirst(count) }
            return Array(buffer[..<count])
        }
    }

    /// Reads a status line and headers.
    func readHead() throws -> Response {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw ClientError(description: "bad status line \(statusLine.debugDescription)")
        }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else {
                throw ClientError(description: "bad header line \(line.debugDescription)")
            }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return Response(status: status, headers: headers, body: [])
    }

    /// Reads one chunk of a chunked body; nil for the last (empty) chunk.
    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
            throw ClientError(description: "bad chunk size \(sizeLine.debugDescription)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let chunk = try readExactly(size)
        guard try readLine().isEmpty else { throw ClientError(description: "chunk not followed by CRLF") }
        return chunk
    }

    /// Reads a whole response to a request that was not HEAD.
    func readResponse() throws -> Response {
        var response = try readHead()
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readExactly(length)
        } else {
            while try fill() {}
            response.body = received.withLock { buffer in
                defer { buffer = [] }
                return buffer
            }
        }
        return response
    }

    /// Sends a request and reads its response.
    func exchange(_ request: String) throws -> Response {
        try send(request)
        return try readResponse()
    }
}
