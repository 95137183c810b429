/// Why a server could not start.
public struct HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable {
        private enum Kind: Hashable, Sendable {
            case invalidConfiguration, cannotBind, cannotStart
        }

        private let kind: Kind

        /// A setting is out of range, or the host is not an address of this machine.
        public static let invalidConfiguration = Code(kind: .invalidConfiguration)
        /// The listening socket could not be created, bound or put in listening mode (for
        /// example the port is in use); `systemError` holds the errno.
        public static let cannotBind = Code(kind: .cannotBind)
        /// libmicrohttpd refused to start its daemon with the listening socket.
        public static let cannotStart = Code(kind: .cannotStart)
    }

    public let code: Code
    public let message: String
    /// The errno of the failed system call, when there was one.
    public let systemError: Int32?

    init(_ code: Code, _ message: String, systemError: Int32? = nil) {
        self.code = code
        self.message = message
        self.systemError = systemError
    }

    public var description: String { message }
}
