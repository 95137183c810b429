import Glibc

/// Opens the listening socket the daemon is given, so that a failure to bind reports its
/// errno (libmicrohttpd only returns NULL) and the bound port is known after asking for 0.
enum ListeningSocket {
    struct Opened {
        /// The descriptor, bound and listening; libmicrohttpd closes it when it stops.
        let descriptor: Int32
        let address: SocketAddress
        let isIPv6: Bool
        /// The socket's inode, which tells it apart from a later file with the same number.
        let inode: UInt

        /// Closes the socket after libmicrohttpd failed to start with it. libmicrohttpd
        /// closes it or not depending on where it failed, so the descriptor is closed only if
        /// it still is this socket (it may have been closed and its number reused).
        func closeAfterFailedStart() {
            var file = stat()
            guard fstat(descriptor, &file) == 0, UInt(file.st_ino) == inode else { return }
            close(descriptor)
        }
    }

    static func open(host: String, port: UInt16, backlog: Int32) throws(HTTPServerError) -> Opened {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw HTTPServerError(
                .invalidConfiguration,
                "cannot listen on \(host.debugDescription): \(String(cString: gai_strerror(status)))"
            )
        }
        defer { freeaddrinfo(results) }
        let info = first.pointee
        let endpoint = "\(host) port \(port)"

        let descriptor = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
        guard descriptor >= 0 else {
            throw systemFailure("cannot create a socket for \(endpoint)")
        }
        var succeeded = false
        defer { if !succeeded { close(descriptor) } }

        var enable: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enable, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw systemFailure("cannot set SO_REUSEADDR for \(endpoint)")
        }
        guard bind(descriptor, info.ai_addr, info.ai_addrlen) == 0 else {
            throw systemFailure("cannot bind \(endpoint)")
        }
        guard listen(descriptor, backlog) == 0 else {
            throw systemFailure("cannot listen on \(endpoint)")
        }
        var bound = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let address = withUnsafeMutablePointer(to: &bound) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> SocketAddress? in
                guard getsockname(descriptor, pointer, &boundLength) == 0 else { return nil }
                return SocketAddress(numeric: pointer)
            }
        }
        guard let address else {
            throw systemFailure("cannot read the address bound for \(endpoint)")
        }
        var file = stat()
        guard fstat(descriptor, &file) == 0 else {
            throw systemFailure("cannot inspect the socket for \(endpoint)")
        }
        succeeded = true
        return Opened(
            descriptor: descriptor, address: address, isIPv6: info.ai_family == AF_INET6,
            inode: UInt(file.st_ino)
        )
    }

    private static func systemFailure(_ what: String) -> HTTPServerError {
        let code = errno
        return HTTPServerError(.cannotBind, "\(what): \(String(cString: strerror(code)))", systemError: code)
    }
}
