import Foundation
import MicroHTTPD
import Testing

/// Handlers that answer some requests at once, on libmicrohttpd's thread.
@Suite struct ImmediateResponseTests {
    /// Answers `/fast` at once and everything else (a streaming answer included) from
    /// `respond(to:)`, counting which path each request took.
    struct SplitHandler: HTTPHandler {
        let immediate = Shared(0)
        let waited = Shared(0)

        func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
            switch request.path {
            case "/fast":
                immediate.update { $0 += 1 }
                return HTTPResponse(status: .ok, headers: ["X-Path": "immediate"], bytes: Array("fast \(request.method)".utf8))
            case "/stream":
                // A stream cannot be answered at once: the server asks respond(to:) instead.
                return HTTPResponse(status: .ok, body: .stream(StreamingBody()))
            default:
                return nil
            }
        }

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            waited.update { $0 += 1 }
            return HTTPResponse(status: .ok, headers: ["X-Path": "task"], bytes: Array("slow \(request.path)".utf8))
        }
    }

    @Test func immediateAnswersSkipTheTaskAndOthersStillGetOne() async throws {
        let handler = SplitHandler()
        let server = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: handler)
        let base = "http://127.0.0.1:\(server.port)"
        let (fast, slow, stream, again) = try await offload {
            let client = try CurlClient()
            return (
                try client.perform(base + "/fast"), try client.perform(base + "/other"),
                try client.perform(base + "/stream"), try client.perform(base + "/fast", method: "POST", body: Array("x".utf8))
            )
        }
        #expect(fast.status == 200)
        #expect(fast.text == "fast GET")
        #expect(fast.header("X-Path") == "immediate")
        #expect(slow.text == "slow /other")
        #expect(slow.header("X-Path") == "task")
        #expect(stream.text == "slow /stream")
        #expect(again.text == "fast POST")
        #expect(handler.immediate.current == 2)
        #expect(handler.waited.current == 2)
        await server.stop()
    }

    /// Serves one SharedBytes to every request, from either path.
    final class SharedHandler: HTTPHandler {
        let document = Shared<SharedBytes?>(SharedBytes(Array(repeating: UInt8(ascii: "x"), count: 100_000)))

        func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
            guard request.path == "/fast", let bytes = document.current else { return nil }
            return HTTPResponse(status: .ok, body: .shared(bytes))
        }

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            guard let bytes = document.current else { return HTTPResponse(status: .notFound) }
            return HTTPResponse(status: .ok, body: .shared(bytes))
        }
    }

    @Test func sharedBytesAreSentWholeByBothPathsAndFreedAfterwards() async throws {
        let handler = SharedHandler()
        weak let shared = handler.document.current
        let server = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: handler)
        let base = "http://127.0.0.1:\(server.port)"
        let bodies = try await offload {
            let client = try CurlClient()
            return try (0..<3).flatMap { _ in [try client.perform(base + "/fast"), try client.perform(base + "/slow")] }
        }
        for response in bodies {
            #expect(response.status == 200)
            #expect(response.body.count == 100_000)
            #expect(response.body.allSatisfy { $0 == UInt8(ascii: "x") })
        }
        handler.document.update { $0 = nil }
        await server.stop()
        // Every response released its reference: the memory is freed.
        #expect(shared == nil)
    }
}
