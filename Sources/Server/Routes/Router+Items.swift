import Engine
import MediaTime
import MicroHTTPD

// POST /api/queues/{id}/items, GET/PATCH/DELETE …/items/{itemId}, POST …/items/{itemId}/move.

extension Router {
    func addItem(_ queue: QueueID, _ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let body = try RequestBody.jsonObject(request, allowed: ["url", "title", "after", "index"])
        guard let url = try body.string("url") else { throw .validationFailed(field: "url", "an item needs a url") }
        let title = try body.string("title")
        let position = try Self.position(body)
        if let refusal = mediaRoots.refusal(for: url) { throw .validationFailed(field: "url", refusal) }
        let item = try await call { engine throws(EngineError) in
            try await engine.addItem(NewItem(url: url, title: title), to: queue, at: position)
        }
        return JSONBody.response(status: .created, headers: ["Location": "/api/queues/\(queue)/items/\(item.id.rawValue)"]) { json in
            json.item(item)
        }
    }

    func itemDetails(_ item: ItemID, in queue: QueueID) async throws(APIError) -> HTTPResponse {
        let state = try await call { engine throws(EngineError) in try await engine.item(item, in: queue) }
        return JSONBody.response(capacity: 2048) { $0.item(state) }
    }

    func updateItem(_ item: ItemID, in queue: QueueID, _ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let body = try RequestBody.jsonObject(request, allowed: ["title", "preferences", "selectedMedia", "loop"])
        var changes = ItemChanges()
        changes.title = try body.nullableString("title")
        if let preferences = try body.object("preferences", allowed: [
            "preferredForwardBufferDuration", "preferredPeakBitRate", "forwardPlaybackEndTime", "reversePlaybackEndTime",
        ]) {
            // Preferences change member by member: start from the item's own.
            let current = try await call { engine throws(EngineError) in try await engine.item(item, in: queue) }
            changes.preferences = try Self.preferences(preferences, from: current.item.preferences)
        }
        if let selected = try body.object("selectedMedia", allowed: ["audible", "legible"]) {
            var selections: [MediaCharacteristic: MediaSelection] = [:]
            if let audible = try selected.nullableString("audible") {
                selections[.audible] = audible.map(MediaSelection.option) ?? .automatic
            }
            if let legible = try selected.nullableString("legible") {
                selections[.legible] = legible.map(MediaSelection.option) ?? .off
            }
            changes.mediaSelections = selections
        }
        if let loop = try body.nullableObject("loop", allowed: ["plays", "range"]) {
            changes.loop = .some(try loop.map { loop throws(APIError) in try Self.itemLoop(loop) })
        }
        let state = try await call { engine throws(EngineError) in try await engine.updateItem(item, in: queue, changes) }
        return JSONBody.response(capacity: 2048) { $0.item(state) }
    }

    func removeItem(_ item: ItemID, from queue: QueueID) async throws(APIError) -> HTTPResponse {
        try await call { engine throws(EngineError) in try await engine.removeItem(item, from: queue) }
        return HTTPResponse(status: .noContent)
    }

    func moveItem(_ item: ItemID, in queue: QueueID, _ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let body = try RequestBody.jsonObject(request, allowed: ["after", "index"])
        guard body.contains("after") || body.contains("index") else {
            throw .validationFailed(field: "after", "a move needs after (an item id, or null for the end) or index")
        }
        let position = try Self.position(body)
        let state = try await call { engine throws(EngineError) in try await engine.moveItem(item, in: queue, to: position) }
        return snapshotResponse(state)
    }

    // MARK: - Reading members

    /// `after` (an item id, or null for the end) or `index`, not both; neither is the end.
    static func position(_ body: JSONFields) throws(APIError) -> ItemPosition {
        let after = try body.nullableString("after")
        let index = try body.integer("index")
        switch (after, index) {
        case (.some, .some):
            throw .validationFailed(field: "index", "give after or index, not both")
        case (.some(let anchor), nil):
            return anchor.map { .after(ItemID($0)) } ?? .end
        case (nil, .some(let index)):
            guard index >= 0 else { throw .validationFailed(field: "index", "an index is 0 or more") }
            return .index(index)
        case (nil, nil):
            return .end
        }
    }

    /// Preferences with the given members changed: durations and end times in seconds (end
    /// times may be null for none), the peak bit rate in bits per second (0 for no cap).
    static func preferences(_ body: JSONFields, from current: PlayerItem.Preferences) throws(APIError) -> PlayerItem.Preferences {
        var preferences = current
        if let duration = try body.number("preferredForwardBufferDuration") {
            preferences.preferredForwardBufferDuration = time(duration)
        }
        if let bitRate = try body.number("preferredPeakBitRate") {
            preferences.preferredPeakBitRate = bitRate
        }
        if let end = try body.nullableNumber("forwardPlaybackEndTime") {
            preferences.forwardPlaybackEndTime = end.map(time)
        }
        if let end = try body.nullableNumber("reversePlaybackEndTime") {
            preferences.reversePlaybackEndTime = end.map(time)
        }
        return preferences
    }
}
