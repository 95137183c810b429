import Synchronization

/// A response body written over time, such as a server-sent events stream.
///
/// A handler creates one, hands it to a producer (an event hub), and returns it in
/// `HTTPResponse(status:headers:body: .stream(body))`. The producer calls `write` whenever it
/// has bytes and `finish()` when the body is complete; both return at once and may be called
/// from any thread or task. The server sends what was written, in order, with chunked
/// transfer encoding (to an HTTP/1.0 client: as is, ending with the connection).
///
/// No thread waits for a producer: when everything written so far has been sent, the
/// connection is suspended in libmicrohttpd, and the next `write` (or `finish`) resumes it.
/// An idle stream therefore costs a little memory and no CPU, which is what lets one server
/// hold a thousand event streams.
///
/// The stream ends exactly once, with a `Termination` reported to the `onTermination` action:
/// - `.finished`: `finish()` was called and everything was sent;
/// - `.clientDisconnected`: the connection failed or was closed by the client. libmicrohttpd
///   does not watch a suspended connection, so a client that leaves an idle stream is noticed
///   at the next write or the one after it (when the kernel reports the broken pipe); a
///   producer that writes a heartbeat every few seconds bounds the delay;
/// - `.bufferLimitExceeded`: more than `bufferLimit` bytes were waiting for a client that does
///   not read; the connection is closed and the buffer dropped;
/// - `.serverStopped`: the server stopped, or the response was never sent (its request had
///   already ended).
///
/// After the stream has ended, `write` does nothing and returns `.terminated`. A stream is the
/// body of one response; returning it in a second response ends that response's connection.
public final class StreamingBody: Sendable {
    /// How a stream ended.
    public enum Termination: Sendable, Equatable {
        case finished
        case clientDisconnected
        case bufferLimitExceeded
        case serverStopped
    }

    /// The outcome of a `write`.
    public enum WriteResult: Sendable, Equatable {
        /// The bytes are queued for sending.
        case accepted
        /// The stream had already ended, or ended because of this write; nothing is sent.
        case terminated(Termination)
    }

    /// The most bytes that may wait for the client before the stream is ended.
    public let bufferLimit: Int

    private struct Attachment {
        let connection: ConnectionHandle
        let suspensions: SuspensionRegistry
    }

    private struct State {
        /// Bytes not yet handed to libmicrohttpd start at `readOffset`.
        var pending: [UInt8] = []
        var readOffset = 0
        var isFinishing = false
        var termination: Termination?
        var onTermination: (@Sendable (Termination) -> Void)?
        var attachment: Attachment?
        var wasAttached = false
        /// The connection is suspended because `pending` ran dry.
        var isParked = false

        var pendingCount: Int { pending.count - readOffset }

        /// Checked after every change: the connection is parked only while attached, open,
        /// and out of bytes to send; an ended stream holds no bytes.
        func checkInvariants() -> Bool {
            readOffset >= 0 && readOffset <= pending.count
                && (!isParked || (attachment != nil && pendingCount == 0 && !isFinishing && termination == nil))
                && (termination == nil || pending.isEmpty)
                && (attachment == nil || wasAttached)
        }
    }

    private let state = Mutex(State())

    /// - Parameter bufferLimit: the most bytes that may wait for a slow client (1 MiB by
    ///   default); a write beyond it ends the stream with `.bufferLimitExceeded`.
    public init(bufferLimit: Int = 1 << 20) {
        self.bufferLimit = max(1, bufferLimit)
    }

    /// Queues `bytes` for sending. Never blocks.
    @discardableResult
    public func write(_ bytes: some Collection<UInt8>) -> WriteResult {
        let (result, report) = state.withLock { state -> (WriteResult, Report?) in
            defer { assert(state.checkInvariants()) }
            if let termination = state.termination { return (.terminated(termination), nil) }
            if state.isFinishing { return (.terminated(.finished), nil) }
            if state.pendingCount + bytes.count > bufferLimit {
                let report = terminate(&state, .bufferLimitExceeded)
                wake(&state)
                return (.terminated(.bufferLimitExceeded), report)
            }
            state.pending.append(contentsOf: bytes)
            wake(&state)
            return (.accepted, nil)
        }
        report?.run()
        return result
    }

    /// Queues the UTF-8 bytes of `text` for sending. Never blocks.
    @discardableResult
    public func write(_ text: String) -> WriteResult {
        write(text.utf8)
    }

    /// Ends the body after the bytes written so far. Later writes are refused.
    public func finish() {
        state.withLock { state in
            defer { assert(state.checkInvariants()) }
            guard state.termination == nil, !state.isFinishing else { return }
            state.isFinishing = true
            wake(&state)
        }
    }

    /// How the stream ended, or nil while it is open.
    public var termination: Termination? {
        state.withLock { $0.termination }
    }

    /// Sets the action to run once when the stream ends; it runs at once if the stream has
    /// already ended. It may run on one of libmicrohttpd's threads, so it must return quickly
    /// and hand any real work to a task.
    public func onTermination(_ action: @escaping @Sendable (Termination) -> Void) {
        let ended = state.withLock { state -> Termination? in
            guard let termination = state.termination else {
                state.onTermination = action
                return nil
            }
            return termination
        }
        if let ended { action(ended) }
    }

    // MARK: - The server's side

    /// Resumes the connection if it waits for bytes. Called with the lock held, so that a
    /// resume never overtakes the suspension it answers.
    private func wake(_ state: inout State) {
        guard state.isParked, let attachment = state.attachment else { return }
        state.isParked = false
        attachment.suspensions.resume(for: ObjectIdentifier(self))
    }

    /// Binds the stream to the connection that sends it. False when the stream already
    /// belongs to another response or has ended.
    func attach(to connection: ConnectionHandle, suspensions: SuspensionRegistry) -> Bool {
        state.withLock { state in
            defer { assert(state.checkInvariants()) }
            guard !state.wasAttached, state.termination == nil else { return false }
            state.wasAttached = true
            state.attachment = Attachment(connection: connection, suspensions: suspensions)
            return true
        }
    }

    /// What the content reader tells libmicrohttpd.
    enum ReadResult: Equatable {
        case bytes(Int)
        /// Nothing to send yet; the connection has been suspended until the next write.
        case suspended
        case endOfStream
        case failed
    }

    /// Copies pending bytes into `buffer`, or suspends the connection when there are none.
    /// Only from libmicrohttpd's content reader for the attached connection.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        state.withLock { state in
            defer { assert(state.checkInvariants()) }
            guard let attachment = state.attachment, state.termination == nil,
                  !attachment.suspensions.isStopping
            else { return .failed }
            if state.pendingCount > 0 {
                let count = min(buffer.count, state.pendingCount)
                state.pending.withUnsafeBytes { pending in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: pending[state.readOffset..<state.readOffset + count]))
                }
                state.readOffset += count
                if state.readOffset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.readOffset = 0
                } else if state.readOffset > state.pending.count / 2 {
                    state.pending.removeFirst(state.readOffset)
                    state.readOffset = 0
                }
                return .bytes(count)
            }
            if state.isFinishing { return .endOfStream }
            guard attachment.suspensions.suspend(attachment.connection, for: ObjectIdentifier(self)) else {
                return .failed
            }
            state.isParked = true
            return .suspended
        }
    }

    /// Records how the response carrying this stream ended (or that it was never sent), and
    /// reports it unless the stream had already ended.
    func end(_ termination: Termination) {
        let report = state.withLock { state -> Report? in
            defer { assert(state.checkInvariants()) }
            state.attachment = nil
            state.isParked = false
            return state.termination == nil ? terminate(&state, termination) : nil
        }
        report?.run()
    }

    /// A termination to report once the lock is released.
    private struct Report {
        let termination: Termination
        let action: (@Sendable (Termination) -> Void)?

        func run() { action?(termination) }
    }

    /// Ends the stream: drops what is pending and takes the action that reports it.
    private func terminate(_ state: inout State, _ termination: Termination) -> Report {
        state.termination = termination
        state.pending = []
        state.readOffset = 0
        defer { state.onTermination = nil }
        return Report(termination: termination, action: state.onTermination)
    }
}
