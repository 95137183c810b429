import Engine
import MediaTime
import MicroHTTPD

// GET/POST /api/queues, GET/PATCH/DELETE /api/queues/{id}.

extension Router {
    static let settingsMembers: Set<String> = [
        "actionAtItemEnd", "consume", "loop", "defaultRate", "automaticallyWaitsToMinimizeStalling",
    ]

    func listQueues() async throws(APIError) -> HTTPResponse {
        let queues = try await call { engine throws(EngineError) in try await engine.queues() }
        return JSONBody.response(capacity: 128 * queues.count + 32) { json in
            json.beginObject()
            json.key("queues")
            json.beginArray()
            for queue in queues { json.queueSummary(queue) }
            json.endArray()
            json.endObject()
        }
    }

    func createQueue(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let body = try RequestBody.jsonObject(request, allowed: ["name", "settings"])
        guard let name = try body.string("name") else { throw .validationFailed(field: "name", "a queue needs a name") }
        var settings = QueueSettings()
        if let given = try body.object("settings", allowed: Self.settingsMembers) {
            let changes = try Self.queueChanges(given)
            settings.actionAtItemEnd = changes.actionAtItemEnd ?? settings.actionAtItemEnd
            settings.consume = changes.consume ?? settings.consume
            settings.loopMode = changes.loopMode ?? settings.loopMode
            settings.defaultRate = changes.defaultRate ?? settings.defaultRate
            settings.automaticallyWaitsToMinimizeStalling = changes.automaticallyWaitsToMinimizeStalling
                ?? settings.automaticallyWaitsToMinimizeStalling
        }
        let queue: QueueState
        do {
            queue = try await engine.createQueue(name: name, settings: settings)
        } catch {
            var refusal = APIError(error)
            // The settings arrive nested: name the member where the client wrote it.
            if let field = refusal.field, field != "name" { refusal.field = "settings." + field }
            throw refusal
        }
        return snapshotResponse(queue, status: .created, headers: ["Location": "/api/queues/\(queue.id)"])
    }

    func queueSnapshot(_ id: QueueID) async throws(APIError) -> HTTPResponse {
        if let cached = snapshots.json(for: id) { return JSONBody.response(shared: cached) }
        let queue = try await call { engine throws(EngineError) in try await engine.queue(id) }
        return snapshotResponse(queue)
    }

    func updateQueue(_ id: QueueID, _ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let body = try RequestBody.jsonObject(request, allowed: Self.settingsMembers.union(["name"]))
        var changes = try Self.queueChanges(body)
        changes.name = try body.string("name")
        let queue = try await call { engine throws(EngineError) in try await engine.updateQueue(id, changes) }
        return snapshotResponse(queue)
    }

    func deleteQueue(_ id: QueueID) async throws(APIError) -> HTTPResponse {
        try await call { engine throws(EngineError) in try await engine.deleteQueue(id) }
        snapshots.remove(id)
        return HTTPResponse(status: .noContent)
    }

    /// A snapshot answer; the encoding of a whole one (every item listed, no seek id) is kept
    /// for later reads of the same queue.
    func snapshotResponse(
        _ queue: QueueState, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), seekID: SeekID? = nil
    ) -> HTTPResponse {
        var json = JSONWriter(reservingCapacity: 512 + 400 * (queue.items.count + queue.history.count))
        json.queueSnapshot(queue, seekID: seekID)
        // A mutation's answer lists only the first items of a long queue: never an answer
        // to GET /api/queues/{id}.
        guard seekID == nil, queue.items.count == queue.itemCount else {
            return JSONBody.response(json.bytes, status: status, headers: headers)
        }
        let shared = SharedBytes(json.bytes)
        snapshots.store(shared, for: queue.id, at: queue.lastEventID)
        return JSONBody.response(shared: shared, status: status, headers: headers)
    }

    // MARK: - Reading settings

    /// The settings members of a body (PATCH) or of `settings` (POST).
    static func queueChanges(_ body: JSONFields) throws(APIError) -> QueueChanges {
        var changes = QueueChanges()
        if let action = try body.string("actionAtItemEnd") {
            guard let value = ActionAtItemEnd(rawValue: action) else {
                throw .validationFailed(
                    field: body.path + "actionAtItemEnd", "actionAtItemEnd is advance, pause or none, not \"\(action)\"")
            }
            changes.actionAtItemEnd = value
        }
        changes.consume = try body.bool("consume")
        if let loop = try body.object("loop", allowed: ["mode", "plays", "range"]) {
            changes.loopMode = try loopMode(loop)
        }
        changes.defaultRate = try body.number("defaultRate")
        changes.automaticallyWaitsToMinimizeStalling = try body.bool("automaticallyWaitsToMinimizeStalling")
        return changes
    }

    /// `{"mode": "off"}`, `{"mode": "queue"}` or `{"mode": "item", "plays"?, "range"?}`.
    static func loopMode(_ loop: JSONFields) throws(APIError) -> LoopMode {
        let mode = try loop.string("mode")
        switch mode {
        case "off", "queue":
            if let extra = ["plays", "range"].first(where: loop.contains) {
                throw .validationFailed(field: loop.path + extra, "\(extra) applies only to the loop mode \"item\"")
            }
            return mode == "off" ? .off : .queue
        case "item":
            return .item(try itemLoop(loop))
        default:
            throw .validationFailed(
                field: loop.path + "mode", "the loop mode is off, queue or item, not \(mode.map { "\"\($0)\"" } ?? "missing")")
        }
    }

    /// `plays` (a count of at least 1, or null for forever) and `range` (`{start, end}` or
    /// null for the whole item).
    static func itemLoop(_ loop: JSONFields) throws(APIError) -> ItemLoop {
        let plays = try loop.nullableInteger("plays") ?? nil
        if let plays, plays < 1 {
            throw .validationFailed(field: loop.path + "plays", "plays is at least 1, or null to loop forever")
        }
        var timeRange: TimeRange?
        if let range = try loop.nullableObject("range", allowed: ["start", "end"]) ?? nil {
            timeRange = try Self.timeRange(range)
        }
        return ItemLoop(plays: plays, timeRange: timeRange)
    }

    /// `{start, end}` in seconds, with `0 <= start < end`.
    static func timeRange(_ range: JSONFields) throws(APIError) -> TimeRange {
        guard let start = try range.number("start"), let end = try range.number("end") else {
            throw .validationFailed(field: String(range.path.dropLast()), "a range needs start and end, in seconds")
        }
        guard start >= 0, end > start else {
            throw .validationFailed(field: String(range.path.dropLast()), "a range needs 0 <= start < end")
        }
        return TimeRange(start: Self.time(start), end: Self.time(end))
    }

    /// Seconds from a request, kept to the microsecond.
    static func time(_ seconds: Double) -> MediaTime {
        MediaTime(seconds: seconds, timescale: 1_000_000)
    }
}
