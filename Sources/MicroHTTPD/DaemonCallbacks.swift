import CMicroHTTPD
import CShims

/// The C callbacks given to libmicrohttpd. They run on its threads, so they are static
/// members of a nonisolated type; each turns its context pointers back into objects and hands
/// over to the `Dispatcher` or the `StreamingBody`.
///
/// Ownership of the context pointers:
/// - the daemon's context is the `Dispatcher`, unretained: the `HTTPServer` keeps it alive
///   until `MHD_stop_daemon` has returned;
/// - each request's context is its `Exchange`, retained by `logURI` (libmicrohttpd calls it
///   for every request line and then guarantees the completion callback) and released by
///   `completed`;
/// - a streaming response's context is its `StreamingBody`, retained when the response is
///   created and released by `releaseStream` when libmicrohttpd destroys the response;
/// - a shared body's context is its `SharedBytes`, retained when the response is created and
///   released by `releaseShared` when libmicrohttpd destroys the response.
enum DaemonCallbacks {
    /// MHD_OPTION_URI_LOG_CALLBACK: the raw request-target, before libmicrohttpd decodes it.
    static let logURI: hlsq_mhd_uri_log_callback = { _, uri, _ in
        let exchange = Exchange(rawTarget: uri.map { String(cString: $0) } ?? "")
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    static let access: MHD_AccessHandlerCallback = {
        context, connection, _, method, _, uploadData, uploadSize, requestContext in
        guard let context, let connection, let uploadSize,
              let exchangePointer = requestContext?.pointee
        else { return .NO }
        let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer).takeUnretainedValue()
        let upload = UnsafeRawBufferPointer(start: uploadData, count: uploadData == nil ? 0 : uploadSize.pointee)
        let result = dispatcher.access(exchange, connection: connection, method: method, upload: upload)
        uploadSize.pointee = 0
        return result
    }

    static let completed: MHD_RequestCompletedCallback = { context, _, requestContext, reason in
        guard let context, let requestContext, let exchangePointer = requestContext.pointee else { return }
        requestContext.pointee = nil
        let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer).takeRetainedValue()
        dispatcher.complete(exchange, reason: reason)
    }

    static let readStream: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return endWithError }
        let stream = Unmanaged<StreamingBody>.fromOpaque(context).takeUnretainedValue()
        switch stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) {
        case .bytes(let count): return count
        case .suspended: return 0
        case .endOfStream: return endOfStream
        case .failed: return endWithError
        }
    }

    static let releaseStream: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<StreamingBody>.fromOpaque(context).release()
    }

    static let releaseShared: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<SharedBytes>.fromOpaque(context).release()
    }

    /// MHD_CONTENT_READER_END_OF_STREAM and MHD_CONTENT_READER_END_WITH_ERROR, which are
    /// casts in C and do not import.
    private static let endOfStream = -1
    private static let endWithError = -2
}
