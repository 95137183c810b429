import CMicroHTTPD
import CShims
import Glibc
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that answers every request with an `HTTPHandler`.
///
/// Creating a server binds its socket and starts serving; `stop()` ends it. In between:
/// - libmicrohttpd's thread pool reads requests and writes responses, with keep-alive, a
///   connection limit, an idle timeout and a body limit (413) applied before any handler runs;
/// - each complete request is handed to the handler in a Swift task, while its connection is
///   suspended in libmicrohttpd. No libmicrohttpd thread waits for a handler, so a slow handler
///   delays only its own client, and handlers may await actors;
/// - when the handler returns, the connection is resumed and its response sent. A
///   `StreamingBody` keeps the connection open and sends what its producer writes.
///
/// Shutdown (`stop()`) resumes every suspended connection, stops the daemon (closing all
/// connections and ending every stream with `.serverStopped`), then cancels the handler tasks
/// still running and waits for them. When it returns, no handler and no callback runs any more,
/// and the port is free. Calling it again, even concurrently, waits for the same shutdown.
/// A server released without `stop()` shuts down the same way but without waiting for its
/// handler tasks.
public final class HTTPServer: Sendable {
    public let configuration: Configuration
    /// The address the server listens on, with the port the kernel picked for port 0.
    public let localAddress: SocketAddress

    /// The port the server listens on.
    public var port: UInt16 { localAddress.port }

    private let dispatcher: Dispatcher
    private let lifecycle: Mutex<Lifecycle>

    /// The daemon pointer, handed from `init` to the one shutdown that stops it.
    private struct DaemonHandle: @unchecked Sendable {
        // Sendable because it is used by exactly one thread at a time: it is taken out of the
        // lifecycle lock by the single shutdown, and MHD_stop_daemon is the only call made on it.
        let pointer: OpaquePointer
    }

    private struct Lifecycle {
        var daemon: DaemonHandle?
        var shutdown: Task<Void, Never>?
    }

    /// Binds the configured address and starts serving requests with `handler`.
    public init(configuration: Configuration = Configuration(), handler: some HTTPHandler) throws(HTTPServerError) {
        try configuration.validate()
        let socket = try ListeningSocket.open(
            host: configuration.host, port: configuration.port,
            backlog: Int32(clamping: min(configuration.connectionLimit, 4096))
        )
        let dispatcher = Dispatcher(
            handler: handler,
            maximumBodyBytes: configuration.maximumBodyBytes,
            keepAlive: configuration.keepAlive
        )
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.descriptor), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
            // HTTP/1.1 requires a Host header (RFC 9112, section 3.2); strict mode answers 400
            // without one and refuses spaces in the target.
            MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 1, ptr_value: nil),
            hlsq_mhd_option_uri_log_callback(DaemonCallbacks.logURI, nil),
        ]
        if configuration.threadPoolSize > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadPoolSize, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        let context = Unmanaged.passUnretained(dispatcher).toOpaque()
        guard let daemon = hlsq_mhd_start(
            UInt32(flags), 0, DaemonCallbacks.access, context,
            DaemonCallbacks.completed, context, &options
        ) else {
            socket.closeAfterFailedStart()
            throw HTTPServerError(
                .cannotStart,
                "libmicrohttpd could not start a daemon on \(socket.address) with \(configuration.threadPoolSize) threads"
            )
        }
        self.configuration = configuration
        self.localAddress = socket.address
        self.dispatcher = dispatcher
        self.lifecycle = Mutex(Lifecycle(daemon: DaemonHandle(pointer: daemon)))
    }

    /// Creates a server whose handler is a closure.
    public convenience init(
        configuration: Configuration = Configuration(),
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) throws(HTTPServerError) {
        try self.init(configuration: configuration, handler: ClosureHandler(body: handler))
    }

    /// Stops serving: see the type's documentation. Idempotent.
    ///
    /// It waits for the handlers in flight, so a handler must not await it (it would wait for
    /// itself); a handler that stops the server starts the stop in a task of its own.
    public func stop() async {
        let shutdown = lifecycle.withLock { lifecycle in
            if let shutdown = lifecycle.shutdown { return shutdown }
            let daemon = lifecycle.daemon.take()
            let dispatcher = dispatcher
            let shutdown = Task {
                if let daemon { Self.stopDaemon(daemon, dispatcher: dispatcher) }
                await dispatcher.handlerTasks.cancelAllAndWait()
            }
            lifecycle.shutdown = shutdown
            return shutdown
        }
        await shutdown.value
    }

    deinit {
        let daemon = lifecycle.withLock { $0.daemon.take() }
        if let daemon {
            Self.stopDaemon(daemon, dispatcher: dispatcher)
            dispatcher.handlerTasks.cancelAll()
        }
    }

    /// Wakes every suspended connection (libmicrohttpd must not be stopped with one), then
    /// stops the daemon, which closes the connections and joins its threads.
    private static func stopDaemon(_ daemon: DaemonHandle, dispatcher: Dispatcher) {
        dispatcher.suspensions.resumeAllForShutdown()
        MHD_stop_daemon(daemon.pointer)
    }
}
