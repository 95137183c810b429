import MicroHTTPD

/// Where a request goes, from its decoded path components alone (docs/API.md lists them).
///
/// Identifiers stay raw text here; the handlers parse them and answer 404 for an id that
/// names nothing. Paths outside `/api/`, `/media/`, `/demo/` and `/metrics` are files of the
/// dashboard (`--public`): `/` is its `index.html`.
enum Route: Equatable, Sendable {
    case health
    case queues
    case queue(String)
    case items(queue: String)
    case item(queue: String, item: String)
    case moveItem(queue: String, item: String)
    case importPlaylist(queue: String)
    case exportPlaylist(queue: String)
    case commands(queue: String)
    case validate
    case events
    case metrics
    case demoLive
    /// A file of the sample media folder, by its components below `/media/`.
    case media([String])
    /// A file of the dashboard, by its components (`["index.html"]` for `/`).
    case publicFile([String])

    /// The route for `components`, or nil when no route has that shape (404).
    init?(components: [String]) {
        switch components.first {
        case "api":
            guard let route = Self.apiRoute(Array(components.dropFirst())) else { return nil }
            self = route
        case "media":
            self = .media(Array(components.dropFirst()))
        case "demo":
            guard components == ["demo", "live.m3u8"] else { return nil }
            self = .demoLive
        case "metrics":
            guard components.count == 1 else { return nil }
            self = .metrics
        case nil:
            self = .publicFile(["index.html"])
        default:
            self = .publicFile(components)
        }
    }

    private static func apiRoute(_ path: [String]) -> Route? {
        switch path.count {
        case 1:
            switch path[0] {
            case "health": return .health
            case "queues": return .queues
            case "validate": return .validate
            case "events": return .events
            default: return nil
            }
        case 2 where path[0] == "queues":
            return .queue(path[1])
        case 3 where path[0] == "queues":
            switch path[2] {
            case "items": return .items(queue: path[1])
            case "import": return .importPlaylist(queue: path[1])
            case "export.m3u8": return .exportPlaylist(queue: path[1])
            case "commands": return .commands(queue: path[1])
            default: return nil
            }
        case 4 where path[0] == "queues" && path[2] == "items":
            return .item(queue: path[1], item: path[3])
        case 5 where path[0] == "queues" && path[2] == "items" && path[4] == "move":
            return .moveItem(queue: path[1], item: path[3])
        default:
            return nil
        }
    }

    /// The methods the route answers; any other gets 405 with this list in `Allow`.
    var allowedMethods: [HTTPMethod] {
        switch self {
        case .health, .exportPlaylist, .events, .metrics, .demoLive, .media, .publicFile: [.get, .head]
        case .queues: [.get, .head, .post]
        case .queue, .item: [.get, .head, .patch, .delete]
        case .items, .moveItem, .importPlaylist, .commands, .validate: [.post]
        }
    }

    /// The route as metrics label it: a template without the ids, so that the number of
    /// label values stays bounded.
    var template: String {
        switch self {
        case .health: "/api/health"
        case .queues: "/api/queues"
        case .queue: "/api/queues/{id}"
        case .items: "/api/queues/{id}/items"
        case .item: "/api/queues/{id}/items/{itemId}"
        case .moveItem: "/api/queues/{id}/items/{itemId}/move"
        case .importPlaylist: "/api/queues/{id}/import"
        case .exportPlaylist: "/api/queues/{id}/export.m3u8"
        case .commands: "/api/queues/{id}/commands"
        case .validate: "/api/validate"
        case .events: "/api/events"
        case .metrics: "/metrics"
        case .demoLive: "/demo/live.m3u8"
        case .media: "/media/"
        case .publicFile: "/"
        }
    }

    /// Whether the route is part of the API under `/api/` (token rules apply).
    var isAPI: Bool {
        switch self {
        case .metrics, .demoLive, .media, .publicFile: false
        default: true
        }
    }
}
