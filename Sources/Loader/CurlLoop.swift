import CCurl
import CShims
import Foundation
import Synchronization

/// The identity of one transfer, shared by the task that asked for it and the loop.
///
/// Cancellation can come before the loop has even seen the transfer: the flag is set first,
/// and the loop checks it when it starts the transfer, so no cancellation is lost.
final class TransferTicket: Sendable {
    let id: UInt64
    private let cancelled = Atomic<Bool>(false)

    init(id: UInt64) {
        self.id = id
    }

    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    func markCancelled() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
    }
}

/// Flow control between a streaming transfer and its consumer.
///
/// The loop adds each chunk it yields; the consumer subtracts what it takes. When more than
/// `highWater` bytes wait, the loop pauses the transfer (libcurl holds the data, the server
/// is slowed by TCP); once the consumer is back under `lowWater`, it asks the loop to
/// resume. Whoever flips `isPaused` from true to false does the resuming, so a pause is
/// never lost between the two threads.
final class StreamCredit: Sendable {
    static let highWater = 4 << 20
    static let lowWater = 1 << 20

    private let buffered = Atomic<Int>(0)
    private let paused = Atomic<Bool>(false)

    func add(_ count: Int) {
        buffered.wrappingAdd(count, ordering: .sequentiallyConsistent)
    }

    /// On the loop thread, before a chunk: true when the transfer must pause now.
    func shouldPause() -> Bool {
        guard buffered.load(ordering: .sequentiallyConsistent) > Self.highWater else { return false }
        paused.store(true, ordering: .sequentiallyConsistent)
        if buffered.load(ordering: .sequentiallyConsistent) < Self.lowWater {
            // The consumer caught up meanwhile; whichever side wins the flag, go on.
            _ = paused.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent)
            return false
        }
        return true
    }

    /// On the consumer's side, after taking `count` bytes: true when the consumer must ask
    /// the loop to resume.
    func take(_ count: Int) -> Bool {
        let left = buffered.subtract(count, ordering: .sequentiallyConsistent).newValue
        guard left < Self.lowWater else { return false }
        return paused.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged
    }
}

/// The libcurl multi handle and the thread that drives it.
///
/// Threading model: one loop thread per ``HTTPClient`` runs every transfer of that client
/// through `curl_multi_perform` and `curl_multi_poll`. Only that thread touches the multi
/// handle, the easy handles and the ``CurlTransfer`` objects. Other threads talk to it
/// through the inbox (a mutex-protected list of submissions, cancellations and resumes)
/// followed by `curl_multi_wakeup`, the one libcurl call documented as safe from any thread.
/// Results leave the loop as values, through continuations and `AsyncStream`s.
///
/// The loop runs at most `maximumConcurrentTransfers` transfers at once; later ones wait
/// in order, and their limits start counting when they start.
final class CurlLoop: @unchecked Sendable {
    // @unchecked: `multi`, `running`, `waiting` and `byID` are confined to the loop thread
    // (see the type's notes); `inbox` is a Mutex and `nextID` an Atomic.

    private struct Inbox {
        var submissions: [TransferSubmission] = []
        var cancellations: [UInt64] = []
        var resumptions: [UInt64] = []
        var isStopping = false
        /// Set under the lock before the multi handle is freed: no wakeup may follow.
        var isClosed = false
    }

    private let inbox = Mutex(Inbox())
    private let nextID = Atomic<UInt64>(1)
    private let multi: UnsafeMutableRawPointer
    private let maximumConcurrentTransfers: Int
    private var waiting: [TransferSubmission] = []
    private var byID: [UInt64: CurlTransfer] = [:]

    /// libcurl's global set-up, done once per process before the first handle.
    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    init?(maximumConcurrentTransfers: Int) {
        Self.globalInit
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        self.maximumConcurrentTransfers = max(1, maximumConcurrentTransfers)
        let thread = Thread { [self] in run() }
        thread.name = "hlsq-curl"
        thread.start()
    }

    func makeTicket() -> TransferTicket {
        TransferTicket(id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    // MARK: - From any thread

    func submit(_ submission: TransferSubmission) {
        let accepted = inbox.withLock { inbox in
            guard !inbox.isStopping else { return false }
            inbox.submissions.append(submission)
            curl_multi_wakeup(multi)
            return true
        }
        if !accepted {
            Self.deliver(
                .failure(HTTPError(.cancelled, url: submission.request.url, message: "the HTTP client has shut down")),
                to: submission.delivery
            )
        }
    }

    func cancel(_ ticket: TransferTicket) {
        ticket.markCancelled()
        post { $0.cancellations.append(ticket.id) }
    }

    func resume(_ ticket: TransferTicket) {
        post { $0.resumptions.append(ticket.id) }
    }

    /// Ends the loop: every transfer, running or waiting, fails as cancelled.
    func stop() {
        post { $0.isStopping = true }
    }

    /// Changes the inbox and wakes the loop. The wakeup happens under the lock so that it
    /// can never reach a multi handle the loop has already freed.
    private func post(_ change: (inout Inbox) -> Void) {
        inbox.withLock { inbox in
            guard !inbox.isClosed else { return }
            change(&inbox)
            curl_multi_wakeup(multi)
        }
    }

    // MARK: - On the loop thread

    private func run() {
        var running: Int32 = 0
        while true {
            let mail = inbox.withLock { inbox in
                let taken = inbox
                inbox.submissions = []
                inbox.cancellations = []
                inbox.resumptions = []
                return taken
            }
            if mail.isStopping {
                shutDown(pending: mail.submissions)
                return
            }
            waiting.append(contentsOf: mail.submissions)
            for id in mail.cancellations {
                waiting.removeAll { submission in
                    guard submission.ticket.id == id else { return false }
                    Self.deliver(.failure(Self.cancelledError(submission.request.url)), to: submission.delivery)
                    return true
                }
                if let transfer = byID[id] {
                    finish(transfer, with: .failure(transfer.failure(.cancelled, message: "the transfer was cancelled")))
                }
            }
            let now = ContinuousClock.now
            for id in mail.resumptions {
                if let transfer = byID[id], transfer.isPaused {
                    transfer.didResume(at: now)
                    curl_easy_pause(transfer.easy, CURLPAUSE_RECV_CONT | CURLPAUSE_SEND_CONT)
                }
            }
            startWaitingTransfers()

            curl_multi_perform(multi, &running)
            collectFinishedTransfers()
            enforceDeadlines()
            startWaitingTransfers()

            var wait: Int = -1
            curl_multi_timeout(multi, &wait)
            let untilDeadline = byID.values.compactMap { $0.nextDeadline() }.min().map {
                max(0, ContinuousClock.now.duration(to: $0).inMilliseconds + 1)
            }
            let timeout = [wait >= 0 ? wait : nil, untilDeadline, 1000].compactMap { $0 }.min() ?? 1000
            curl_multi_poll(multi, nil, 0, Int32(timeout), nil)
        }
    }

    private func startWaitingTransfers() {
        let now = ContinuousClock.now
        while byID.count < maximumConcurrentTransfers, !waiting.isEmpty {
            let submission = waiting.removeFirst()
            if submission.ticket.isCancelled {
                Self.deliver(.failure(Self.cancelledError(submission.request.url)), to: submission.delivery)
                continue
            }
            guard let transfer = CurlTransfer(submission, now: now) else {
                let error = HTTPError(.transferFailed, url: submission.request.url, message: "libcurl could not create a handle")
                Self.deliver(.failure(error), to: submission.delivery)
                continue
            }
            let added = curl_multi_add_handle(multi, transfer.easy)
            guard added == CURLM_OK else {
                let error = HTTPError(.transferFailed, url: submission.request.url,
                                      message: String(cString: curl_multi_strerror(added)))
                Self.deliver(.failure(error), to: submission.delivery)
                continue
            }
            byID[submission.ticket.id] = transfer
        }
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var context: UnsafeMutableRawPointer?
            _ = hlsq_curl_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &context)
            guard let context else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            finish(transfer, with: transfer.outcome(curlCode: message.pointee.data.result))
        }
    }

    private func enforceDeadlines() {
        let now = ContinuousClock.now
        for transfer in Array(byID.values) {
            if let (code, message) = transfer.expiredLimit(at: now) {
                finish(transfer, with: .failure(transfer.failure(code, message: message)))
            }
        }
    }

    /// Takes the transfer off the multi handle and delivers its outcome. The transfer, and
    /// with it the easy handle, is freed when the last reference goes, here.
    private func finish(_ transfer: CurlTransfer, with outcome: Result<CompletedTransfer, HTTPError>) {
        curl_multi_remove_handle(multi, transfer.easy)
        byID[transfer.ticket.id] = nil
        Self.deliver(outcome, to: transfer.delivery)
    }

    private func shutDown(pending: [TransferSubmission]) {
        for transfer in Array(byID.values) {
            finish(transfer, with: .failure(transfer.failure(.cancelled, message: "the HTTP client has shut down")))
        }
        for submission in waiting + pending {
            Self.deliver(.failure(HTTPError(.cancelled, url: submission.request.url,
                                            message: "the HTTP client has shut down")), to: submission.delivery)
        }
        waiting = []
        inbox.withLock { $0.isClosed = true }
        curl_multi_cleanup(multi)
    }

    private static func cancelledError(_ url: String) -> HTTPError {
        HTTPError(.cancelled, url: url, message: "the transfer was cancelled")
    }

    private static func deliver(_ outcome: Result<CompletedTransfer, HTTPError>, to delivery: TransferDelivery) {
        switch delivery {
        case .buffered(let continuation):
            continuation.resume(returning: outcome)
        case .streaming(let continuation, _):
            switch outcome {
            case .success(let completed):
                continuation.yield(.end(completed.metrics))
            case .failure(let error):
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }
    }
}
