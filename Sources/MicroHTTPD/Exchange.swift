import Synchronization

/// One request's way through the server, from its request line to its completion.
///
/// libmicrohttpd calls the access handler several times per request (headers, each piece of
/// body, the end of the body, and again after each resume); `advance` is the state machine
/// that turns each call into a `Step` for the dispatcher and does no I/O itself. The handler's
/// task hands its response over with `deliver`, and libmicrohttpd's completion callback ends
/// the exchange with `complete`.
///
/// ```
/// awaitingHeaders ─► receiving ─► handling ─► responseReady ─► responded ─► completed
///                                     └─► responded (answered at once: `respondImmediately`)
///        │               ├─► discarding ─► responded (413: the body outgrew the limit)
///        │               └─► responded (400: the target does not parse)
///        └─► responded (400: bad method or Content-Length; 413: declared length too large)
/// ```
/// Any phase may jump to `completed` when libmicrohttpd ends the request early (a broken
/// connection, or shutdown); a response delivered after that is dropped.
final class Exchange: Sendable {
    /// The request line's target, exactly as the client sent it.
    let rawTarget: String

    /// What the request line and headers said, gathered on the first call.
    struct Head: Sendable {
        var method: HTTPMethod
        var headers: HTTPHeaders
        var remoteAddress: SocketAddress?
    }

    enum Phase {
        case awaitingHeaders
        case receiving
        /// The body outgrew the limit: the rest is read and dropped, then 413 is sent.
        case discarding
        /// The connection is suspended while the handler's task runs.
        case handling
        case responseReady(HTTPResponse)
        /// The response is queued in libmicrohttpd; a streaming body is kept to report how
        /// the request ends.
        case responded(StreamingBody?)
        case completed
    }

    /// What the dispatcher does for one call of the access handler.
    enum Step {
        /// Wait for more of the request.
        case proceed
        /// Queue this response now.
        case answer(HTTPResponse)
        /// The request is complete: suspend the connection and run the handler.
        case dispatch(HTTPRequest)
        /// Woken without a response: suspend again.
        case suspendAgain
        /// End the connection without a response.
        case close
    }

    private struct State {
        var phase: Phase = .awaitingHeaders
        var head: Head?
        var body: [UInt8] = []

        /// Checked after every step: the head and the body exist only while the body is
        /// being received.
        func checkInvariants() -> Bool {
            if case .receiving = phase { return head != nil }
            return head == nil && body.isEmpty
        }
    }

    private let state = Mutex(State())

    init(rawTarget: String) {
        self.rawTarget = rawTarget
    }

    /// One call of the access handler. `upload` holds the body bytes of this call (empty on
    /// the header call and the end-of-body call); all of them are consumed.
    func advance(
        upload: UnsafeRawBufferPointer,
        maximumBodyBytes: Int,
        isStopping: Bool,
        readHead: () -> Head
    ) -> Step {
        state.withLock { state in
            defer { assert(state.checkInvariants()) }
            switch state.phase {
            case .awaitingHeaders:
                let head = readHead()
                // libmicrohttpd passes any bytes up to the first space as the method, and reads
                // the first of several Content-Length fields; both are refused here.
                guard head.method.isToken else {
                    state.phase = .responded(nil)
                    return .answer(.jsonError(
                        .badRequest, code: "invalidMethod",
                        message: "the method \(head.method.rawValue.debugDescription) is not an HTTP token"
                    ))
                }
                let declaredLengths = head.headers.values(for: "Content-Length")
                guard Set(declaredLengths).count <= 1 else {
                    state.phase = .responded(nil)
                    return .answer(.jsonError(
                        .badRequest, code: "conflictingContentLength",
                        message: "the request has Content-Length fields with different values"
                    ))
                }
                let declaredLength = declaredLengths.first.flatMap { Int($0) } ?? 0
                if declaredLength > maximumBodyBytes {
                    state.phase = .responded(nil)
                    return .answer(.bodyTooLarge(limit: maximumBodyBytes))
                }
                state.head = head
                // Reserve what is declared, up to a bound: a declared length costs nothing to
                // send, so it must not decide alone how much memory an idle client holds.
                state.body.reserveCapacity(min(declaredLength, 64 * 1024))
                state.phase = .receiving
                return .proceed

            case .receiving where upload.isEmpty:
                let target: HTTPRequestTarget
                do throws(HTTPRequestTargetError) {
                    target = try HTTPRequestTarget(parsing: rawTarget)
                } catch {
                    state.head = nil
                    state.body = []
                    state.phase = .responded(nil)
                    return .answer(.jsonError(.badRequest, code: "invalidRequestTarget", message: error.description))
                }
                guard let head = state.head else { return .close }
                let request = HTTPRequest(
                    method: head.method, target: target, headers: head.headers,
                    body: state.body, remoteAddress: head.remoteAddress
                )
                state.head = nil
                state.body = []
                state.phase = .handling
                return .dispatch(request)

            case .receiving:
                if state.body.count + upload.count > maximumBodyBytes {
                    state.body = []
                    state.head = nil
                    state.phase = .discarding
                } else {
                    state.body.append(contentsOf: upload)
                }
                return .proceed

            case .discarding:
                guard upload.isEmpty else { return .proceed }
                state.phase = .responded(nil)
                return .answer(.bodyTooLarge(limit: maximumBodyBytes))

            case .handling:
                return isStopping ? .close : .suspendAgain

            case .responseReady(let response):
                state.phase = .responded(nil)
                return .answer(response)

            case .responded, .completed:
                return .close
            }
        }
    }

    /// Records that `stream` is being sent, so that its end can be reported.
    func streaming(_ stream: StreamingBody) {
        state.withLock { state in
            if case .responded = state.phase { state.phase = .responded(stream) }
        }
    }

    /// Records that the request dispatched by the last step is answered at once, on the
    /// access handler's thread, instead of by a task. True when the exchange was waiting for
    /// its handler; the caller then queues the response itself.
    func respondImmediately() -> Bool {
        state.withLock { state in
            guard case .handling = state.phase else { return false }
            state.phase = .responded(nil)
            return true
        }
    }

    /// Hands the handler's response over. True when the connection waits for it and must be
    /// resumed; false when the request has already ended (the response is dropped).
    func deliver(_ response: HTTPResponse) -> Bool {
        state.withLock { state in
            guard case .handling = state.phase else { return false }
            state.phase = .responseReady(response)
            return true
        }
    }

    /// Ends the exchange. Returns the streaming body it was sending, or one it never got to
    /// send, with whether the sending had begun.
    func complete() -> (stream: StreamingBody, wasSent: Bool)? {
        state.withLock { state in
            defer {
                state.phase = .completed
                state.head = nil
                state.body = []
            }
            switch state.phase {
            case .responded(let stream?):
                return (stream, true)
            case .responseReady(let response):
                guard case .stream(let stream) = response.body else { return nil }
                return (stream, false)
            default:
                return nil
            }
        }
    }
}

extension HTTPResponse {
    static func bodyTooLarge(limit: Int) -> HTTPResponse {
        .jsonError(
            .contentTooLarge, code: "contentTooLarge",
            message: "the request body is larger than the limit of \(limit) bytes"
        )
    }
}
