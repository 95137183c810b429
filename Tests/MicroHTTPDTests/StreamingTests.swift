import Foundation
import MicroHTTPD
import Testing

/// Streaming bodies and shutdown, on a real loopback socket.
@Suite struct StreamingTests {
    /// A handler that hands each stream to the test, as an event hub would keep it.
    final class StreamCollector: Sendable {
        let streams = Shared<[StreamingBody]>([])
        let terminations = Shared<[StreamingBody.Termination]>([])

        func handler(bufferLimit: Int = 1 << 20) -> @Sendable (HTTPRequest) async -> HTTPResponse {
            { _ in
                let body = StreamingBody(bufferLimit: bufferLimit)
                body.onTermination { termination in self.terminations.update { $0.append(termination) } }
                body.write("retry: 1000\n\n")
                self.streams.update { $0.append(body) }
                return HTTPResponse(
                    status: .ok,
                    headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"],
                    body: .stream(body)
                )
            }
        }

        func stream(_ index: Int) async throws -> StreamingBody {
            #expect(await eventually { streams.current.count > index })
            return try #require(streams.current.dropFirst(index).first)
        }
    }

    @Test func chunksArriveAsTheyAreWrittenAndFinishEndsTheBody() async throws {
        let collector = StreamCollector()
        let server = try startServer(handler: collector.handler())
        let client = try await offload { try RawHTTPClient(port: server.port) }
        let head = try await offload {
            try client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
            return try client.readHead()
        }
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(try await offload { try client.readChunk() } == Array("retry: 1000\n\n".utf8))

        let body = try await collector.stream(0)
        for index in 1...3 {
            // Each event is read before the next is written: nothing waits for the body's end.
            #expect(body.write("id: \(index)\ndata: event \(index)\n\n") == .accepted)
            let chunk = try await offload { try client.readChunk() }
            #expect(chunk == Array("id: \(index)\ndata: event \(index)\n\n".utf8))
        }
        body.finish()
        #expect(try await offload { try client.readChunk() } == nil)
        #expect(await eventually { collector.terminations.current == [.finished] })
        #expect(body.write("late") == .terminated(.finished))

        // The connection stays usable after a finished stream.
        let next = try await offload {
            try client.send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n")
            return try client.readHead()
        }
        #expect(next.status == 200)
        await server.stop()
    }

    @Test func aClientThatLeavesIsReportedToTheProducer() async throws {
        let collector = StreamCollector()
        let server = try startServer(handler: collector.handler())
        try await offload {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try client.readHead()
            _ = try client.readChunk()
            // The client object goes away here, closing its socket.
        }
        let body = try await collector.stream(0)
        // A producer's periodic writes (heartbeats) reveal the broken connection.
        var writes = 0
        let reported = await eventually(timeout: .seconds(5)) {
            writes += 1
            body.write(": heartbeat\n\n")
            return !collector.terminations.current.isEmpty
        }
        #expect(reported)
        #expect(collector.terminations.current == [.clientDisconnected])
        #expect(body.termination == .clientDisconnected)
        #expect(body.write("after") == .terminated(.clientDisconnected))
        #expect(writes < 100)
        await server.stop()
    }

    @Test func aClientThatDoesNotReadIsCutOffAtTheBufferLimit() async throws {
        let collector = StreamCollector()
        let server = try startServer(handler: collector.handler(bufferLimit: 64 * 1024))
        let client = try await offload {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
            return client
        }
        let body = try await collector.stream(0)
        let event = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
        var result = StreamingBody.WriteResult.accepted
        // The kernel's socket buffers absorb some megabytes before the server's buffer fills.
        for _ in 0..<10_000 where result == .accepted {
            result = body.write(event)
            if result == .accepted { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(result == .terminated(.bufferLimitExceeded))
        #expect(await eventually { collector.terminations.current == [.bufferLimitExceeded] })
        withExtendedLifetime(client) {}
        await server.stop()
    }

    /// HTTP/1.0 has no chunked encoding: the stream is sent as is and ends with the connection.
    @Test func anHTTP10ClientGetsTheStreamUntilTheConnectionCloses() async throws {
        let collector = StreamCollector()
        let server = try startServer(handler: collector.handler())
        let client = try await offload {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET /events HTTP/1.0\r\n\r\n")
            return client
        }
        let body = try await collector.stream(0)
        body.write("data: one\n\n")
        body.finish()
        let response = try await offload { try client.readResponse() }
        #expect(response.status == 200)
        #expect(response.text == "retry: 1000\n\ndata: one\n\n")
        await server.stop()
    }

    @Test func stopEndsStreamsAndWaitsForHandlersInFlight() async throws {
        let collector = StreamCollector()
        let started = Shared(0)
        let finished = Shared(0)
        let server = try startServer { request in
            if request.path == "/events" { return await collector.handler()(request) }
            started.update { $0 += 1 }
            // A long handler that notices cancellation, as an awaited engine call would.
            try? await Task.sleep(for: .seconds(30))
            finished.update { $0 += 1 }
            return HTTPResponse(status: .ok)
        }
        let port = server.port
        let streamClient = try await offload {
            let client = try RawHTTPClient(port: port)
            try client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try client.readHead()
            _ = try client.readChunk()
            return client
        }
        let slowClients = try await offload {
            try (0..<3).map { _ in
                let client = try RawHTTPClient(port: port)
                try client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
                return client
            }
        }
        #expect(await eventually { started.current == 3 })

        let clock = ContinuousClock()
        let stopping = clock.now
        await server.stop()
        #expect(clock.now - stopping < .seconds(5))
        #expect(finished.current == 3)
        #expect(collector.terminations.current == [.serverStopped])
        let body = try await collector.stream(0)
        #expect(body.write("late") == .terminated(.serverStopped))

        let closed = try await offload { (slowClients + [streamClient]).map { $0.waitForClose() } }
        #expect(closed == [true, true, true, true])
        await #expect(throws: ClientError.self) {
            try await offload { try RawHTTPClient(port: port) }
        }
        // Idempotent, and nothing ran after the first stop returned.
        await server.stop()
        #expect(started.current == 3 && finished.current == 3)
    }

    @Test func concurrentStopsAllWaitForTheSameShutdown() async throws {
        let started = Shared(0)
        let finished = Shared(0)
        let server = try startServer { _ in
            started.update { $0 += 1 }
            try? await Task.sleep(for: .seconds(30))
            finished.update { $0 += 1 }
            return HTTPResponse(status: .ok)
        }
        let client = try await offload {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            return client
        }
        #expect(await eventually { started.current == 1 })
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    await server.stop()
                    return finished.current
                }
            }
            for await seen in group { #expect(seen == 1) }
        }
        withExtendedLifetime(client) {}
    }
}
