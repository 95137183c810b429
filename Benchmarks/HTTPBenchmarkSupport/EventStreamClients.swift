import Foundation

/// Many clients, each holding a server-sent events stream open on its own connection, read
/// by one thread with poll(2): the fan-out side of an SSE benchmark.
///
/// Every client sends the same GET and then only reads. `waitForMarker` reads every
/// connection until each has received the given bytes, and tells when each one did.
public final class EventStreamClients {
    private struct Client {
        let descriptor: Int32
        /// Received bytes not yet matched, kept short: only a marker's length is needed.
        var pending: [UInt8] = []
    }

    private var clients: [Client] = []

    /// Opens `count` connections to 127.0.0.1:`port` and requests `path` on each, then waits
    /// until every one has received `firstMarker` (a byte sequence the stream starts with).
    public init(port: UInt16, path: String, count: Int, firstMarker: String, timeout: Duration) throws {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        for index in 0..<count {
            let descriptor = try connectLoopback(port: port)
            let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == request.count else {
                close(descriptor)
                throw BenchmarkError("client \(index) could not send its request")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            clients.append(Client(descriptor: descriptor))
        }
        _ = try waitForMarker(firstMarker, since: .now, timeout: timeout)
    }

    deinit {
        for client in clients { close(client.descriptor) }
    }

    public var count: Int { clients.count }

    /// Reads all connections until each has received `marker`, and returns for each client
    /// the time from `start` to the read that completed its marker. Throws when a
    /// connection closes or `timeout` passes first.
    public func waitForMarker(_ marker: String, since start: ContinuousClock.Instant, timeout: Duration) throws -> [Duration] {
        let needle = Array(marker.utf8)
        var arrivals = [Duration?](repeating: nil, count: clients.count)
        let deadline = ContinuousClock.now + timeout
        // Only the clients still waiting are polled, so the set shrinks as events arrive and
        // the measuring thread costs less than the delivery it measures.
        var waiting = Array(clients.indices)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !waiting.isEmpty {
            let left = deadline - .now
            guard left > .zero else {
                throw BenchmarkError("\(waiting.count) of \(clients.count) clients did not receive \(marker.debugDescription) in time")
            }
            var watched = waiting.map { pollfd(fd: clients[$0].descriptor, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&watched, nfds_t(watched.count), Int32(max(1, microseconds(left) / 1000)))
            guard ready >= 0 || errno == EINTR else { throw BenchmarkError("poll failed: errno \(errno)") }
            for (position, index) in waiting.enumerated() where watched[position].revents != 0 {
                while true {
                    let count = chunk.withUnsafeMutableBytes { recv(clients[index].descriptor, $0.baseAddress, $0.count, 0) }
                    if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                    guard count > 0 else { throw BenchmarkError("client \(index) lost its connection") }
                    guard arrivals[index] == nil else { continue }
                    clients[index].pending.append(contentsOf: chunk[..<count])
                    if clients[index].pending.endOfFirst(needle) != nil {
                        arrivals[index] = .now - start
                        clients[index].pending = []
                    } else if clients[index].pending.count > needle.count {
                        clients[index].pending.removeFirst(clients[index].pending.count - needle.count)
                    }
                }
            }
            waiting.removeAll { arrivals[$0] != nil }
        }
        return arrivals.compactMap { $0 }
    }
}

/// Raises this process's soft limit on open files to `wanted` (or to the hard limit if that
/// is lower), for benchmarks that open a connection per simulated client.
public func raiseOpenFileLimit(to wanted: Int) throws {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
        throw BenchmarkError("getrlimit failed: errno \(errno)")
    }
    let target = min(rlim_t(wanted), limit.rlim_max)
    guard limit.rlim_cur < target else { return }
    limit.rlim_cur = target
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
        throw BenchmarkError("setrlimit failed: errno \(errno)")
    }
}
