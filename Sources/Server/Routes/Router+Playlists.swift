import Engine
import MediaTime
import MicroHTTPD
import Playlist

// POST /api/queues/{id}/import, GET /api/queues/{id}/export.m3u8, POST /api/validate.

extension Router {
    /// The content types a playlist's text may arrive with.
    static let playlistTextTypes: Set<String> = [
        "text/plain", "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/x-mpegurl", "audio/mpegurl",
    ]

    /// A playlist given in a request: its text, or a URL to fetch it from, and the URL its
    /// relative entries resolve against.
    struct PlaylistSource {
        var bytes: [UInt8]?
        var url: String?
        var base: String?
    }

    func importPlaylist(into queue: QueueID, _ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        var source: PlaylistSource
        let position: ItemPosition
        if RequestBody.isJSON(request) {
            let body = try RequestBody.jsonObject(request, allowed: ["url", "text", "base", "after"])
            source = PlaylistSource(bytes: try body.string("text").map { Array($0.utf8) }, url: try body.string("url"),
                                    base: try body.string("base"))
            guard (source.bytes == nil) != (source.url == nil) else {
                throw .validationFailed(field: "url", "give the playlist as url or as text, not both or neither")
            }
            position = try Self.position(JSONFields(.object(body.object.filtered(["after"])), allowed: ["after"]))
        } else {
            source = try Self.playlistText(request)
            position = request.target.queryValue("after").map { .after(ItemID($0)) } ?? .end
        }
        // A queue that does not exist is a 404 before anything is fetched.
        _ = try await call { engine throws(EngineError) in try await engine.queue(queue) }
        if let url = source.url {
            if let refusal = mediaRoots.refusal(for: url) { throw .validationFailed(field: "url", refusal) }
            guard let client = configuration.playlistClient else {
                throw .validationFailed(field: "url", "this server cannot fetch playlists; send the text instead")
            }
            switch await PlaylistFetch.fetch(url, client: client) {
            case .success(let fetched):
                source.bytes = fetched.bytes
                source.base = fetched.url
            case .failure(let failure):
                throw .validationFailed(field: "url", failure.message)
            }
        }
        let parsed = Playlist.parse(bytes: source.bytes ?? [], options: ParseOptions(baseURL: source.base))
        var diagnostics = parsed.diagnostics.map(DiagnosticRecord.init)
        var items: [NewItem] = []
        switch parsed.playlist {
        case .m3u(let list):
            for entry in list.entries {
                let url = entry.url
                if let problem = Self.importProblem(url, roots: mediaRoots) {
                    diagnostics.append(DiagnosticRecord(
                        line: entry.position.line, column: 1, rule: "entrySkipped", severity: "warning",
                        message: "\(problem); the entry was not imported"))
                    continue
                }
                let title = entry.title.flatMap { $0.isEmpty ? nil : $0 } ?? entry.attribute("tvg-name")
                items.append(NewItem(url: url, title: title))
            }
        case .media, .multivariant:
            // An HLS playlist is one stream: it becomes one item, which needs the playlist's URL.
            guard let url = source.url ?? source.base else {
                var refusal = APIError.validationFailed(field: "text", "an HLS playlist is a stream: import it by URL")
                refusal.diagnostics = diagnostics
                throw refusal
            }
            items.append(NewItem(url: url))
        }
        guard !items.isEmpty else {
            var refusal = APIError.validationFailed(
                field: source.url == nil ? "text" : "url", "the playlist has no entry that can be imported")
            refusal.diagnostics = diagnostics
            throw refusal
        }
        let imported = try await call { engine throws(EngineError) in
            try await engine.importItems(items, into: queue, at: position)
        }
        return JSONBody.response(status: .created, capacity: 1024 * imported.count + 256) { json in
            json.beginObject()
            json.member("kind", parsed.playlist.kindName)
            json.key("items")
            json.beginArray()
            for item in imported { json.item(item) }
            json.endArray()
            json.key("diagnostics")
            json.beginArray()
            for diagnostic in diagnostics { diagnostic.write(to: &json) }
            json.endArray()
            json.endObject()
        }
    }

    /// Why an entry's resolved URL cannot become an item, or nil when it can.
    static func importProblem(_ url: String, roots: MediaRoots) -> String? {
        let lowered = url.lowercased()
        let isLocal = url.hasPrefix("/") || lowered.hasPrefix("file:")
        guard isLocal || lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            return url.contains(":")
                ? "\(url.prefix(200)) is not an http, https or file URL"
                : "\(url.prefix(200)) is relative and the playlist has no base URL (give ?base= or import by URL)"
        }
        return roots.refusal(for: url)
    }

    /// A playlist sent as text: the body with `?base=`.
    static func playlistText(_ request: HTTPRequest) throws(APIError) -> PlaylistSource {
        guard let type = RequestBody.mediaType(of: request), playlistTextTypes.contains(type) else {
            throw .unsupportedMediaType(
                request.headers["Content-Type"],
                expected: "application/json or playlist text (\(playlistTextTypes.sorted().joined(separator: ", ")))")
        }
        return PlaylistSource(bytes: request.body, base: request.target.queryValue("base"))
    }

    func exportPlaylist(_ id: QueueID) async throws(APIError) -> HTTPResponse {
        let queue = try await call { engine throws(EngineError) in try await engine.queue(id) }
        var list = M3UPlaylist(title: Self.singleLine(queue.name))
        list.entries = queue.items.map { state in
            let item = state.item
            var entry = M3UEntry(
                uri: Self.absoluteURL(item.url),
                title: Self.singleLine(item.title ?? ""),
                duration: item.duration.isNumeric ? item.duration : nil)
            entry.hasInfo = true
            return entry
        }
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "audio/x-mpegurl; charset=utf-8",
                "Content-Disposition": "attachment; filename=\"\(id).m3u8\"",
                "Cache-Control": "no-store",
            ],
            bytes: PlaylistWriter.bytes(of: list, style: .canonical))
    }

    /// An item's URL as an absolute URL: absolute paths become `file://` URLs.
    static func absoluteURL(_ url: String) -> String {
        guard url.hasPrefix("/") else { return url }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".utf8)
        var encoded = "file://"
        for byte in url.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    /// Text for one line of a playlist: line breaks become spaces.
    static func singleLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    func validate(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        var strict = ["1", "true", "yes"].contains(request.target.queryValue("strict")?.lowercased() ?? "")
        let source: PlaylistSource
        if RequestBody.isJSON(request) {
            let body = try RequestBody.jsonObject(request, allowed: ["text", "base", "strict"])
            guard let text = try body.string("text") else {
                throw .validationFailed(field: "text", "give the playlist's text in \"text\"")
            }
            source = PlaylistSource(bytes: Array(text.utf8), base: try body.string("base"))
            strict = try body.bool("strict") ?? strict
        } else {
            source = try Self.playlistText(request)
        }
        let result = Playlist.parse(
            bytes: source.bytes ?? [], options: ParseOptions(mode: strict ? .strict : .lenient, baseURL: source.base))
        return JSONBody.response { json in
            json.beginObject()
            json.member("valid", result.isValid)
            json.member("kind", result.playlist.kindName)
            json.key("diagnostics")
            json.beginArray()
            for diagnostic in result.diagnostics { DiagnosticRecord(diagnostic).write(to: &json) }
            json.endArray()
            json.endObject()
        }
    }
}

extension DiagnosticRecord {
    init(_ diagnostic: Diagnostic) {
        self.init(
            line: diagnostic.line, column: diagnostic.column, rule: diagnostic.rule.rawValue,
            severity: diagnostic.severity.rawValue, message: diagnostic.message)
    }
}

extension JSONObject {
    /// The members named in `names`, in document order.
    func filtered(_ names: Set<String>) -> JSONObject {
        JSONObject(members.filter { names.contains($0.name) })
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
