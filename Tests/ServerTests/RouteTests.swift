import Engine
import Foundation
import MicroHTTPD
import OriginSupport
import Testing

@testable import Server

/// The router called without a socket: every route and every status the contract names.
@Suite struct RouteTests {
    // MARK: - Queues

    @Test func queuesAreCreatedListedRenamedAndDeleted() async throws {
        let fixture = try await RouterFixture()
        let created = try await fixture.post("/api/queues", #"{"name": " Evening ", "settings": {"consume": false, "loop": {"mode": "queue"}}}"#)
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        #expect(id.hasPrefix("q-"))
        #expect(created.headers["Location"] == "/api/queues/\(id)")
        #expect(created.json["name"] as? String == "Evening")
        let settings = try #require(created.json["settings"] as? [String: Any])
        #expect(settings["consume"] as? Bool == false)
        #expect((settings["loop"] as? [String: Any])?["mode"] as? String == "queue")
        #expect(settings["actionAtItemEnd"] as? String == "advance")
        #expect(created.json["timeControlStatus"] as? String == "paused")
        #expect(created.json["currentItemId"] is NSNull)
        #expect((created.json["items"] as? [Any])?.isEmpty == true)
        #expect(created.json["lastEventId"] as? Int != nil)
        #expect((created.json["serverTime"] as? String)?.hasSuffix("Z") == true)

        let list = try await fixture.get("/api/queues")
        #expect(list.status == 200)
        let queues = try #require(list.json["queues"] as? [[String: Any]])
        #expect(queues.map { $0["id"] as? String } == [id])
        #expect(queues.first?["itemCount"] as? Int == 0)

        let renamed = try await fixture.patch("/api/queues/\(id)", #"{"name": "Night", "actionAtItemEnd": "pause", "loop": {"mode": "item", "plays": 3, "range": {"start": 2, "end": 8}}}"#)
        #expect(renamed.status == 200, "\(renamed.text)")
        #expect(renamed.json["name"] as? String == "Night")
        let loop = try #require((renamed.json["settings"] as? [String: Any])?["loop"] as? [String: Any])
        #expect(loop["mode"] as? String == "item")
        #expect(loop["plays"] as? Int == 3)
        #expect((loop["range"] as? [String: Any])?["end"] as? Double == 8)
        #expect(try await fixture.get("/api/queues/\(id)").json["name"] as? String == "Night")

        let deleted = try await fixture.delete("/api/queues/\(id)")
        #expect(deleted.status == 204)
        #expect(deleted.bytes.isEmpty)
        #expect(try await fixture.get("/api/queues/\(id)").status == 404)
    }

    @Test func aCachedSnapshotNeverOutlivesAChange() async throws {
        let fixture = try await RouterFixture()
        let id = try await fixture.createQueue()
        let first = try await fixture.get("/api/queues/\(id)")
        let again = try await fixture.get("/api/queues/\(id)")
        // Nothing happened in between: the same bytes, from the cache.
        #expect(first.bytes == again.bytes)
        _ = try await fixture.patch("/api/queues/\(id)", #"{"name": "Renamed"}"#)
        let after = try await fixture.get("/api/queues/\(id)")
        #expect(after.json["name"] as? String == "Renamed")
        #expect((after.json["lastEventId"] as? Int ?? 0) > (first.json["lastEventId"] as? Int ?? 0))
    }

    @Test func aCachedSnapshotIsAnsweredAtOnceUntilAnEventOutdatesIt() async throws {
        let fixture = try await RouterFixture(token: "k")
        let authorized: HTTPHeaders = ["Authorization": "Bearer k", "Host": "127.0.0.1:8080"]
        let id = try await fixture.createQueue(headers: authorized)
        func immediate(_ headers: HTTPHeaders = authorized, method: HTTPMethod = .get) throws -> HTTPResponse? {
            fixture.router.immediateResponse(to: HTTPRequest(
                method: method, target: try HTTPRequestTarget(parsing: "/api/queues/\(id)"), headers: headers))
        }
        let read = try await fixture.get("/api/queues/\(id)", headers: authorized)
        let cached = try #require(try immediate())
        #expect(cached.bodyBytes == read.bytes)
        #expect(cached.headers["Content-Type"] == "application/json; charset=utf-8")
        // Without the token, or for another method, the router takes the usual path.
        #expect(try immediate(["Host": "127.0.0.1:8080"]) == nil)
        #expect(try immediate(method: .delete) == nil)
        // A change made through the router is answered with, and cached as, the new snapshot.
        let changed = try await fixture.patch("/api/queues/\(id)", #"{"name": "Changed"}"#, headers: authorized)
        #expect(try immediate()?.bodyBytes == changed.bytes)
        // An event the router did not answer (the engine's own, another client's) outdates it.
        let queueID = try #require(QueueID(id))
        _ = try await fixture.engine.updateQueue(queueID, QueueChanges(name: "Elsewhere"))
        #expect(try immediate() == nil)
        fixture.router.beginShutdown()
        _ = try await fixture.get("/api/queues/\(id)", headers: authorized)
        #expect(try immediate() == nil)
    }

    @Test func healthAnswersWithTheVersionAndQueueCount() async throws {
        let fixture = try await RouterFixture()
        _ = try await fixture.createQueue()
        let health = try await fixture.get("/api/health")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")
        #expect(health.json["queues"] as? Int == 1)
        #expect(health.json["version"] as? String != nil)
        #expect(health.json["uptime"] as? Double != nil)
        #expect(health.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    // MARK: - Items

    @Test func aChangeToALongQueueAnswersWithItsFirstItemsAndAReadListsThemAll() async throws {
        let fixture = try await RouterFixture(configureEngine: { $0.eventItemLimit = 2 })
        let queue = try await fixture.createQueue()
        let movie = RouteTestShared.origin.url("/chapters.mp4")
        let items = try await fixture.engine.importItems(
            (0..<4).map { NewItem(url: movie, title: "Movie \($0)") }, into: try #require(QueueID(queue)))
        let moved = try await fixture.post("/api/queues/\(queue)/items/\(items[3].id.rawValue)/move", #"{"index": 1}"#)
        #expect(moved.status == 200, "\(moved.text)")
        let ids = items.map(\.id.rawValue)
        let answered = (moved.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(answered == [ids[0], ids[3]])
        #expect(moved.json["itemCount"] as? Int == 4)
        let renamed = try await fixture.patch("/api/queues/\(queue)", #"{"name": "Renamed"}"#)
        #expect((renamed.json["items"] as? [[String: Any]])?.count == 2 && renamed.json["itemCount"] as? Int == 4)
        // The short answer was not kept as the queue's snapshot.
        let read = try await fixture.get("/api/queues/\(queue)")
        let listed = (read.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(listed == [ids[0], ids[3], ids[1], ids[2]])
        #expect(read.json["name"] as? String == "Renamed")
    }

    @Test func itemsAreAddedReadChangedMovedAndRemoved() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        let movie = RouteTestShared.origin.url("/chapters.mp4")
        let added = try await fixture.post("/api/queues/\(queue)/items", #"{"url": "\#(movie)", "title": "Movie"}"#)
        #expect(added.status == 201, "\(added.text)")
        let first = try #require(added.json["id"] as? String)
        #expect(added.headers["Location"] == "/api/queues/\(queue)/items/\(first)")
        #expect(added.json["kind"] as? String == "media")
        #expect(added.json["title"] as? String == "Movie")
        for member in ["preferences", "variants", "mediaSelectionGroups", "chapters", "linearPlaybackRanges", "accessLog", "errorLog", "buffer"] {
            #expect(added.json[member] != nil, "the full item has \(member)")
        }
        let second = try await fixture.addItem(queue, url: RouteTestShared.origin.url("/chapters.mp4?copy=2"))
        let third = try await fixture.addItem(queue, url: RouteTestShared.origin.url("/chapters.mp4?copy=3"), extra: #", "after": "\#(first)""#)

        var order = try await fixture.get("/api/queues/\(queue)").json["items"] as? [[String: Any]]
        #expect(order?.map { $0["id"] as? String } == [first, third, second])

        let loaded = try await fixture.waitForItem(queue, first) { $0["status"] as? String == "readyToPlay" }
        #expect(loaded["duration"] as? Double == 12)
        #expect((loaded["chapters"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Opening", "Middle", "Closing"])

        let changed = try await fixture.patch(
            "/api/queues/\(queue)/items/\(first)",
            #"{"title": null, "preferences": {"preferredForwardBufferDuration": 10, "forwardPlaybackEndTime": 9.5}, "loop": {"plays": 2, "range": null}}"#)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.json["title"] is NSNull)
        let preferences = try #require(changed.json["preferences"] as? [String: Any])
        #expect(preferences["preferredForwardBufferDuration"] as? Double == 10)
        #expect(preferences["forwardPlaybackEndTime"] as? Double == 9.5)
        #expect(preferences["preferredPeakBitRate"] as? Double == 0)
        #expect((changed.json["loop"] as? [String: Any])?["plays"] as? Int == 2)

        // A rendition the media does not have is a validation failure of selectedMedia.
        let rendition = try await fixture.patch("/api/queues/\(queue)/items/\(first)", #"{"selectedMedia": {"audible": "Klingon"}}"#)
        #expect(rendition.status == 422, "\(rendition.text)")
        #expect(rendition.error["field"] as? String == "selectedMedia")
        let wrongType = try await fixture.patch("/api/queues/\(queue)/items/\(first)", #"{"selectedMedia": {"legible": 3}}"#)
        #expect(wrongType.status == 400)
        #expect(wrongType.error["field"] as? String == "selectedMedia.legible")

        let moved = try await fixture.post("/api/queues/\(queue)/items/\(second)/move", #"{"after": "\#(first)"}"#)
        #expect(moved.status == 200, "\(moved.text)")
        order = moved.json["items"] as? [[String: Any]]
        #expect(order?.map { $0["id"] as? String } == [first, second, third])
        let toEnd = try await fixture.post("/api/queues/\(queue)/items/\(second)/move", #"{"after": null}"#)
        #expect((toEnd.json["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [first, third, second])
        let byIndex = try await fixture.post("/api/queues/\(queue)/items/\(second)/move", #"{"index": 1}"#)
        #expect((byIndex.json["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [first, second, third])

        #expect(try await fixture.delete("/api/queues/\(queue)/items/\(third)").status == 204)
        #expect(try await fixture.get("/api/queues/\(queue)/items/\(third)").status == 404)
        #expect(try await fixture.get("/api/queues/\(queue)").json["items"].map { ($0 as? [Any])?.count } == 2)
    }

    @Test func fileItemsAreAcceptedOnlyInsideTheMediaRoots() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        let inside = fixture.mediaRoot.appendingPathComponent("movie.mp4").path
        #expect(try await fixture.post("/api/queues/\(queue)/items", #"{"url": "\#(inside)"}"#).status == 201)
        #expect(try await fixture.post("/api/queues/\(queue)/items", #"{"url": "file://\#(inside)?again"}"#).status == 201)
        for outside in [
            "/etc/passwd", "file:///etc/passwd", "\(fixture.mediaRoot.path)/../hlsq.sqlite",
            "file://\(fixture.mediaRoot.path)/%2E%2E/hlsq.sqlite", "file://otherhost\(inside)",
        ] {
            let refused = try await fixture.post("/api/queues/\(queue)/items", #"{"url": "\#(outside)"}"#)
            #expect(refused.status == 422, "\(outside): \(refused.text)")
            #expect(refused.errorCode == "validationFailed")
            #expect(refused.error["field"] as? String == "url")
        }
    }

    // MARK: - Commands

    @Test func commandsAnswerWithTheSnapshotAndRefusalsWithAReason() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        let refused = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "previous"}"#)
        #expect(refused.status == 409)
        #expect(refused.errorCode == "commandRefused")
        #expect(refused.error["reason"] as? String == "noHistory")
        let fast = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "setRate", "rate": 4}"#)
        #expect(fast.status == 409)
        #expect(fast.error["reason"] as? String == "rateNotAllowed")

        let item = try await fixture.addItem(queue, url: RouteTestShared.origin.url("/chapters.mp4"))
        _ = try await fixture.waitForItem(queue, item) { $0["status"] as? String == "readyToPlay" }
        let playing = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "play"}"#)
        #expect(playing.status == 200, "\(playing.text)")
        #expect(playing.json["rate"] as? Double == 1)
        let seek = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "seek", "time": 4.5}"#)
        #expect(seek.status == 200, "\(seek.text)")
        #expect(seek.json["seekId"] as? Int != nil)
        let outside = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "seek", "time": 60}"#)
        #expect(outside.status == 409)
        #expect(outside.error["reason"] as? String == "outsideSeekableRange")
        let rate = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "setRate", "rate": 0.5}"#)
        #expect(rate.json["rate"] as? Double == 0.5)
        // Reverse playback is allowed over media loaded behind the playhead.
        let reverse = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "setRate", "rate": -1}"#)
        // (Linux's JSONSerialization does not bridge a negative integer to Double.)
        #expect((reverse.json["rate"] as? NSNumber)?.doubleValue == -1, "\(reverse.text)")
        let paused = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "pause"}"#)
        #expect(paused.json["timeControlStatus"] as? String == "paused")
        let jump = try await fixture.post("/api/queues/\(queue)/commands", #"{"command": "jump", "itemId": "999999"}"#)
        #expect(jump.status == 404)
    }

    @Test(arguments: [
        (#"{"command": "dance"}"#, "command"),
        (#"{"command": "seek"}"#, "time"),
        (#"{"command": "jump"}"#, "itemId"),
        (#"{"command": "play", "time": 3}"#, "time"),
        (#"{"command": "seek", "time": 1, "toleranceBefore": -1}"#, "toleranceBefore"),
        (#"{}"#, "command"),
    ])
    func malformedCommandsAreValidationFailures(body: String, field: String) async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        let answer = try await fixture.post("/api/queues/\(queue)/commands", body)
        #expect(answer.status == 422, "\(answer.text)")
        #expect(answer.error["field"] as? String == field)
    }

    // MARK: - Every error status

    @Test func insertionRefusalsAre409WithTheReason() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        let anchorMissing = try await fixture.post("/api/queues/\(queue)/items", #"{"url": "http://127.0.0.1:9/a.mp4", "after": "424242"}"#)
        #expect(anchorMissing.status == 409)
        #expect(anchorMissing.errorCode == "cannotInsert")
        #expect(anchorMissing.error["reason"] as? String == "anchorNotInQueue")
        let tooFar = try await fixture.post("/api/queues/\(queue)/items", #"{"url": "http://127.0.0.1:9/a.mp4", "index": 5}"#)
        #expect(tooFar.status == 409)
        #expect(tooFar.error["reason"] as? String == "indexOutOfRange")
        let both = try await fixture.post("/api/queues/\(queue)/items", #"{"url": "http://127.0.0.1:9/a.mp4", "index": 0, "after": null}"#)
        #expect(both.status == 422)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let method: HTTPMethod
        let target: String
        let body: String?
        let contentType: String?
        let status: Int
        let code: String
        var field: String? = nil
        var testDescription: String { "\(method) \(target) \(body ?? "") → \(status) \(code)" }
    }

    /// `{queue}` in a target or body is replaced by a real queue's id.
    @Test(arguments: [
        Refusal(method: .get, target: "/api/nothing", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "/api/queues/q-999", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "/api/queues/not-a-queue", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "/api/queues/{queue}/items/12345", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .delete, target: "/api/queues/{queue}/items/12345", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .post, target: "/api/queues/{queue}/items/12345/move", body: #"{"index": 0}"#, contentType: "application/json", status: 404, code: "notFound"),
        Refusal(method: .get, target: "/nothing.html", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "/media/../README.md", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "/media/%2e%2e/README.md", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "/media/%252e%252e/README.md", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "/media/..%2FREADME.md", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .get, target: "//etc/passwd", body: nil, contentType: nil, status: 404, code: "notFound"),
        Refusal(method: .put, target: "/api/queues", body: "{}", contentType: "application/json", status: 405, code: "methodNotAllowed"),
        Refusal(method: .delete, target: "/api/health", body: nil, contentType: nil, status: 405, code: "methodNotAllowed"),
        Refusal(method: .get, target: "/api/queues/{queue}/commands", body: nil, contentType: nil, status: 405, code: "methodNotAllowed"),
        Refusal(method: .post, target: "/index.html", body: "x", contentType: "text/plain", status: 405, code: "methodNotAllowed"),
        Refusal(method: .post, target: "/api/queues", body: #"{"name": "a""#, contentType: "application/json", status: 400, code: "badRequest"),
        Refusal(method: .post, target: "/api/queues", body: "[1]", contentType: "application/json", status: 400, code: "badRequest"),
        Refusal(method: .post, target: "/api/queues", body: #"{"name": 5}"#, contentType: "application/json", status: 400, code: "badRequest", field: "name"),
        Refusal(method: .patch, target: "/api/queues/{queue}", body: #"{"consume": "yes"}"#, contentType: "application/json", status: 400, code: "badRequest", field: "consume"),
        Refusal(method: .post, target: "/api/queues/{queue}/items", body: #"{"url": "http://a/b.mp4", "index": 1.5}"#, contentType: "application/json", status: 400, code: "badRequest", field: "index"),
        Refusal(method: .post, target: "/api/queues", body: #"{"name": "a"}"#, contentType: "text/plain", status: 415, code: "unsupportedMediaType"),
        Refusal(method: .post, target: "/api/queues", body: #"{"name": "a"}"#, contentType: nil, status: 415, code: "unsupportedMediaType"),
        Refusal(method: .post, target: "/api/queues/{queue}/import", body: "#EXTM3U", contentType: "image/png", status: 415, code: "unsupportedMediaType"),
        Refusal(method: .post, target: "/api/validate", body: "#EXTM3U", contentType: "application/octet-stream", status: 415, code: "unsupportedMediaType"),
        Refusal(method: .post, target: "/api/queues", body: #"{"name": "   "}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "name"),
        Refusal(method: .post, target: "/api/queues", body: #"{}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "name"),
        Refusal(method: .post, target: "/api/queues", body: #"{"name": "a", "colour": "red"}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "colour"),
        Refusal(method: .post, target: "/api/queues", body: #"{"name": "a", "settings": {"defaultRate": -1}}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "settings.defaultRate"),
        Refusal(method: .patch, target: "/api/queues/{queue}", body: #"{"defaultRate": 0}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "defaultRate"),
        Refusal(method: .patch, target: "/api/queues/{queue}", body: #"{"actionAtItemEnd": "explode"}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "actionAtItemEnd"),
        Refusal(method: .patch, target: "/api/queues/{queue}", body: #"{"loop": {"mode": "sometimes"}}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "loop.mode"),
        Refusal(method: .patch, target: "/api/queues/{queue}", body: #"{"loop": {"mode": "item", "plays": 0}}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "loop.plays"),
        Refusal(method: .patch, target: "/api/queues/{queue}", body: #"{"loop": {"mode": "item", "range": {"start": 5, "end": 2}}}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "loop.range"),
        Refusal(method: .post, target: "/api/queues/{queue}/items", body: #"{"url": "not a url"}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "url"),
        Refusal(method: .post, target: "/api/queues/{queue}/items", body: #"{"url": "ftp://example.com/a.mp4"}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "url"),
        Refusal(method: .post, target: "/api/queues/{queue}/items", body: #"{"title": "no url"}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "url"),
        Refusal(method: .post, target: "/api/queues/{queue}/items/1/move", body: #"{}"#, contentType: "application/json", status: 422, code: "validationFailed", field: "after"),
        Refusal(method: .get, target: "/api/events?lastEventId=abc", body: nil, contentType: nil, status: 400, code: "badRequest"),
        Refusal(method: .get, target: "/api/events?queue=q-777", body: nil, contentType: nil, status: 404, code: "notFound"),
    ])
    func refusalsHaveTheContractsStatusAndCode(_ refusal: Refusal) async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        var headers = HTTPHeaders()
        if let type = refusal.contentType { headers.set(name: "Content-Type", value: type) }
        let answer = try await fixture.send(
            refusal.method, refusal.target.replacingOccurrences(of: "{queue}", with: queue),
            body: refusal.body.map { Array($0.utf8) }, headers: headers)
        #expect(answer.status == refusal.status, "\(answer.text)")
        #expect(answer.errorCode == refusal.code)
        #expect((answer.error["message"] as? String)?.isEmpty == false)
        #expect(answer.headers["Content-Type"] == "application/json; charset=utf-8")
        if let field = refusal.field { #expect(answer.error["field"] as? String == field) }
        if refusal.status == 405 {
            #expect(answer.headers["Allow"]?.isEmpty == false)
        }
    }

    @Test func methodNotAllowedListsTheAllowedMethods() async throws {
        let fixture = try await RouterFixture()
        let answer = try await fixture.send(.put, "/api/queues")
        #expect(answer.status == 405)
        #expect(answer.headers["Allow"] == "GET, HEAD, POST")
    }

    @Test func aTokenGuardsTheAPIButNotHealthOrFiles() async throws {
        let fixture = try await RouterFixture(token: "s3cret")
        #expect(try await fixture.get("/api/queues").status == 401)
        let wrong = try await fixture.get("/api/queues", headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 401)
        #expect(wrong.errorCode == "unauthorized")
        #expect(wrong.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try await fixture.get("/api/nothing").status == 401)
        #expect(try await fixture.get("/api/queues?token=s3cret").status == 401)
        #expect(try await fixture.get("/api/queues", headers: ["Authorization": "Bearer s3cret"]).status == 200)
        #expect(try await fixture.get("/api/queues", headers: ["Authorization": "bearer  s3cret "]).status == 200)
        #expect(try await fixture.get("/api/health").status == 200)
        #expect(try await fixture.get("/").status == 200)
        #expect(try await fixture.get("/metrics").status == 200)
        #expect(try await fixture.get("/api/events?token=wrong").status == 401)
        let stream = try await fixture.get("/api/events?token=s3cret")
        #expect(stream.status == 200)
        #expect(stream.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        if case .stream(let body) = stream.response.body { body.finish() }
    }

    @Test func changesFromAForeignOriginAreForbidden() async throws {
        let fixture = try await RouterFixture()
        let foreign: HTTPHeaders = ["Origin": "http://evil.example", "Host": "127.0.0.1:8080"]
        let refused = try await fixture.post("/api/queues", #"{"name": "x"}"#, headers: foreign)
        #expect(refused.status == 403)
        #expect(refused.errorCode == "forbiddenOrigin")
        #expect(try await fixture.post("/api/queues", #"{"name": "x"}"#, headers: ["Origin": "null", "Host": "127.0.0.1:8080"]).status == 403)
        #expect(try await fixture.post("/api/queues", #"{"name": "x"}"#, headers: ["Origin": "https://127.0.0.1:8080", "Host": "127.0.0.1:8080"]).status == 403)
        // Reading is allowed from anywhere; the same origin and no origin may change things.
        #expect(try await fixture.get("/api/queues", headers: foreign).status == 200)
        #expect(try await fixture.post("/api/queues", #"{"name": "x"}"#, headers: ["Origin": "http://127.0.0.1:8080", "Host": "127.0.0.1:8080"]).status == 201)
        #expect(try await fixture.post("/api/queues", #"{"name": "y"}"#).status == 201)
    }

    @Test func aShutDownEngineAnswers503() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        _ = try await fixture.get("/api/queues/\(queue)")
        await fixture.engine.shutdown()
        let change = try await fixture.post("/api/queues", #"{"name": "late"}"#)
        #expect(change.status == 503)
        #expect(change.errorCode == "unavailable")
        // Once the router is told, even what it has cached is refused.
        fixture.router.beginShutdown()
        #expect(try await fixture.get("/api/queues/\(queue)").status == 503)
        #expect(try await fixture.get("/api/health").status == 503)
    }

    // MARK: - Files

    @Test func theDashboardAndTheMediaAreServedWithTagsAndRanges() async throws {
        let fixture = try await RouterFixture()
        let index = try await fixture.get("/")
        #expect(index.status == 200)
        #expect(index.text.contains("<title>hlsq</title>"))
        #expect(index.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(index.headers["Cache-Control"] == "no-cache")
        let tag = try #require(index.headers["ETag"])
        let revalidated = try await fixture.get("/index.html", headers: ["If-None-Match": tag])
        #expect(revalidated.status == 304)

        let playlist = try await fixture.get("/media/vod-ts/index.m3u8")
        #expect(playlist.status == 200)
        #expect(playlist.headers["Content-Type"] == "application/vnd.apple.mpegurl")
        #expect(playlist.text.hasPrefix("#EXTM3U"))
        let range = try await fixture.get("/media/vod-ts/segment0.ts", headers: ["Range": "bytes=0-187"])
        #expect(range.status == 206)
        #expect(range.bytes.count == 188)
        #expect(range.bytes.first == 0x47)
        #expect(range.headers["Content-Type"] == "video/mp2t")
        let beyond = try await fixture.get("/media/vod-ts/segment0.ts", headers: ["Range": "bytes=99999999-"])
        #expect(beyond.status == 416)
        #expect(beyond.headers["Content-Range"]?.hasPrefix("bytes */") == true)
        #expect(try await fixture.send(.head, "/media/chapters.mp4").status == 200)
    }

    @Test func theDemoLiveStreamFollowsTheInjectedClock() async throws {
        let fixture = try await RouterFixture(wallClock: { DemoLiveStreamTests.date(1_000_001) })
        let live = try await fixture.get("/demo/live.m3u8")
        #expect(live.status == 200)
        #expect(live.headers["Content-Type"] == "application/vnd.apple.mpegurl")
        #expect(live.headers["Cache-Control"]?.contains("no-cache") == true)
        #expect(live.text.contains("#EXT-X-MEDIA-SEQUENCE:499994\n"))
        #expect(live.text.contains("/media/vod-ts/segment2.ts"))
        #expect(!live.text.contains("#EXT-X-ENDLIST"))
    }

    // MARK: - Playlists

    @Test func anExtendedM3UImportsInOrderWithTitlesAndDiagnostics() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        let base = RouteTestShared.origin.url("/lists/")
        let text = """
            #EXTM3U
            #EXTINF:12,Movie
            ../chapters.mp4
            #EXTINF:-1 tvg-name="Channel",
            https://example.com/live.m3u8
            rtmp://example.com/old
            file:///etc/passwd
            """
        let answer = try await fixture.send(
            .post, "/api/queues/\(queue)/import?base=\(base.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
            body: Array(text.utf8), headers: ["Content-Type": "audio/x-mpegurl"])
        #expect(answer.status == 201, "\(answer.text)")
        #expect(answer.json["kind"] as? String == "m3u")
        let items = try #require(answer.json["items"] as? [[String: Any]])
        #expect(items.map { $0["title"] as? String } == ["Movie", "Channel"])
        #expect(items.first?["url"] as? String == RouteTestShared.origin.url("/chapters.mp4"))
        let diagnostics = try #require(answer.json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.filter { $0["rule"] as? String == "entrySkipped" }.compactMap { $0["line"] as? Int } == [6, 7])

        // Inserted after the first imported item, by JSON.
        let first = try #require(items.first?["id"] as? String)
        let json = try await fixture.post("/api/queues/\(queue)/import", #"{"text": "http://127.0.0.1:9/x.mp4\nhttp://127.0.0.1:9/y.mp4", "after": "\#(first)"}"#)
        #expect(json.status == 201, "\(json.text)")
        let order = try await fixture.get("/api/queues/\(queue)").json["items"] as? [[String: Any]]
        #expect(order?.map { $0["url"] as? String }.dropFirst().prefix(2) == ["http://127.0.0.1:9/x.mp4", "http://127.0.0.1:9/y.mp4"])
    }

    @Test func anHLSPlaylistImportsAsOneItemByURLButNotAsBareText() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        let url = RouteTestShared.origin.url("/multivariant/master.m3u8")
        let byURL = try await fixture.post("/api/queues/\(queue)/import", #"{"url": "\#(url)"}"#)
        #expect(byURL.status == 201, "\(byURL.text)")
        #expect(byURL.json["kind"] as? String == "multivariant")
        #expect((byURL.json["items"] as? [[String: Any]])?.map { $0["url"] as? String } == [url])

        let text = try String(contentsOf: TestOrigin.playlists.appendingPathComponent("vod-ts/index.m3u8"), encoding: .utf8)
        let bare = try await fixture.send(.post, "/api/queues/\(queue)/import", body: Array(text.utf8), headers: ["Content-Type": "application/vnd.apple.mpegurl"])
        #expect(bare.status == 422)
        #expect((bare.error["message"] as? String)?.contains("import it by URL") == true)
        #expect(bare.error["diagnostics"] is [Any])
        let withBase = try await fixture.send(
            .post, "/api/queues/\(queue)/import?base=http%3A%2F%2F127.0.0.1%3A9%2Fvod.m3u8", body: Array(text.utf8),
            headers: ["Content-Type": "application/vnd.apple.mpegurl"])
        #expect(withBase.status == 201)
        #expect((withBase.json["items"] as? [[String: Any]])?.first?["url"] as? String == "http://127.0.0.1:9/vod.m3u8")

        let missing = try await fixture.post("/api/queues/\(queue)/import", #"{"url": "\#(RouteTestShared.origin.url("/nothing.m3u8"))"}"#)
        #expect(missing.status == 422)
        #expect(missing.error["field"] as? String == "url")
        let nothing = try await fixture.send(.post, "/api/queues/\(queue)/import", body: Array("# just a comment\n".utf8), headers: ["Content-Type": "text/plain"])
        #expect(nothing.status == 422)
        #expect(try await fixture.post("/api/queues/q-999/import", #"{"text": "http://a/b.mp4"}"#).status == 404)
    }

    @Test func exportWritesAnExtendedM3UThatParsesBack() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue("Export\\nme")
        let movie = try await fixture.addItem(queue, url: RouteTestShared.origin.url("/chapters.mp4"), extra: #", "title": "A movie\nwith a break""#)
        _ = try await fixture.waitForItem(queue, movie) { $0["status"] as? String == "readyToPlay" }
        _ = try await fixture.addItem(queue, url: fixture.mediaRoot.appendingPathComponent("movie.mp4").path)
        _ = try await fixture.addItem(queue, url: "http://127.0.0.1:9/never.mp4")
        let answer = try await fixture.get("/api/queues/\(queue)/export.m3u8")
        #expect(answer.status == 200)
        #expect(answer.headers["Content-Type"] == "audio/x-mpegurl; charset=utf-8")
        let lines = answer.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "#EXTM3U")
        #expect(lines.contains("#EXTINF:12,A movie with a break"))
        #expect(lines.contains(RouteTestShared.origin.url("/chapters.mp4")))
        #expect(lines.contains("file://" + fixture.mediaRoot.appendingPathComponent("movie.mp4").path))
        // An item whose duration is not known is written with -1.
        let unknown = try #require(lines.firstIndex(of: "http://127.0.0.1:9/never.mp4"))
        #expect(lines[unknown - 1] == "#EXTINF:-1,")
        #expect(try await fixture.get("/api/queues/q-999/export.m3u8").status == 404)
    }

    @Test func validateReportsDiagnosticsLeniently_andStrictlyOnRequest() async throws {
        let fixture = try await RouterFixture()
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.5,\na.ts\n#EXT-X-ENDLIST\n"
        let lenient = try await fixture.send(.post, "/api/validate", body: Array(text.utf8), headers: ["Content-Type": "text/plain"])
        #expect(lenient.status == 200)
        #expect(lenient.json["kind"] as? String == "media")
        let diagnostics = try #require(lenient.json["diagnostics"] as? [[String: Any]])
        #expect(!diagnostics.isEmpty)
        #expect(diagnostics.allSatisfy { $0["line"] as? Int != nil && $0["rule"] as? String != nil && $0["severity"] as? String != nil })
        let strict = try await fixture.send(.post, "/api/validate?strict=1", body: Array(text.utf8), headers: ["Content-Type": "text/plain"])
        #expect(strict.json["valid"] as? Bool == false)
        let json = try await fixture.post("/api/validate", ##"{"text": "#EXTM3U\nhttp://a/b.mp4\n", "strict": true}"##)
        #expect(json.json["valid"] as? Bool == true)
        #expect(json.json["kind"] as? String == "m3u")
    }

    // MARK: - Metrics

    @Test func metricsCountQueuesItemsRequestsAndStreams() async throws {
        let fixture = try await RouterFixture()
        let queue = try await fixture.createQueue()
        _ = try await fixture.addItem(queue, url: "http://127.0.0.1:9/a.mp4")
        _ = try await fixture.get("/api/queues/q-999")
        let stream = try await fixture.get("/api/events")
        let metrics = try await fixture.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        let lines = Set(metrics.text.split(separator: "\n").map(String.init))
        #expect(lines.contains("hlsq_queues 1"))
        #expect(lines.contains("# TYPE hlsq_http_requests_total counter"))
        #expect(lines.contains(#"hlsq_http_requests_total{route="/api/queues/{id}",status="404"} 1"#))
        #expect(lines.contains(#"hlsq_http_requests_total{route="/api/queues",status="201"} 1"#))
        #expect(lines.contains("hlsq_sse_clients 1"))
        for family in ["hlsq_items", "hlsq_stalls_total", "hlsq_bytes_transferred_total", "hlsq_live_playlist_age_seconds", "hlsq_live_stale", "hlsq_events_total"] {
            #expect(lines.contains { $0.hasPrefix("# TYPE \(family) ") }, "\(family)")
        }
        let itemLines = lines.filter { $0.hasPrefix("hlsq_items{") }
        #expect(itemLines.count == 4)
        if case .stream(let body) = stream.response.body { body.finish() }
    }
}
