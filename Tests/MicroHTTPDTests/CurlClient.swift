import CCurl
import CShims
import Testing

/// A libcurl easy handle used as a test client. Requests made with one client reuse its
/// connection, as a browser does with keep-alive.
final class CurlClient {
    struct Response {
        var status: Int
        var headers: [String]
        var body: [UInt8]
        /// Connections libcurl opened for this request: 0 when it reused one.
        var newConnections: Int

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The value of the header `name` (case-insensitive), if present.
        func header(_ name: String) -> String? {
            let prefix = name.lowercased() + ":"
            return headers.first { $0.lowercased().hasPrefix(prefix) }
                .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespacesAndNewlines) }
        }
    }

    /// What libcurl's callbacks collect; they run on the calling thread, during perform.
    private final class Sink {
        var body: [UInt8] = []
        var headers: [String] = []

        static let body: curl_write_callback = { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            data.withMemoryRebound(to: UInt8.self, capacity: length) {
                sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
            }
            return length
        }

        static let header: curl_write_callback = { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            sink.headers.append(line.trimmingCharacters(in: .whitespacesAndNewlines))
            return length
        }
    }

    private let handle: UnsafeMutableRawPointer

    init() throws {
        handle = try #require(curl_easy_init())
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    /// Performs one request; `body` is sent for methods other than GET.
    func perform(_ url: String, method: String = "GET", headers: [String] = [], body: [UInt8]? = nil) throws -> Response {
        let sink = Sink()
        curl_easy_reset(handle)
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers {
            list = curl_slist_append(list, header)
        }
        defer { curl_slist_free_all(list) }
        let context = Unmanaged.passUnretained(sink).toOpaque()
        try check(hlsq_curl_easy_setopt_string(handle, CURLOPT_URL, url))
        try check(hlsq_curl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method))
        try check(hlsq_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        try check(hlsq_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT, 10))
        try check(hlsq_curl_easy_setopt_ptr(handle, CURLOPT_HTTPHEADER, list.map(UnsafeMutableRawPointer.init)))
        try check(hlsq_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, Sink.body))
        try check(hlsq_curl_easy_setopt_ptr(handle, CURLOPT_WRITEDATA, context))
        try check(hlsq_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, Sink.header))
        try check(hlsq_curl_easy_setopt_ptr(handle, CURLOPT_HEADERDATA, context))
        let code: CURLcode = try withExtendedLifetime(sink) {
            guard let body else { return curl_easy_perform(handle) }
            return try body.withUnsafeBytes { bytes in
                try check(hlsq_curl_easy_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count))
                try check(hlsq_curl_easy_setopt_ptr(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)))
                return curl_easy_perform(handle)
            }
        }
        guard code == CURLE_OK else {
            throw ClientError(description: "libcurl: \(String(cString: curl_easy_strerror(code)))")
        }
        var status = 0
        try check(hlsq_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status))
        var connects = 0
        try check(hlsq_curl_easy_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects))
        return Response(status: status, headers: sink.headers, body: sink.body, newConnections: connects)
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else {
            throw ClientError(description: "libcurl option: \(String(cString: curl_easy_strerror(code)))")
        }
    }
}
