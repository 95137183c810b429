import MicroHTTPD
import Testing

@Suite struct HTTPRequestTargetTests {
    @Test(arguments: [
        ("/", "/", [String](), nil as String?),
        ("/api/queues", "/api/queues", ["api", "queues"], nil),
        ("/api/queues/", "/api/queues/", ["api", "queues", ""], nil),
        ("/a//b", "/a//b", ["a", "", "b"], nil),
        ("/media/My%20Song.mp3", "/media/My%20Song.mp3", ["media", "My Song.mp3"], nil),
        ("/a%2Fb/c", "/a%2Fb/c", ["a/b", "c"], nil),
        ("/static/..%2F..%2Fetc", "/static/..%2F..%2Fetc", ["static", "../../etc"], nil),
        ("/static/%252e%252e", "/static/%252e%252e", ["static", "%2e%2e"], nil),
        ("/plus+stays", "/plus+stays", ["plus+stays"], nil),
        ("/caf%C3%A9", "/caf%C3%A9", ["café"], nil),
        ("/events?queue=7", "/events", ["events"], "queue=7"),
        ("/x?", "/x", ["x"], ""),
        ("/x?a=1#fragment", "/x", ["x"], "a=1"),
        ("*", "*", [], nil),
        ("http://example.com/p/q?z", "/p/q", ["p", "q"], "z"),
        ("http://example.com", "/", [], nil),
    ])
    func pathAndQuery(target: String, path: String, components: [String], query: String?) throws {
        let parsed = try HTTPRequestTarget(parsing: target)
        #expect(parsed.path == path)
        #expect(parsed.pathComponents == components)
        #expect(parsed.query == query)
    }

    @Test func queryItemsAreDecodedAsFormData() throws {
        let parsed = try HTTPRequestTarget(parsing: "/search?q=a+b%2Bc&empty=&flag&q=%E2%9C%93&&x=1=2")
        #expect(parsed.queryItems == [
            .init(name: "q", value: "a b+c"),
            .init(name: "empty", value: ""),
            .init(name: "flag", value: ""),
            .init(name: "q", value: "✓"),
            .init(name: "x", value: "1=2"),
        ])
        #expect(parsed.queryValue("q") == "a b+c")
        #expect(parsed.queryValue("missing") == nil)
    }

    @Test(arguments: [
        ("/bad%zz", HTTPRequestTargetError.Code.invalidPercentEscape),
        ("/truncated%4", .invalidPercentEscape),
        ("/end%", .invalidPercentEscape),
        ("/ok?q=%G0", .invalidPercentEscape),
        ("/latin1%E9", .invalidUTF8),
        ("/x?name=%FF", .invalidUTF8),
        ("relative/path", .notAPath),
        ("", .notAPath),
        ("://nohost/x", .notAPath),
    ])
    func malformedTargetsAreRejected(target: String, code: HTTPRequestTargetError.Code) {
        #expect {
            try HTTPRequestTarget(parsing: target)
        } throws: { error in
            guard let error = error as? HTTPRequestTargetError else { return false }
            return error.code == code && error.target == target && error.description.contains(target.debugDescription)
        }
    }
}

@Suite struct HTTPHeadersTests {
    @Test func namesCompareCaseInsensitively() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-Tag": "a"]
        headers.add(name: "x-tag", value: "b")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.values(for: "X-TAG") == ["a", "b"])
        #expect(headers.contains("x-Tag"))
        #expect(!headers.contains("X-Ta"))
        headers.set(name: "X-TAG", value: "c")
        #expect(headers.values(for: "x-tag") == ["c"])
        headers.remove(name: "content-type")
        #expect(headers["Content-Type"] == nil)
        #expect(headers.map(\.name) == ["X-TAG"])
    }
}
