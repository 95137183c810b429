import Foundation
import MicroHTTPD
import Testing

/// The server on a real loopback socket, driven by libcurl and by a raw socket client.
@Suite struct HTTPServerTests {
    @Test func getAndPostRoundTripWithHeadersAndBody() async throws {
        let server = try startServer { request in
            let headers: HTTPHeaders = [
                "Content-Type": "text/plain",
                "X-Echo-Method": request.method.rawValue,
                "X-Echo-Custom": request.headers["x-custom-header"] ?? "absent",
                "X-Echo-Type": request.headers["CONTENT-TYPE"] ?? "absent",
                "X-Echo-Remote": request.remoteAddress?.host ?? "absent",
            ]
            if request.method == .post {
                return HTTPResponse(status: .created, headers: headers, bytes: request.body.reversed())
            }
            return HTTPResponse(status: .ok, headers: headers, bytes: Array("hello \(request.path)".utf8))
        }
        let url = "http://127.0.0.1:\(server.port)/greeting"
        let (get, post) = try await offload {
            let client = try CurlClient()
            let get = try client.perform(url, headers: ["X-Custom-Header: one"])
            let post = try client.perform(
                url, method: "POST", headers: ["Content-Type: application/octet-stream"], body: Array("abcdef".utf8)
            )
            return (get, post)
        }
        #expect(get.status == 200)
        #expect(get.text == "hello /greeting")
        #expect(get.header("X-Echo-Method") == "GET")
        #expect(get.header("X-Echo-Custom") == "one")
        #expect(get.header("X-Echo-Remote") == "127.0.0.1")
        #expect(get.header("Content-Type") == "text/plain")
        #expect(get.header("Content-Length") == "15")
        #expect(post.status == 201)
        #expect(post.text == "fedcba")
        #expect(post.header("X-Echo-Method") == "POST")
        #expect(post.header("X-Echo-Type") == "application/octet-stream")
        await server.stop()
    }

    /// Bodies that arrive in pieces, with a declared length or chunked, reach the handler whole.
    @Test func bodiesArrivingInPiecesAreReassembled() async throws {
        let server = try startServer { request in
            var checksum: UInt64 = 0
            for byte in request.body { checksum = checksum &* 31 &+ UInt64(byte) }
            return HTTPResponse(status: .ok, bytes: Array("\(request.body.count) \(checksum)".utf8))
        }
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var expected: UInt64 = 0
        for byte in body { expected = expected &* 31 &+ UInt64(byte) }
        let (declared, chunked) = try await offload {
            let client = try RawHTTPClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
            for start in stride(from: 0, to: body.count, by: 100_000) {
                Thread.sleep(forTimeInterval: 0.02)
                try client.send(Array(body[start..<min(start + 100_000, body.count)]))
            }
            let declared = try client.readResponse()
            try client.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            for start in stride(from: 0, to: body.count, by: 65_536) {
                let piece = Array(body[start..<min(start + 65_536, body.count)])
                try client.send(Array(String(piece.count, radix: 16).utf8) + Array("\r\n".utf8) + piece + Array("\r\n".utf8))
            }
            try client.send("0\r\n\r\n")
            return (declared, try client.readResponse())
        }
        #expect(declared.text == "300000 \(expected)")
        #expect(chunked.text == "300000 \(expected)")
        await server.stop()
    }

    @Test func servesOnIPv6Loopback() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.host = "::1"
        let server = try HTTPServer(configuration: configuration) { request in
            HTTPResponse(status: .ok, bytes: Array((request.remoteAddress?.host ?? "none").utf8))
        }
        #expect(server.localAddress.host == "::1")
        #expect(server.localAddress.description == "[::1]:\(server.port)")
        let response = try await offload { try CurlClient().perform("http://[::1]:\(server.port)/") }
        #expect(response.text == "::1")
        await server.stop()
    }

    @Test func targetArrivesRawAndDecoded() async throws {
        let server = try startServer { request in
            let lines = [
                "path=\(request.path)",
                "components=\(request.pathComponents.joined(separator: "|"))",
                "query=\(request.query ?? "nil")",
                "items=\(request.queryItems.map { "\($0.name):\($0.value)" }.joined(separator: "|"))",
            ]
            return HTTPResponse(status: .ok, bytes: Array(lines.joined(separator: "\n").utf8))
        }
        let (decoded, invalid) = try await offload {
            let client = try RawHTTPClient(port: server.port)
            let decoded = try client.exchange(
                "GET /media/My%20Song%2Fmix/caf%C3%A9?queue=a+b%26c&x=%E2%9C%93&flag HTTP/1.1\r\nHost: t\r\n\r\n"
            )
            let invalid = try client.exchange("GET /bad%zz HTTP/1.1\r\nHost: t\r\n\r\n")
            return (decoded, invalid)
        }
        #expect(decoded.status == 200)
        #expect(decoded.text == """
            path=/media/My%20Song%2Fmix/caf%C3%A9
            components=media|My Song/mix|café
            query=queue=a+b%26c&x=%E2%9C%93&flag
            items=queue:a b&c|x:✓|flag:
            """)
        #expect(invalid.status == 400)
        #expect(invalid.header("Content-Type") == "application/json; charset=utf-8")
        let error = try JSONSerialization.jsonObject(with: Data(invalid.body)) as? [String: [String: String]]
        #expect(error?["error"]?["code"] == "invalidRequestTarget")
        #expect(error?["error"]?["message"]?.contains("/bad%zz") == true)
        await server.stop()
    }

    /// With a single libmicrohttpd thread, eight requests each wait in their handler until all
    /// eight have arrived: this finishes only if handlers run concurrently and a waiting
    /// handler does not hold the thread.
    @Test func handlersRunConcurrentlyOffLibmicrohttpdThreads() async throws {
        let clients = 8
        let arrived = Shared(0)
        let allArrived = Gate()
        var configuration = HTTPServer.Configuration()
        configuration.threadPoolSize = 1
        let server = try startServer(configuration) { request in
            if arrived.update({ count in count += 1; return count }) == clients { allArrived.open() }
            await allArrived.wait()
            return HTTPResponse(status: .ok, bytes: Array(request.path.utf8))
        }
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<clients {
                group.addTask {
                    try await offload {
                        try CurlClient().perform("http://127.0.0.1:\(server.port)/\(index)").text
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(bodies) == Set((0..<clients).map { "/\($0)" }))
        await server.stop()
    }

    @Test func aSlowHandlerDoesNotDelayOtherRequests() async throws {
        let release = Gate()
        var configuration = HTTPServer.Configuration()
        configuration.threadPoolSize = 1
        let server = try startServer(configuration) { request in
            if request.path == "/slow" { await release.wait() }
            return HTTPResponse(status: .ok, bytes: Array(request.path.utf8))
        }
        let port = server.port
        let slow = Task { try await offload { try CurlClient().perform("http://127.0.0.1:\(port)/slow").text } }
        let fast = try await offload { try CurlClient().perform("http://127.0.0.1:\(port)/fast").text }
        #expect(fast == "/fast")
        release.open()
        #expect(try await slow.value == "/slow")
        await server.stop()
    }

    @Test func oversizedBodiesGet413WithAJSONError() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.maximumBodyBytes = 1000
        let handled = Shared<[Int]>([])
        let server = try startServer(configuration) { request in
            handled.update { $0.append(request.body.count) }
            return HTTPResponse(status: .ok, bytes: Array("\(request.body.count)".utf8))
        }
        let url = "http://127.0.0.1:\(server.port)/upload"
        let (atLimit, declared, chunked, afterwards) = try await offload {
            let client = try CurlClient()
            let atLimit = try client.perform(url, method: "POST", body: Array(repeating: 7, count: 1000))
            let declared = try client.perform(url, method: "POST", body: Array(repeating: 7, count: 1001))
            // Without Content-Length the size shows only while reading: the excess is dropped.
            let raw = try RawHTTPClient(port: server.port)
            let piece = String(repeating: "x", count: 600)
            try raw.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            try raw.send("258\r\n\(piece)\r\n258\r\n\(piece)\r\n0\r\n\r\n")
            let chunked = try raw.readResponse()
            let afterwards = try client.perform(url, method: "POST", body: Array(repeating: 7, count: 10))
            return (atLimit, declared, chunked, afterwards)
        }
        #expect(atLimit.status == 200)
        #expect(atLimit.text == "1000")
        for response in [declared.status, chunked.status] {
            #expect(response == 413)
        }
        #expect(declared.header("Content-Type") == "application/json; charset=utf-8")
        let error = try JSONSerialization.jsonObject(with: Data(declared.body)) as? [String: [String: String]]
        #expect(error?["error"]?["code"] == "contentTooLarge")
        #expect(error?["error"]?["message"]?.contains("1000 bytes") == true)
        #expect(chunked.text.contains("contentTooLarge"))
        #expect(afterwards.status == 200)
        #expect(handled.current == [1000, 10])
        await server.stop()
    }

    @Test func aClientSendingItsHeadersSlowlyIsDisconnected() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.idleTimeout = .seconds(1)
        let server = try startServer(configuration) { _ in HTTPResponse(status: .ok, bytes: Array("ok".utf8)) }
        let clock = ContinuousClock()
        let (closed, waited, healthy) = try await offload {
            let slow = try RawHTTPClient(port: server.port, readTimeout: .seconds(5))
            try slow.send("GET / HTTP/1.1\r\nHost: t\r\n")
            let start = clock.now
            Thread.sleep(forTimeInterval: 0.2)
            try slow.send("X-Slow: 1\r\n")
            let closed = slow.waitForClose()
            let waited = clock.now - start
            let healthy = try RawHTTPClient(port: server.port).exchange("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            return (closed, waited, healthy)
        }
        #expect(closed)
        // libmicrohttpd checks timeouts about once a second.
        #expect(waited >= .milliseconds(900) && waited < .seconds(4))
        #expect(healthy.status == 200)
        await server.stop()
    }

    @Test(arguments: [true, false])
    func keepAliveReusesOneConnection(keepAlive: Bool) async throws {
        var configuration = HTTPServer.Configuration()
        configuration.keepAlive = keepAlive
        let server = try startServer(configuration) { request in
            HTTPResponse(status: .ok, bytes: Array(String(request.remoteAddress?.port ?? 0).utf8))
        }
        let responses = try await offload {
            let client = try CurlClient()
            return try (0..<3).map { _ in try client.perform("http://127.0.0.1:\(server.port)/") }
        }
        let clientPorts = Set(responses.map(\.text))
        if keepAlive {
            #expect(responses.map(\.newConnections) == [1, 0, 0])
            #expect(clientPorts.count == 1)
        } else {
            #expect(responses.map(\.newConnections) == [1, 1, 1])
            #expect(clientPorts.count == 3)
            #expect(responses.allSatisfy { $0.header("Connection") == "close" })
        }
        await server.stop()
    }

    /// Requests sent back to back on one connection are answered in order, each after its
    /// own handler, including a HEAD whose body libmicrohttpd leaves out.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let server = try startServer { request in
            // Later requests finish their handlers sooner: the order must come from the connection.
            let delay = 30 - 10 * (Int(request.pathComponents.last ?? "") ?? 0)
            try? await Task.sleep(for: .milliseconds(max(0, delay)))
            return HTTPResponse(status: .ok, bytes: Array("answer \(request.path)".utf8))
        }
        let (first, second, head, third) = try await offload {
            let client = try RawHTTPClient(port: server.port)
            try client.send(
                "GET /1 HTTP/1.1\r\nHost: t\r\n\r\nGET /2 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "HEAD /3 HTTP/1.1\r\nHost: t\r\n\r\nGET /3 HTTP/1.1\r\nHost: t\r\n\r\n"
            )
            return (try client.readResponse(), try client.readResponse(), try client.readHead(), try client.readResponse())
        }
        #expect(first.text == "answer /1")
        #expect(second.text == "answer /2")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "9")
        #expect(third.text == "answer /3")
        await server.stop()
    }

    /// What the server does with a malformed request: libmicrohttpd answers 400 (or 505) for
    /// most, the wrapper answers 400 with a JSON error for what libmicrohttpd lets through, and
    /// a request line without spaces is not HTTP at all: libmicrohttpd closes the connection.
    @Test(arguments: [
        ("GET / HTTP/1.1\r\n\r\n", 400 as Int?), // HTTP/1.1 without Host
        ("GET / FOO/1.1\r\nHost: t\r\n\r\n", 400),
        ("GET /\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\nHost: t\r\n folded\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", 400),
        ("G\u{1}T / HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        ("GARBAGE\r\n\r\n", nil),
        ("GET /a b HTTP/1.1\r\nHost: t\r\n\r\n", nil),
    ])
    func malformedRequestsAreRefusedAndTheServerKeepsServing(request: String, status: Int?) async throws {
        let handled = Shared(0)
        let server = try startServer { _ in
            handled.update { $0 += 1 }
            return HTTPResponse(status: .ok, bytes: Array("fine".utf8))
        }
        let (answer, after) = try await offload {
            let client = try RawHTTPClient(port: server.port)
            try client.send(request)
            let answer = try? client.readResponse()
            let closed = answer == nil && client.waitForClose()
            let after = try RawHTTPClient(port: server.port).exchange("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            return (answer.map(\.status) ?? (closed ? nil : -1), after)
        }
        #expect(answer == status)
        #expect(after.status == 200)
        #expect(after.text == "fine")
        #expect(handled.current == 1)
        await server.stop()
    }

    @Test func aServerReleasedWithoutStopShutsDownAndFreesItsPort() async throws {
        let port: UInt16
        do {
            let server = try startServer { _ in HTTPResponse(status: .ok, bytes: Array("up".utf8)) }
            port = server.port
            let answer = try await offload { try CurlClient().perform("http://127.0.0.1:\(port)/").text }
            #expect(answer == "up")
        }
        await #expect(throws: ClientError.self) {
            try await offload { try RawHTTPClient(port: port) }
        }
    }

    @Test func startingOnAPortInUseFailsWithTheSystemError() async throws {
        let first = try startServer { _ in HTTPResponse(status: .ok) }
        var configuration = HTTPServer.Configuration()
        configuration.port = first.port
        #expect {
            try HTTPServer(configuration: configuration) { _ in HTTPResponse(status: .ok) }
        } throws: { error in
            guard let error = error as? HTTPServerError else { return false }
            return error.code == .cannotBind && error.systemError == EADDRINUSE
                && error.message.contains("\(first.port)")
        }
        configuration.port = 0
        configuration.host = "not a host"
        #expect(throws: HTTPServerError.self) {
            try HTTPServer(configuration: configuration) { _ in HTTPResponse(status: .ok) }
        }
        configuration.host = "127.0.0.1"
        for threads in [0, 257] {
            configuration.threadPoolSize = threads
            #expect {
                try HTTPServer(configuration: configuration) { _ in HTTPResponse(status: .ok) }
            } throws: { error in
                (error as? HTTPServerError)?.code == .invalidConfiguration
            }
        }
        await first.stop()
    }
}
