import Foundation

/// One client on one keep-alive connection, sending the same request again and again and
/// timing each round trip: the latency a single user sees, without wrk's parallelism.
public final class KeepAliveProbe {
    private let descriptor: Int32
    private var received: [UInt8] = []

    public init(port: UInt16) throws {
        descriptor = try connectLoopback(port: port)
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        close(descriptor)
    }

    /// Sends `request` (a complete HTTP/1.1 request that keeps the connection open) `count`
    /// times, each after the previous response has fully arrived, and returns the round trip
    /// times, sorted. Every response must have a `Content-Length` and a 2xx status.
    public func roundTrips(request: String, count: Int) throws -> [Duration] {
        let bytes = Array(request.utf8)
        let clock = ContinuousClock()
        var durations: [Duration] = []
        durations.reserveCapacity(count)
        for _ in 0..<count {
            let start = clock.now
            try send(bytes)
            try readResponse()
            durations.append(clock.now - start)
        }
        return durations.sorted()
    }

    private func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw BenchmarkError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw BenchmarkError("the server closed the connection") }
        received.append(contentsOf: chunk[..<count])
    }

    // The round trip ends once the response is parsed, so parsing must cost next to nothing:
    // the head is searched and read as bytes (the generic collection searches and Foundation
    // string calls it used before took about 30 µs a response, counted in every round trip).
    private func readResponse() throws {
        var headEnd = received.endOfFirst(Self.endOfHead)
        while headEnd == nil {
            try fill()
            headEnd = received.endOfFirst(Self.endOfHead)
        }
        guard let headEnd else { return }
        let head = received[..<headEnd]
        guard head.starts(with: Self.successPrefix) else {
            throw BenchmarkError("unexpected response: \(String(decoding: head.prefix(80), as: UTF8.self))")
        }
        guard let length = Self.contentLength(in: head) else { throw BenchmarkError("a response without Content-Length") }
        while received.count < headEnd + length { try fill() }
        received.removeFirst(headEnd + length)
    }

    private static let endOfHead = Array("\r\n\r\n".utf8)
    private static let successPrefix = Array("HTTP/1.1 2".utf8)
    private static let contentLengthName = Array("content-length:".utf8)

    /// The `Content-Length` of a response head (the name in any case).
    private static func contentLength(in head: ArraySlice<UInt8>) -> Int? {
        for line in head.split(separator: 0x0A) {
            let name = line.prefix(contentLengthName.count)
            guard name.count == contentLengthName.count,
                  zip(name, contentLengthName).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { continue }
            let digits = line.dropFirst(contentLengthName.count).filter { $0 != 0x20 && $0 != 0x0D }
            return Int(String(decoding: digits, as: UTF8.self))
        }
        return nil
    }
}

/// The value at fraction `p` (0...1) of sorted durations.
public func percentile(_ sorted: [Duration], _ p: Double) -> Duration {
    guard !sorted.isEmpty else { return .zero }
    let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
    return sorted[max(0, index)]
}

/// Microseconds in a duration.
public func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

/// The CPU time this process has used so far, in user and system mode, all threads.
public func processCPUTime() -> Duration {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func duration(_ time: timeval) -> Duration {
        .seconds(time.tv_sec) + .microseconds(time.tv_usec)
    }
    return duration(usage.ru_utime) + duration(usage.ru_stime)
}

/// A TCP connection to 127.0.0.1:`port`.
public func connectLoopback(port: UInt16) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BenchmarkError("socket failed: errno \(errno)") }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(descriptor)
        throw BenchmarkError("cannot connect to port \(port): errno \(errno)")
    }
    return descriptor
}

/// A loopback port nothing listens on right now (the kernel's pick for port 0).
public func freeLoopbackPort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BenchmarkError("socket failed: errno \(errno)") }
    defer { close(descriptor) }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw BenchmarkError("cannot bind a loopback port: errno \(errno)") }
    return UInt16(bigEndian: address.sin_port)
}

/// Polls until something accepts connections on `port`.
public func waitUntilListening(port: UInt16, timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let descriptor = try? connectLoopback(port: port) {
            close(descriptor)
            return true
        }
        usleep(20_000)
    }
    return false
}

private func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}
