import Foundation
import MicroHTTPD
import Testing

@testable import Server

/// A folder tree for one test: `root/` with files, a secret beside it, and symbolic links
/// that lead out of the root and within it.
final class FileTree {
    let base: URL
    let root: URL

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-files-\(UUID().uuidString)")
        root = base.appendingPathComponent("root")
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("app"), withIntermediateDirectories: true)
        try Data("<!doctype html><title>hlsq</title>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("export const answer = 42;\n".utf8).write(to: root.appendingPathComponent("app/main.js"))
        try Data("0123456789".utf8).write(to: root.appendingPathComponent("digits.ts"))
        try Data("#EXTM3U\n".utf8).write(to: root.appendingPathComponent("list.m3u8"))
        try Data("hidden".utf8).write(to: root.appendingPathComponent(".env"))
        try Data("a literal name".utf8).write(to: root.appendingPathComponent("%2e%2e"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try manager.createSymbolicLink(
            at: root.appendingPathComponent("escape.txt"), withDestinationURL: base.appendingPathComponent("secret.txt"))
        try manager.createSymbolicLink(at: root.appendingPathComponent("outside"), withDestinationURL: base)
        try manager.createSymbolicLink(
            at: root.appendingPathComponent("alias.js"), withDestinationURL: root.appendingPathComponent("app/main.js"))
    }

    deinit {
        try? FileManager.default.removeItem(at: base)
    }
}

@Suite struct FileResponderTests {
    let tree: FileTree
    let responder: FileResponder

    init() throws {
        tree = try FileTree()
        let files = try #require(ContainedPath(root: tree.root.path))
        responder = FileResponder(files: files, cachePolicy: .media, allowsRanges: true)
    }

    func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) throws -> HTTPResponse? {
        let parsed = try HTTPRequestTarget(parsing: target)
        let request = HTTPRequest(method: .get, target: parsed, headers: headers)
        return responder.respond(to: request, components: parsed.pathComponents)
    }

    static func body(_ response: HTTPResponse?) -> String? {
        guard case .bytes(let bytes) = response?.body else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [
        "/../secret.txt", "/app/../../secret.txt", "/%2e%2e/secret.txt", "/..%2Fsecret.txt", "/app%2F..%2F..%2Fsecret.txt",
        "//etc/passwd", "/%2Fetc%2Fpasswd", "http://evil/../secret.txt", "/escape.txt", "/outside/secret.txt",
        "/.env", "/./index.html", "/app/", "/app", "/missing.html", "/index.html%00.txt",
    ])
    func nothingOutsideTheRootOrHiddenIsServed(target: String) throws {
        #expect(try get(target) == nil)
    }

    @Test func aDoubleEncodedDotDotIsJustAName() throws {
        // %252e%252e decodes once to the literal name "%2e%2e", a file in the root.
        #expect(Self.body(try get("/%252e%252e")) == "a literal name")
        #expect(try get("/%252e%252e/secret.txt") == nil)
    }

    @Test func linksInsideTheRootAreFollowed() throws {
        #expect(Self.body(try get("/alias.js")) == "export const answer = 42;\n")
    }

    @Test(arguments: [
        ("/index.html", "text/html; charset=utf-8", "public, max-age=3600"),
        ("/app/main.js", "text/javascript; charset=utf-8", "public, max-age=3600"),
        ("/digits.ts", "video/mp2t", "public, max-age=3600"),
        ("/list.m3u8", "application/vnd.apple.mpegurl", "no-cache"),
    ])
    func answersCarryTypeTagAndCachePolicy(target: String, type: String, cacheControl: String) throws {
        let response = try #require(try get(target))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == type)
        #expect(response.headers["Cache-Control"] == cacheControl)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["ETag"]?.hasPrefix("\"") == true)
    }

    @Test func aMatchingEntityTagAnswers304AndAChangedFileANewTag() throws {
        let first = try #require(try get("/app/main.js"))
        let tag = try #require(first.headers["ETag"])
        let revalidated = try #require(try get("/app/main.js", headers: ["If-None-Match": "\"other\", W/\(tag)"]))
        #expect(revalidated.status == .notModified)
        #expect(Self.body(revalidated) == "")
        #expect(revalidated.headers["ETag"] == tag)
        #expect(try get("/app/main.js", headers: ["If-None-Match": "*"])?.status == .notModified)

        try Data("export const answer = 43;\n".utf8).write(to: tree.root.appendingPathComponent("app/main.js"))
        let changed = try #require(try get("/app/main.js", headers: ["If-None-Match": tag]))
        #expect(changed.status == .ok)
        #expect(changed.headers["ETag"] != tag)
        #expect(Self.body(changed) == "export const answer = 43;\n")
    }

    @Test(arguments: [
        ("bytes=2-4", 206, "234", "bytes 2-4/10"),
        ("bytes=7-", 206, "789", "bytes 7-9/10"),
        ("bytes=-3", 206, "789", "bytes 7-9/10"),
        ("bytes=5-100", 206, "56789", "bytes 5-9/10"),
        ("bytes=-100", 206, "0123456789", "bytes 0-9/10"),
        ("bytes=10-", 416, nil, "bytes */10"),
        ("bytes=-0", 416, nil, "bytes */10"),
        ("bytes=0-1,3-4", 200, "0123456789", nil),
        ("bytes=4-2", 200, "0123456789", nil),
        ("items=0-1", 200, "0123456789", nil),
        ("bytes=x-1", 200, "0123456789", nil),
    ] as [(String, Int, String?, String?)])
    func singleRangesAreServed(range: String, status: Int, body: String?, contentRange: String?) throws {
        let response = try #require(try get("/digits.ts", headers: ["Range": range]))
        #expect(response.status.code == status)
        if let body { #expect(Self.body(response) == body) }
        #expect(response.headers["Content-Range"] == contentRange)
        #expect(response.headers["Accept-Ranges"] == "bytes")
    }

    @Test func aStaleIfRangeGetsTheWholeFile() throws {
        let response = try #require(try get("/digits.ts", headers: ["Range": "bytes=0-1", "If-Range": "\"old\""]))
        #expect(response.status == .ok)
        #expect(Self.body(response) == "0123456789")
    }

    @Test func rangesAreIgnoredWhereNotAllowed() throws {
        let files = try #require(ContainedPath(root: tree.root.path))
        let dashboard = FileResponder(files: files, cachePolicy: .revalidate, allowsRanges: false)
        let target = try HTTPRequestTarget(parsing: "/digits.ts")
        let response = try #require(dashboard.respond(
            to: HTTPRequest(method: .get, target: target, headers: ["Range": "bytes=0-1"]), components: target.pathComponents))
        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["Accept-Ranges"] == nil)
    }
}
