import MediaTime
import Testing

@testable import Server

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" {"a": [1, -2.5e1, true, false, null], "b": {"c": "d\u00e9\n\ud83d\ude00"}} "#)
        let expected = JSONValue.object(JSONObject([
            ("a", .array([.number(1), .number(-25), .bool(true), .bool(false), .null])),
            ("b", .object(JSONObject([("c", .string("dé\n😀"))]))),
        ]))
        #expect(value == expected)
    }

    @Test func keepsMemberOrderAndTellsNullFromAbsent() throws {
        guard case .object(let object) = try JSONParser.parse(#"{"z": null, "a": 1}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object.names == ["z", "a"])
        #expect(object["z"] == .some(.null))
        #expect(object["missing"] == nil)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { text.debugDescription }
    }

    @Test(arguments: [
        Malformed(text: "", line: 1, column: 1, message: "expected a value, found the end of the body"),
        Malformed(text: "{", line: 1, column: 2, message: "expected a member name in double quotes"),
        Malformed(text: "{\"a\":1,}", line: 1, column: 8, message: "expected a member name in double quotes"),
        Malformed(text: "[1,]", line: 1, column: 4, message: "expected a value"),
        Malformed(text: "{'a':1}", line: 1, column: 2, message: "expected a member name in double quotes"),
        Malformed(text: "{\"a\":1}\n x", line: 2, column: 2, message: "unexpected text after the value"),
        Malformed(text: "{\"a\":1,\"a\":2}", line: 1, column: 8, message: "the member \"a\" occurs twice"),
        Malformed(text: "01", line: 1, column: 2, message: "unexpected text after the value"),
        Malformed(text: "1.", line: 1, column: 3, message: "expected a digit after the decimal point"),
        Malformed(text: "NaN", line: 1, column: 1, message: "expected a value"),
        Malformed(text: "1e999", line: 1, column: 1, message: "the number is too large"),
        Malformed(text: "\"a\u{01}\"", line: 1, column: 3, message: "a control character must be escaped in a string"),
        Malformed(text: "\"\\x\"", line: 1, column: 3, message: "an invalid escape sequence"),
        Malformed(text: "\"\\ud800\"", line: 1, column: 8, message: "a high surrogate escape must be followed by a low one"),
        Malformed(text: "\"\\udc00\"", line: 1, column: 8, message: "a low surrogate escape without a high one"),
        Malformed(text: "tru", line: 1, column: 1, message: "expected a value"),
        Malformed(text: "\"open", line: 1, column: 6, message: "a string is not closed"),
    ])
    func malformedDocumentsAreRefusedWithAPosition(_ malformed: Malformed) {
        #expect(throws: JSONParseError(line: malformed.line, column: malformed.column, message: malformed.message)) {
            try JSONParser.parse(malformed.text)
        }
    }

    @Test func invalidUTF8InAStringIsRefused() {
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse([UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")])
        }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        _ = try JSONParser.parse(deep)
        let tooDeep = "[" + deep + "]"
        #expect(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
    }
}

@Suite struct JSONWriterTests {
    @Test func writesCompactJSONWithCommasInPlace() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("name", "a \"quoted\"\n\u{01}é")
        writer.key("list")
        writer.beginArray()
        writer.integer(1)
        writer.number(2.5)
        writer.number(3.0)
        writer.number(Double.nan)
        writer.bool(true)
        writer.null()
        writer.beginObject()
        writer.endObject()
        writer.endArray()
        writer.member("title", nil as String?)
        writer.endObject()
        #expect(writer.isComplete)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"name":"a \"quoted\"\n\u0001é","list":[1,2.5,3,null,true,null,{}],"title":null}"#)
        // What it writes, the parser reads back.
        _ = try JSONParser.parse(writer.bytes)
    }

    @Test(arguments: [
        (MediaTime(value: 25, timescale: 2), "12.5"),
        (MediaTime(value: 2_020_133, timescale: 1_000_000), "2.020133"),
        (MediaTime(value: 1, timescale: 3), "0.333333"),
        (MediaTime(value: 2, timescale: 3), "0.666667"),
        (MediaTime(value: -3, timescale: 2), "-1.5"),
        (MediaTime(value: 1, timescale: 100_000), "0.00001"),
        (MediaTime(value: 1, timescale: 100_000_000), "0"),
        (MediaTime.zero, "0"),
        (MediaTime(seconds: 7200), "7200"),
        (MediaTime.indefinite, "\"indefinite\""),
        (MediaTime.invalid, "null"),
    ])
    func timesAreExactSecondsRoundedToTheMicrosecond(time: MediaTime, expected: String) {
        var writer = JSONWriter()
        writer.seconds(time)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }
}
