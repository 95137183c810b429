import Engine
import MicroHTTPD

// The dashboard's files, /media/…, /demo/live.m3u8 and GET /api/events.

extension Router {
    func file(_ components: [String], from responder: FileResponder?, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard let responder, let response = responder.respond(to: request, components: components) else {
            throw .notFound("there is no file at \(request.path)")
        }
        return response
    }

    func demoLivePlaylist() throws(APIError) -> HTTPResponse {
        guard let demoLive else {
            throw .notFound("the demo live stream needs the sample segments in \(configuration.mediaFolder)/vod-ts")
        }
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "application/vnd.apple.mpegurl",
                // A live playlist changes every segment: every reload must reach the server.
                "Cache-Control": "no-cache, no-store",
            ],
            bytes: Array(demoLive.text(at: configuration.wallClock()).utf8))
    }

    /// `GET /api/events?queue=ID`, resuming after `Last-Event-ID` (header) or `lastEventId`
    /// (query) when given.
    func openEventStream(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        var queue: QueueID?
        if let text = request.target.queryValue("queue"), !text.isEmpty {
            let id = try Self.queueID(text)
            _ = try await call { engine throws(EngineError) in try await engine.queue(id) }
            queue = id
        }
        var after: EventID?
        if let text = request.headers["Last-Event-ID"] ?? request.target.queryValue("lastEventId"), !text.isEmpty {
            guard let id = EventID(text.trimmingWhitespace()) else {
                throw .badRequest("Last-Event-ID must be an event id (a non-negative integer), not \"\(text.prefix(40))\"")
            }
            after = id
        }
        return eventStreams.openStream(queue: queue, after: after)
    }
}
