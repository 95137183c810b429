import Foundation

/// One HTTP/1.1 client connection to 127.0.0.1 over a plain socket: requests go out byte for
/// byte as written (so tests can send what a library would normalize, such as `/../x`), and
/// responses are read with `Content-Length` or chunked bodies. It keeps the connection open
/// between requests, as a browser does.
final class HTTPConnection {
    struct Response {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        }

        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    }

    let port: UInt16
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeout: Duration = .seconds(10)) throws {
        self.port = port
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
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
            close(descriptor)
            throw TestFailure("cannot connect to port \(port): errno \(errno)")
        }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    /// Sends raw bytes.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestFailure("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends a request and reads its response. `json` sets the body and its content type.
    func request(
        _ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8]? = nil, json: String? = nil
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        var headers = headers
        let payload = body ?? json.map { Array($0.utf8) }
        if json != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let payload { head += "Content-Length: \(payload.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + (payload ?? []))
        return try readResponse(isHead: method == "HEAD")
    }

    /// Reads more bytes into the buffer; false when the peer closed.
    func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        guard count > 0 else { throw TestFailure("recv failed or timed out: errno \(errno)") }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    /// One line ending in CRLF, without it.
    private func line() throws -> String {
        while true {
            if let end = buffer.firstRange(of: [13, 10]) {
                let line = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeFirst(end.upperBound)
                return line
            }
            guard try fill() else { throw TestFailure("the connection closed mid-response") }
        }
    }

    private func bytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw TestFailure("the connection closed mid-body") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    func readResponse(isHead: Bool = false) throws -> Response {
        let statusLine = try line()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestFailure("bad status line \(statusLine)") }
        var headers: [(String, String)] = []
        while true {
            let field = try line()
            if field.isEmpty { break }
            guard let colon = field.firstIndex(of: ":") else { continue }
            headers.append((String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let response = Response(status: status, headers: headers, body: [])
        if isHead || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while true {
                let sizeLine = try line()
                let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) ?? 0
                if size == 0 {
                    _ = try line()
                    break
                }
                body += try bytes(size)
                _ = try line()
            }
            return Response(status: status, headers: headers, body: body)
        }
        let length = Int(response.header("Content-Length") ?? "0") ?? 0
        return Response(status: status, headers: headers, body: try bytes(length))
    }

    // MARK: - Server-sent events

    /// One event of an event stream.
    struct Event {
        var id: String?
        var type: String = "message"
        var data: String = ""

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// Opens an event stream on this connection and reads its response head.
    func openEventStream(_ target: String, headers: [String: String] = [:]) throws -> Response {
        var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try send(Array((head + "\r\n").utf8))
        let statusLine = try line()
        var headerFields: [(String, String)] = []
        while true {
            let field = try line()
            if field.isEmpty { break }
            if let colon = field.firstIndex(of: ":") {
                headerFields.append((String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        let status = Int(statusLine.split(separator: " ")[1]) ?? 0
        return Response(status: status, headers: headerFields, body: [])
    }

    private var streamText = ""

    /// The next complete event of a chunked event stream (comments and `retry` are skipped),
    /// or nil when none arrives within the socket's timeout.
    func nextEvent() throws -> Event? {
        while true {
            if let end = streamText.range(of: "\n\n") {
                let block = streamText[..<end.lowerBound]
                streamText.removeSubrange(..<end.upperBound)
                var event = Event()
                var hasData = false
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { continue }
                    let (field, value) = line.firstIndex(of: ":").map {
                        (String(line[..<$0]), String(line[line.index(after: $0)...]).drop { $0 == " " })
                    } ?? (String(line), "")
                    switch field {
                    case "id": event.id = String(value)
                    case "event": event.type = String(value)
                    case "data":
                        event.data += (hasData ? "\n" : "") + value
                        hasData = true
                    default: break
                    }
                }
                if hasData { return event }
                continue
            }
            // Chunked framing: a size line, the chunk, CRLF.
            let sizeLine: String
            do {
                sizeLine = try line()
            } catch {
                return nil
            }
            guard let size = Int(sizeLine, radix: 16), size > 0 else { return nil }
            streamText += String(decoding: try bytes(size), as: UTF8.self)
            _ = try line()
        }
    }
}
