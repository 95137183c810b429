import CMicroHTTPD
import CShims
import Glibc

/// The server's side of libmicrohttpd's callbacks: it moves each request's `Exchange`
/// forward, runs handlers in tasks, and queues their responses.
///
/// Every method here runs on one of libmicrohttpd's threads, for one connection at a time,
/// and returns without waiting for Swift work: a request waiting for its handler, or a stream
/// waiting for its producer, is a suspended connection, not a blocked thread.
final class Dispatcher: Sendable {
    let handler: any HTTPHandler
    let maximumBodyBytes: Int
    let keepAlive: Bool
    let suspensions = SuspensionRegistry()
    let handlerTasks = HandlerTasks()

    /// Bytes libmicrohttpd asks the content reader for at most, per call.
    static let streamBlockSize = 16 * 1024

    init(handler: any HTTPHandler, maximumBodyBytes: Int, keepAlive: Bool) {
        self.handler = handler
        self.maximumBodyBytes = maximumBodyBytes
        self.keepAlive = keepAlive
    }

    /// One call of the access handler for `exchange`.
    func access(
        _ exchange: Exchange,
        connection: OpaquePointer,
        method: UnsafePointer<CChar>?,
        upload: UnsafeRawBufferPointer
    ) -> MHD_Result {
        let step = exchange.advance(
            upload: upload,
            maximumBodyBytes: maximumBodyBytes,
            isStopping: suspensions.isStopping
        ) {
            Exchange.Head(
                method: HTTPMethod(rawValue: method.map { String(cString: $0) } ?? ""),
                headers: Self.requestHeaders(of: connection),
                remoteAddress: Self.remoteAddress(of: connection)
            )
        }
        switch step {
        case .proceed:
            return .YES
        case .answer(let response):
            return queue(response, for: exchange, on: connection)
        case .dispatch(let request):
            // An answer that is a lookup goes out at once, without a task or a suspension.
            if let immediate = handler.immediateResponse(to: request), !immediate.isStreaming,
               exchange.respondImmediately() {
                return queue(immediate, for: exchange, on: connection)
            }
            guard suspensions.suspend(ConnectionHandle(pointer: connection), for: ObjectIdentifier(exchange)) else {
                return .NO
            }
            let handler = handler
            let suspensions = suspensions
            handlerTasks.start {
                guard !Task.isCancelled else { return }
                let response = await handler.respond(to: request)
                if exchange.deliver(response) {
                    suspensions.resume(for: ObjectIdentifier(exchange))
                } else if case .stream(let stream) = response.body {
                    stream.end(.serverStopped)
                }
            }
            return .YES
        case .suspendAgain:
            let suspended = suspensions.suspend(ConnectionHandle(pointer: connection), for: ObjectIdentifier(exchange))
            return suspended ? .YES : .NO
        case .close:
            return .NO
        }
    }

    /// libmicrohttpd is done with `exchange`'s request, for the given reason.
    func complete(_ exchange: Exchange, reason: MHD_RequestTerminationCode) {
        guard let (stream, wasSent) = exchange.complete() else { return }
        // During shutdown a stream's connection is closed by the wrapper itself (its reader
        // fails once woken), which libmicrohttpd reports as an error.
        if !wasSent || suspensions.isStopping {
            stream.end(.serverStopped)
            return
        }
        switch reason {
        case .REQUEST_TERMINATED_COMPLETED_OK: stream.end(.finished)
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: stream.end(.serverStopped)
        default: stream.end(.clientDisconnected)
        }
    }

    /// Hands `response` to libmicrohttpd for sending on `connection`.
    private func queue(_ response: HTTPResponse, for exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        let created: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            created = bytes.withUnsafeBytes { hlsq_mhd_response_copying($0.count, $0.baseAddress) }
        case .shared(let shared):
            // The response owns one reference to the bytes, dropped by its free callback.
            let context = Unmanaged.passRetained(shared).toOpaque()
            created = MHD_create_response_from_buffer_with_free_callback_cls(
                shared.count, shared.baseAddress, DaemonCallbacks.releaseShared, context)
            if created == nil { Unmanaged<SharedBytes>.fromOpaque(context).release() }
        case .stream(let stream):
            guard stream.attach(to: ConnectionHandle(pointer: connection), suspensions: suspensions) else {
                return .NO
            }
            exchange.streaming(stream)
            // The response owns one reference to the stream, dropped by its free callback.
            let context = Unmanaged.passRetained(stream).toOpaque()
            created = MHD_create_response_from_callback(
                UInt64.max, Self.streamBlockSize,
                DaemonCallbacks.readStream, context, DaemonCallbacks.releaseStream
            )
            if created == nil { Unmanaged<StreamingBody>.fromOpaque(context).release() }
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for field in response.headers {
            // libmicrohttpd refuses names and values with line breaks; such a field is dropped.
            _ = MHD_add_response_header(created, field.name, field.value)
        }
        if !keepAlive {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(clamping: response.status.code), created)
    }

    // MARK: - Reading the request

    private final class HeaderCollector {
        var headers = HTTPHeaders()

        static let collect: MHD_KeyValueIterator = { context, _, name, value in
            guard let context, let name else { return .YES }
            let collector = Unmanaged<HeaderCollector>.fromOpaque(context).takeUnretainedValue()
            collector.headers.add(name: String(cString: name), value: value.map { String(cString: $0) } ?? "")
            return .YES
        }
    }

    private static func requestHeaders(of connection: OpaquePointer) -> HTTPHeaders {
        let collector = HeaderCollector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND, HeaderCollector.collect,
                Unmanaged.passUnretained(collector).toOpaque()
            )
        }
        return collector.headers
    }

    private static func remoteAddress(of connection: OpaquePointer) -> SocketAddress? {
        hlsq_mhd_connection_client_address(connection).flatMap(SocketAddress.init(numeric:))
    }
}

extension SocketAddress {
    /// The numeric form of an IPv4 or IPv6 socket address.
    init?(numeric address: UnsafePointer<sockaddr>) {
        let family = Int32(address.pointee.sa_family)
        let parsed: (host: String, port: UInt16)? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text in
            switch family {
            case AF_INET:
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var binary = ipv4.pointee.sin_addr
                    guard inet_ntop(family, &binary, text.baseAddress, socklen_t(text.count)) != nil,
                          let base = text.baseAddress else { return nil }
                    return (String(cString: base), UInt16(bigEndian: ipv4.pointee.sin_port))
                }
            case AF_INET6:
                return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var binary = ipv6.pointee.sin6_addr
                    guard inet_ntop(family, &binary, text.baseAddress, socklen_t(text.count)) != nil,
                          let base = text.baseAddress else { return nil }
                    return (String(cString: base), UInt16(bigEndian: ipv6.pointee.sin6_port))
                }
            default:
                return nil
            }
        }
        guard let parsed else { return nil }
        self.init(host: parsed.host, port: parsed.port)
    }
}
