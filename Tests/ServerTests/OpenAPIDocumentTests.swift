import Foundation
import MicroHTTPD
import Testing

@testable import Server

/// Public/openapi.json describes every route the router answers, with the same methods, and
/// every reference in it resolves.
@Suite struct OpenAPIDocumentTests {
    /// The document, read afresh (a dictionary of `Any` cannot be shared between tests).
    static var document: [String: Any] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Public/openapi.json")
        guard let data = try? Data(contentsOf: url) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// A path of the document and the components that the router matches for it.
    static let routes: [(path: String, components: [String])] = [
        ("/api/health", ["api", "health"]),
        ("/api/queues", ["api", "queues"]),
        ("/api/queues/{id}", ["api", "queues", "q-1"]),
        ("/api/queues/{id}/items", ["api", "queues", "q-1", "items"]),
        ("/api/queues/{id}/items/{itemId}", ["api", "queues", "q-1", "items", "7"]),
        ("/api/queues/{id}/items/{itemId}/move", ["api", "queues", "q-1", "items", "7", "move"]),
        ("/api/queues/{id}/import", ["api", "queues", "q-1", "import"]),
        ("/api/queues/{id}/export.m3u8", ["api", "queues", "q-1", "export.m3u8"]),
        ("/api/queues/{id}/commands", ["api", "queues", "q-1", "commands"]),
        ("/api/validate", ["api", "validate"]),
        ("/api/events", ["api", "events"]),
        ("/metrics", ["metrics"]),
        ("/demo/live.m3u8", ["demo", "live.m3u8"]),
        ("/media/{path}", ["media", "vod-ts", "index.m3u8"]),
        ("/{path}", ["app", "main.js"]),
    ]

    @Test func itIsOpenAPI31() {
        #expect(Self.document["openapi"] as? String == "3.1.0")
    }

    @Test(arguments: routes.map(\.path))
    func everyRouteIsDocumentedWithItsMethods(path: String) throws {
        let paths = try #require(Self.document["paths"] as? [String: Any])
        let documented = try #require(paths[path] as? [String: Any], "\(path) is not in openapi.json")
        let components = try #require(Self.routes.first { $0.path == path }?.components)
        let route = try #require(Route(components: components))
        let methods = Set(route.allowedMethods.filter { $0 != .head }.map { $0.rawValue.lowercased() })
        let operations = Set(documented.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) })
        #expect(operations == methods, "\(path)")
    }

    @Test func everyReferenceResolves() throws {
        var references: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(Self.document)
        #expect(references.count > 50)
        for reference in Set(references) {
            let parts = reference.split(separator: "/").dropFirst().map(String.init)
            var node: Any? = Self.document
            for part in parts { node = (node as? [String: Any])?[part] }
            #expect(node != nil, "\(reference) does not resolve")
        }
    }
}
