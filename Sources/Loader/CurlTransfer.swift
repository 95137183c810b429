import CCurl
import CShims
import Foundation

/// A finished transfer, before the public API wraps it.
struct CompletedTransfer: Sendable {
    var head: HTTPResponseHead
    var body: [UInt8]
    var metrics: HTTPTransferMetrics
}

/// What the streaming mode sends from the loop thread to the consumer.
enum StreamSignal: Sendable {
    case head(HTTPResponseHead)
    case bytes([UInt8])
    case end(HTTPTransferMetrics)
    case failure(HTTPError)
}

/// Where a transfer's outcome goes.
enum TransferDelivery: Sendable {
    /// The whole body at the end, to a waiting `fetch`.
    case buffered(CheckedContinuation<Result<CompletedTransfer, HTTPError>, Never>)
    /// Each piece as it arrives, to an ``HTTPByteStream``.
    case streaming(AsyncStream<StreamSignal>.Continuation, StreamCredit)
}

/// A transfer asked for but not yet running on the loop.
struct TransferSubmission: Sendable {
    let ticket: TransferTicket
    let request: HTTPRequest
    let limits: HTTPLimits
    let userAgent: String
    let delivery: TransferDelivery
}

/// One libcurl easy handle and the state of its transfer.
///
/// Ownership: a `CurlTransfer` is created, used and destroyed on the ``CurlLoop`` thread
/// only; it owns its easy handle and error buffer and frees them in deinit. libcurl calls
/// the static callbacks below from `curl_multi_perform`, on that same thread, with the
/// transfer as their context pointer, so they may touch its state. What leaves the loop
/// thread are values: signals into an `AsyncStream` or a result into a continuation.
final class CurlTransfer {
    let ticket: TransferTicket
    let request: HTTPRequest
    let limits: HTTPLimits
    let delivery: TransferDelivery
    let easy: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let isFile: Bool

    let startedAt: ContinuousClock.Instant
    /// When the first response header (or, for files, the first byte) arrived.
    private(set) var firstResponseAt: ContinuousClock.Instant?
    /// When bytes last arrived; the stall timeout counts from here.
    private(set) var lastActivityAt: ContinuousClock.Instant
    /// The status of the response being received; each redirect starts a new one.
    private var statusCode: Int?
    private var headers: [HTTPHeaderField] = []
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var bodyBytes: Int64 = 0
    /// Bytes of a full (200) answer seen so far, when it is sliced to the requested range.
    private var sourceOffset: Int64 = 0
    /// Why a callback stopped the transfer, when one did.
    private var stopReason: StopReason?
    /// True while the streaming consumer is behind and libcurl holds the data.
    var isPaused = false

    private enum StopReason {
        case tooLarge
        /// A server ignored the Range header; the requested slice is complete.
        case rangeComplete
    }

    /// Prepares the easy handle; nil when libcurl cannot make one.
    init?(_ submission: TransferSubmission, now: ContinuousClock.Instant) {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        ticket = submission.ticket
        request = submission.request
        limits = submission.limits
        delivery = submission.delivery
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        isFile = submission.request.url.lowercased().hasPrefix("file:")
        startedAt = now
        lastActivityAt = now
        configure(userAgent: submission.userAgent)
    }

    deinit {
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    private func configure(userAgent: String) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The options below cannot fail for a valid handle except on out-of-memory, which
        // libcurl reports again when the transfer runs.
        _ = hlsq_curl_easy_setopt_string(easy, CURLOPT_URL, request.url)
        _ = hlsq_curl_easy_setopt_ptr(easy, CURLOPT_PRIVATE, context)
        _ = hlsq_curl_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = hlsq_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = hlsq_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https,file")
        _ = hlsq_curl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = hlsq_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = hlsq_curl_easy_setopt_long(easy, CURLOPT_MAXREDIRS, limits.maximumRedirects)
        // An empty string offers every encoding libcurl can decode (gzip, deflate, …).
        _ = hlsq_curl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        _ = hlsq_curl_easy_setopt_string(easy, CURLOPT_USERAGENT, userAgent)
        // Statuses of 400 and more end the transfer before the body.
        _ = hlsq_curl_easy_setopt_long(easy, CURLOPT_FAILONERROR, 1)
        if let connect = limits.connectTimeout {
            _ = hlsq_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, connect.inMilliseconds))
        }
        if let maximum = limits.maximumBodyBytes {
            _ = hlsq_curl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximum))
        }
        if let range = request.byteRange {
            _ = hlsq_curl_easy_setopt_string(easy, CURLOPT_RANGE, range.httpValue)
        }
        _ = hlsq_curl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, Self.receiveBody)
        _ = hlsq_curl_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, context)
        _ = hlsq_curl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, Self.receiveHeader)
        _ = hlsq_curl_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, context)
    }

    // MARK: - Callbacks (libcurl calls them on the loop thread)

    static let receiveBody: curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receive(body: UnsafeRawBufferPointer(start: data, count: size * count))
    }

    static let receiveHeader: curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        transfer.receive(headerLine: UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }

    private func receive(headerLine bytes: UnsafeRawBufferPointer) {
        let now = ContinuousClock.now
        if firstResponseAt == nil { firstResponseAt = now }
        lastActivityAt = now
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response: the previous one was a redirect or an interim 1xx.
            let parts = line.split(separator: " ", maxSplits: 2)
            statusCode = parts.count > 1 ? Int(parts[1]) : nil
            headers = []
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            headers.append(HTTPHeaderField(name: name, value: value))
        }
    }

    private func receive(body bytes: UnsafeRawBufferPointer) -> Int {
        let now = ContinuousClock.now
        if firstResponseAt == nil { firstResponseAt = now }
        lastActivityAt = now
        if head == nil {
            let started = makeHead()
            head = started
            if case .streaming(let continuation, _) = delivery {
                continuation.yield(.head(started))
            }
        }

        if case .streaming(_, let credit) = delivery, credit.shouldPause() {
            isPaused = true
            // libcurl keeps this chunk and delivers it again after the resume.
            return Int(CURL_WRITEFUNC_PAUSE)
        }

        var wanted = bytes
        var sliceIsComplete = false
        if let range = request.byteRange, statusCode == 200 {
            // The server ignored the Range header and sends the whole resource: keep the
            // requested slice only, and stop once it is complete.
            let chunkStart = sourceOffset
            sourceOffset += Int64(bytes.count)
            let from = max(range.offset, chunkStart)
            let to = range.length.map { min(range.offset + $0, sourceOffset) } ?? sourceOffset
            wanted = from < to
                ? UnsafeRawBufferPointer(rebasing: bytes[Int(from - chunkStart)..<Int(to - chunkStart)])
                : UnsafeRawBufferPointer(rebasing: bytes[0..<0])
            if let length = range.length, sourceOffset >= range.offset + length {
                sliceIsComplete = true
            }
        }

        if let maximum = limits.maximumBodyBytes, bodyBytes + Int64(wanted.count) > maximum {
            stopReason = .tooLarge
            return 0
        }
        switch delivery {
        case .buffered:
            body.append(contentsOf: wanted)
        case .streaming(let continuation, let credit):
            if !wanted.isEmpty {
                credit.add(wanted.count)
                continuation.yield(.bytes(Array(wanted)))
            }
        }
        bodyBytes += Int64(wanted.count)
        if sliceIsComplete {
            stopReason = .rangeComplete
            return 0
        }
        return bytes.count
    }

    /// The head of the final response, read once its headers are complete.
    private func makeHead() -> HTTPResponseHead {
        let field = { (name: String) in
            self.headers.first { $0.name.lowercased() == name }?.value
        }
        var announced: curl_off_t = -1
        _ = hlsq_curl_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced)
        let length: Int64? = announced >= 0 ? Int64(announced) : nil
        let isEncoded = field("content-encoding").map { $0.lowercased() != "identity" } ?? false
        var expected = isEncoded ? nil : length
        var complete: Int64?
        if statusCode == 206 {
            complete = field("content-range").flatMap(Self.completeLength(contentRange:))
        } else if request.byteRange == nil {
            complete = expected
        } else if let range = request.byteRange {
            // A 200 to a range request: the full length is known, the slice is cut here.
            complete = expected
            expected = expected.map { total in
                let end = range.length.map { min(total, range.offset + $0) } ?? total
                return max(0, end - range.offset)
            }
        }
        return HTTPResponseHead(
            statusCode: isFile ? nil : statusCode,
            headers: headers,
            expectedBodyBytes: expected,
            completeLength: complete
        )
    }

    /// The total after the slash of `bytes first-last/total`, or nil for `*`.
    static func completeLength(contentRange: String) -> Int64? {
        guard let slash = contentRange.lastIndex(of: "/") else { return nil }
        return Int64(contentRange[contentRange.index(after: slash)...].trimmingCharacters(in: .whitespaces))
    }

    // MARK: - Outcome (on the loop thread, after the handle left the multi handle)

    /// The metrics libcurl measured, read from the handle.
    func metrics() -> HTTPTransferMetrics {
        var status = 0
        _ = hlsq_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var wire: curl_off_t = 0
        _ = hlsq_curl_easy_getinfo_off_t(easy, CURLINFO_SIZE_DOWNLOAD_T, &wire)
        var firstByte: curl_off_t = 0
        _ = hlsq_curl_easy_getinfo_off_t(easy, CURLINFO_STARTTRANSFER_TIME_T, &firstByte)
        var redirects = 0
        _ = hlsq_curl_easy_getinfo_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
        var effective: UnsafePointer<CChar>?
        _ = hlsq_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        var address: UnsafePointer<CChar>?
        _ = hlsq_curl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address)
        var port = 0
        _ = hlsq_curl_easy_getinfo_long(easy, CURLINFO_PRIMARY_PORT, &port)
        let ip = address.map { String(cString: $0) } ?? ""
        let server = ip.isEmpty ? nil : (ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)")
        return HTTPTransferMetrics(
            url: request.url,
            effectiveURL: effective.map { String(cString: $0) } ?? request.url,
            statusCode: isFile || status == 0 ? nil : status,
            bodyBytes: bodyBytes,
            wireBytes: Int64(wire),
            timeToFirstByte: firstResponseAt.map { _ in .microseconds(firstByte) },
            // Measured here rather than read from libcurl so that transfers stopped by a
            // deadline, which libcurl never finished, have a total time too.
            totalTime: ContinuousClock.now - startedAt,
            serverAddress: server,
            redirectCount: redirects,
            isCacheHit: false
        )
    }

    /// The outcome of a transfer that libcurl finished with `code`.
    func outcome(curlCode code: CURLcode) -> Result<CompletedTransfer, HTTPError> {
        let measured = metrics()
        if code == CURLE_OK || (code == CURLE_WRITE_ERROR && stopReason == .rangeComplete) {
            let finalHead = head ?? makeHead()
            if head == nil, case .streaming(let continuation, _) = delivery {
                // A body-less answer has not sent its head yet.
                continuation.yield(.head(finalHead))
            }
            return .success(CompletedTransfer(head: finalHead, body: body, metrics: measured))
        }
        return .failure(error(for: code, metrics: measured))
    }

    /// The error for a transfer the loop stopped itself (deadline, cancellation).
    func failure(_ code: HTTPError.Code, message: String) -> HTTPError {
        HTTPError(code, url: request.url, message: message, statusCode: statusCode, metrics: metrics())
    }

    private func error(for code: CURLcode, metrics: HTTPTransferMetrics) -> HTTPError {
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let kind: HTTPError.Code
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .dnsFailure
        case CURLE_COULDNT_CONNECT:
            kind = .connectionFailed
        case CURLE_OPERATION_TIMEDOUT:
            // Only the connect timeout is given to libcurl; the loop enforces the others.
            kind = .connectTimeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
            kind = .tlsFailure
        case CURLE_HTTP_RETURNED_ERROR:
            kind = .httpStatus
        case CURLE_FILESIZE_EXCEEDED:
            kind = .tooLarge
        case CURLE_WRITE_ERROR where stopReason == .tooLarge:
            kind = .tooLarge
        case CURLE_TOO_MANY_REDIRECTS:
            kind = .tooManyRedirects
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING,
             CURLE_HTTP2, CURLE_HTTP2_STREAM:
            kind = .connectionLost
        case CURLE_FILE_COULDNT_READ_FILE:
            kind = .fileUnreadable
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            kind = .invalidURL
        default:
            kind = .transferFailed
        }
        let tooLargeMessage = limits.maximumBodyBytes.map { "the body is longer than \($0) bytes" }
        return HTTPError(
            kind, url: request.url,
            message: kind == .tooLarge ? tooLargeMessage ?? message : message,
            statusCode: metrics.statusCode ?? statusCode,
            curlCode: Int32(code.rawValue),
            metrics: metrics
        )
    }

    /// The earliest moment one of the loop-enforced limits runs out, if any.
    func nextDeadline() -> ContinuousClock.Instant? {
        var deadlines: [ContinuousClock.Instant] = []
        if let total = limits.totalTimeout { deadlines.append(startedAt + total) }
        if firstResponseAt == nil, let firstByte = limits.firstByteTimeout {
            deadlines.append(startedAt + firstByte)
        }
        if firstResponseAt != nil, !isPaused, let stall = limits.stallTimeout {
            deadlines.append(lastActivityAt + stall)
        }
        return deadlines.min()
    }

    /// The limit that has run out at `now`, with its message, if any.
    func expiredLimit(at now: ContinuousClock.Instant) -> (HTTPError.Code, String)? {
        if let total = limits.totalTimeout, now >= startedAt + total {
            return (.totalTimeout, "the transfer took longer than \(total)")
        }
        if firstResponseAt == nil, let firstByte = limits.firstByteTimeout, now >= startedAt + firstByte {
            return (.firstByteTimeout, "no answer within \(firstByte)")
        }
        if firstResponseAt != nil, !isPaused, let stall = limits.stallTimeout, now >= lastActivityAt + stall {
            return (.stallTimeout, "no byte for \(stall) after \(bodyBytes) body bytes")
        }
        return nil
    }

    /// Called when the consumer caught up and libcurl is about to deliver again.
    func didResume(at now: ContinuousClock.Instant) {
        isPaused = false
        lastActivityAt = now
    }
}
