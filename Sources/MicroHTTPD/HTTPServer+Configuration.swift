import Glibc

extension HTTPServer {
    /// How a server listens and what it tolerates from clients.
    public struct Configuration: Sendable, Equatable {
        /// The address to bind: a numeric IPv4 or IPv6 address, or a name that resolves to
        /// one of this machine's (`localhost`). Loopback by default.
        public var host: String
        /// The port to bind; 0 lets the kernel pick a free one (`HTTPServer.port` tells which).
        public var port: UInt16
        /// Threads libmicrohttpd uses to serve connections, 1 to 256 (handlers run on Swift's
        /// executor, not on these). Defaults to the number of processors.
        public var threadPoolSize: Int
        /// Connections open at once; further clients wait in the listen queue. Each
        /// server-sent events client holds one.
        public var connectionLimit: Int
        /// A connection on which nothing is received or sent for this long is closed. This is
        /// what disconnects a client that sends its request slowly (slowloris) or leaves a
        /// keep-alive connection idle. Connections waiting for a handler or for a stream's
        /// next bytes are not subject to it. Whole seconds, at least one.
        public var idleTimeout: Duration
        /// The largest request body accepted; a larger one gets 413 with a JSON error.
        public var maximumBodyBytes: Int
        /// Whether connections stay open for further requests (HTTP/1.1 persistent
        /// connections). When false every response closes its connection.
        public var keepAlive: Bool

        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            threadPoolSize: Int = Configuration.processorCount,
            connectionLimit: Int = 4096,
            idleTimeout: Duration = .seconds(30),
            maximumBodyBytes: Int = 1 << 20,
            keepAlive: Bool = true
        ) {
            self.host = host
            self.port = port
            self.threadPoolSize = threadPoolSize
            self.connectionLimit = connectionLimit
            self.idleTimeout = idleTimeout
            self.maximumBodyBytes = maximumBodyBytes
            self.keepAlive = keepAlive
        }

        /// The processors online, at least one.
        public static var processorCount: Int {
            max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }

        /// `idleTimeout` in whole seconds, rounded up.
        var idleTimeoutSeconds: Int {
            let (seconds, attoseconds) = idleTimeout.components
            return Int(seconds) + (attoseconds > 0 ? 1 : 0)
        }

        func validate() throws(HTTPServerError) {
            func invalid(_ message: String) -> HTTPServerError {
                HTTPServerError(.invalidConfiguration, message)
            }
            guard (1...256).contains(threadPoolSize) else {
                throw invalid("the thread pool needs 1 to 256 threads, not \(threadPoolSize)")
            }
            guard connectionLimit >= 1 else { throw invalid("the connection limit must be at least 1") }
            guard idleTimeoutSeconds >= 1 else { throw invalid("the idle timeout must be at least one second") }
            guard maximumBodyBytes >= 0 else { throw invalid("the maximum body size cannot be negative") }
        }
    }
}
