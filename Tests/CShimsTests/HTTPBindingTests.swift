import CCurl
import CMicroHTTPD
import CShims
import Glibc
import Testing

/// A libmicrohttpd server on an ephemeral loopback port answers libcurl requests, both
/// called from Swift through the shims.
@Suite struct HTTPBindingTests {
    static let body = "hello from libmicrohttpd"

    /// The access handler: libmicrohttpd calls it on its own thread, so it is a static member
    /// of a nonisolated type.
    enum Handler {
        static let answer: MHD_AccessHandlerCallback = { _, connection, url, _, _, _, _, _ in
            let path = url.map { String(cString: $0) } ?? ""
            let text = path == "/missing" ? "not here" : HTTPBindingTests.body
            let status: UInt32 = path == "/missing" ? 404 : 200
            let bytes = Array(text.utf8)
            guard let response = hlsq_mhd_response_copying(bytes.count, bytes) else { return .NO }
            defer { MHD_destroy_response(response) }
            _ = MHD_add_response_header(response, "Content-Type", "text/plain")
            return MHD_queue_response(connection, status, response)
        }
    }

    /// Starts a daemon bound to 127.0.0.1 on a port the kernel picks.
    static func startDaemon() throws -> (OpaquePointer, UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let daemon = withUnsafeMutablePointer(to: &address) { pointer in
            var options = [
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(pointer)),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: 5, ptr_value: nil),
                MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
            ]
            return hlsq_mhd_start(
                UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ERROR_LOG.rawValue),
                0, Handler.answer, nil, nil, nil, &options
            )
        }
        let started = try #require(daemon)
        let port = hlsq_mhd_daemon_port(started)
        try #require(port != 0)
        return (started, port)
    }

    final class ReceivedBytes {
        var bytes: [UInt8] = []

        static let append: curl_write_callback = { data, size, count, context in
            let received = Unmanaged<ReceivedBytes>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            data!.withMemoryRebound(to: UInt8.self, capacity: length) { pointer in
                received.bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: length))
            }
            return length
        }
    }

    /// Prepares an easy handle that fetches `url` into `sink`.
    static func makeTransfer(url: String, into sink: ReceivedBytes) throws -> UnsafeMutableRawPointer {
        let handle = try #require(curl_easy_init())
        #expect(hlsq_curl_easy_setopt_string(handle, CURLOPT_URL, url) == CURLE_OK)
        #expect(hlsq_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, ReceivedBytes.append) == CURLE_OK)
        #expect(hlsq_curl_easy_setopt_ptr(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque()) == CURLE_OK)
        #expect(hlsq_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1) == CURLE_OK)
        #expect(hlsq_curl_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, 1 << 20) == CURLE_OK)
        #expect(hlsq_curl_easy_setopt_string(handle, CURLOPT_USERAGENT, "hlsq-tests") == CURLE_OK)
        return handle
    }

    @Test func curlFetchesFromMicroHTTPDAndReportsTheTransfer() throws {
        #expect(curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK)
        let (daemon, port) = try Self.startDaemon()
        defer { MHD_stop_daemon(daemon) }
        let sink = ReceivedBytes()
        let url = "http://127.0.0.1:\(port)/hello"
        let handle = try Self.makeTransfer(url: url, into: sink)
        defer { curl_easy_cleanup(handle) }

        #expect(curl_easy_perform(handle) == CURLE_OK)
        #expect(String(decoding: sink.bytes, as: UTF8.self) == Self.body)

        var status = 0
        #expect(hlsq_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK)
        #expect(status == 200)
        var downloaded: curl_off_t = 0
        #expect(hlsq_curl_easy_getinfo_off_t(handle, CURLINFO_SIZE_DOWNLOAD_T, &downloaded) == CURLE_OK)
        #expect(downloaded == curl_off_t(Self.body.utf8.count))
        var firstByte: curl_off_t = -1
        var total: curl_off_t = -1
        #expect(hlsq_curl_easy_getinfo_off_t(handle, CURLINFO_STARTTRANSFER_TIME_T, &firstByte) == CURLE_OK)
        #expect(hlsq_curl_easy_getinfo_off_t(handle, CURLINFO_TOTAL_TIME_T, &total) == CURLE_OK)
        #expect(firstByte > 0 && total >= firstByte)
        var totalSeconds = -1.0
        #expect(hlsq_curl_easy_getinfo_double(handle, CURLINFO_TOTAL_TIME, &totalSeconds) == CURLE_OK)
        #expect(totalSeconds > 0 && totalSeconds < 5)
        var address: UnsafePointer<CChar>?
        #expect(hlsq_curl_easy_getinfo_string(handle, CURLINFO_PRIMARY_IP, &address) == CURLE_OK)
        #expect(address.map { String(cString: $0) } == "127.0.0.1")
        var effective: UnsafePointer<CChar>?
        #expect(hlsq_curl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK)
        #expect(effective.map { String(cString: $0) } == url)
    }

    @Test func multiInterfaceRunsTwoTransfersAtOnce() throws {
        let (daemon, port) = try Self.startDaemon()
        defer { MHD_stop_daemon(daemon) }
        let multi = try #require(curl_multi_init())
        defer { curl_multi_cleanup(multi) }
        #expect(hlsq_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 4) == CURLM_OK)

        let found = ReceivedBytes()
        let missing = ReceivedBytes()
        let handles = [
            try Self.makeTransfer(url: "http://127.0.0.1:\(port)/found", into: found),
            try Self.makeTransfer(url: "http://127.0.0.1:\(port)/missing", into: missing),
        ]
        for (index, handle) in handles.enumerated() {
            #expect(hlsq_curl_easy_setopt_ptr(handle, CURLOPT_PRIVATE, UnsafeMutableRawPointer(bitPattern: index + 1)) == CURLE_OK)
            #expect(curl_multi_add_handle(multi, handle) == CURLM_OK)
        }
        var running: Int32 = 1
        while running > 0 {
            #expect(curl_multi_perform(multi, &running) == CURLM_OK)
            if running > 0 { #expect(curl_multi_poll(multi, nil, 0, 1000, nil) == CURLM_OK) }
        }
        var statuses: [Int: Int] = [:]
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            #expect(message.pointee.msg == CURLMSG_DONE)
            let handle = try #require(message.pointee.easy_handle)
            var tag: UnsafeMutableRawPointer?
            #expect(hlsq_curl_easy_getinfo_ptr(handle, CURLINFO_PRIVATE, &tag) == CURLE_OK)
            var status = 0
            #expect(hlsq_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK)
            statuses[Int(bitPattern: tag)] = status
        }
        for handle in handles {
            curl_multi_remove_handle(multi, handle)
            curl_easy_cleanup(handle)
        }
        #expect(statuses == [1: 200, 2: 404])
        #expect(String(decoding: found.bytes, as: UTF8.self) == Self.body)
        #expect(String(decoding: missing.bytes, as: UTF8.self) == "not here")
    }

    @Test func curlReportsAConnectionFailure() throws {
        let sink = ReceivedBytes()
        // Port 1 on loopback: nothing listens there, so the connection is refused.
        let handle = try Self.makeTransfer(url: "http://127.0.0.1:1/", into: sink)
        defer { curl_easy_cleanup(handle) }
        #expect(curl_easy_perform(handle) == CURLE_COULDNT_CONNECT)
        #expect(sink.bytes.isEmpty)
    }
}
