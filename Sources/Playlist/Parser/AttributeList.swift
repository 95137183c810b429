import MediaTime

/// An attribute list (RFC 8216bis §4.2) split into names and values, as byte offsets, with
/// typed readers that report wrong values. Each reader marks its attribute as used, so that
/// ``remaining(_:)`` returns the attributes the model has no field for.
struct AttributeList {
    struct Entry {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
        var isQuoted: Bool
        var isUsed = false
    }

    var entries: [Entry] = []
    let line: Line

    init(line: Line) {
        self.line = line
    }
}

extension ParserCore {
    /// Splits `line[start..<line.end]` into attributes. Reports malformed syntax (and keeps
    /// what was read before it) and duplicate names (the first one wins).
    mutating func attributeList(_ line: Line, from start: Int) -> AttributeList {
        var list = AttributeList(line: line)
        var index = start
        let end = line.end
        while index < end {
            let nameStart = index
            while index < end, bytes[index] != UInt8(ascii: "=") && bytes[index] != UInt8(ascii: ",") {
                let byte = bytes[index]
                let isNameByte = (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                guard isNameByte else {
                    report(.malformedAttributeList, line: line.number, column: column(line, index),
                           "an attribute name may only hold A-Z, 0-9 and '-'")
                    return list
                }
                index += 1
            }
            guard index < end, bytes[index] == UInt8(ascii: "="), index > nameStart else {
                report(.malformedAttributeList, line: line.number, column: column(line, nameStart),
                       "expected NAME=VALUE in the attribute list")
                return list
            }
            let nameEnd = index
            index += 1
            let valueStart: Int
            let valueEnd: Int
            var isQuoted = false
            if index < end, bytes[index] == UInt8(ascii: "\"") {
                isQuoted = true
                valueStart = index + 1
                var closing = valueStart
                while closing < end, bytes[closing] != UInt8(ascii: "\"") { closing += 1 }
                guard closing < end else {
                    report(.malformedAttributeList, line: line.number, column: column(line, index),
                           "the quoted string has no closing quote")
                    return list
                }
                valueEnd = closing
                index = closing + 1
            } else {
                valueStart = index
                while index < end, bytes[index] != UInt8(ascii: ",") {
                    let byte = bytes[index]
                    guard byte != UInt8(ascii: "\"") && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") else {
                        report(.malformedAttributeList, line: line.number, column: column(line, index),
                               "an unquoted attribute value may not hold quotes or whitespace")
                        return list
                    }
                    index += 1
                }
                valueEnd = index
                if valueEnd == valueStart {
                    report(.malformedAttributeList, line: line.number, column: column(line, valueStart),
                           "the attribute \(string(nameStart, nameEnd)) has an empty value")
                }
            }
            let entry = AttributeList.Entry(nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart,
                                            valueEnd: valueEnd, isQuoted: isQuoted)
            if list.entries.contains(where: { slice($0.nameStart, $0.nameEnd).elementsEqual(slice(nameStart, nameEnd)) }) {
                report(.duplicateAttribute, line: line.number, column: column(line, nameStart),
                       "the attribute \(string(nameStart, nameEnd)) appears more than once")
            } else {
                list.entries.append(entry)
            }
            if index < end {
                guard bytes[index] == UInt8(ascii: ",") else {
                    report(.malformedAttributeList, line: line.number, column: column(line, index),
                           "expected a comma between attributes")
                    return list
                }
                index += 1
                if index == end {
                    report(.malformedAttributeList, line: line.number, column: column(line, index - 1),
                           "the attribute list ends with a comma")
                }
            }
        }
        return list
    }

    /// The index of attribute `name`, marked used.
    func find(_ list: inout AttributeList, _ name: String) -> Int? {
        for index in list.entries.indices where equals(list.entries[index].nameStart, list.entries[index].nameEnd, name) {
            list.entries[index].isUsed = true
            return index
        }
        return nil
    }

    func has(_ list: AttributeList, _ name: String) -> Bool {
        list.entries.contains { equals($0.nameStart, $0.nameEnd, name) }
    }

    mutating func reportValue(_ list: AttributeList, _ entry: AttributeList.Entry, _ expected: String) {
        report(.invalidAttributeValue, line: list.line.number, column: column(list.line, entry.nameStart),
               "\(string(entry.nameStart, entry.nameEnd)) must be \(expected)")
    }

    /// A quoted-string attribute, variables substituted.
    mutating func quoted(_ list: inout AttributeList, _ name: String) -> String? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        guard entry.isQuoted else {
            reportValue(list, entry, "a quoted string")
            return string(entry.valueStart, entry.valueEnd)
        }
        return substituted(entry.valueStart, entry.valueEnd, line: list.line)
    }

    /// An enumerated-string attribute (unquoted), as written.
    mutating func enumerated(_ list: inout AttributeList, _ name: String) -> String? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        if entry.isQuoted { reportValue(list, entry, "an unquoted enumerated string") }
        return string(entry.valueStart, entry.valueEnd)
    }

    /// An enumerated string that must be one of `allowed`; others are reported and returned.
    mutating func enumerated(_ list: inout AttributeList, _ name: String, allowed: [String]) -> String? {
        guard let value = enumerated(&list, name) else { return nil }
        if !allowed.contains(value), let index = list.entries.firstIndex(where: { equals($0.nameStart, $0.nameEnd, name) }) {
            report(.unknownEnumeratedValue, line: list.line.number, column: column(list.line, list.entries[index].valueStart),
                   "\(name)=\(value) is not one of \(allowed.joined(separator: ", "))")
        }
        return value
    }

    /// `YES` or `NO`; nil when absent.
    mutating func yesNo(_ list: inout AttributeList, _ name: String) -> Bool? {
        enumerated(&list, name, allowed: ["YES", "NO"]).map { $0 == "YES" }
    }

    mutating func integer(_ list: inout AttributeList, _ name: String) -> Int? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        guard !entry.isQuoted, let value = integer(entry.valueStart, entry.valueEnd) else {
            reportValue(list, entry, "a decimal integer")
            return nil
        }
        return value
    }

    /// A decimal-floating-point or signed-decimal-floating-point value, as exact time.
    mutating func decimalTime(_ list: inout AttributeList, _ name: String, signed: Bool = false) -> MediaTime? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        guard !entry.isQuoted, let value = decimal(entry.valueStart, entry.valueEnd),
              signed || bytes[entry.valueStart] != UInt8(ascii: "-") else {
            reportValue(list, entry, signed ? "a signed decimal number" : "a non-negative decimal number")
            return nil
        }
        return value
    }

    mutating func double(_ list: inout AttributeList, _ name: String) -> Double? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        guard !entry.isQuoted, decimal(entry.valueStart, entry.valueEnd) != nil,
              let value = Double(string(entry.valueStart, entry.valueEnd)) else {
            reportValue(list, entry, "a decimal number")
            return nil
        }
        return value
    }

    /// A hexadecimal-sequence (`0x…`), as written.
    mutating func hexadecimal(_ list: inout AttributeList, _ name: String) -> String? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        let text = string(entry.valueStart, entry.valueEnd)
        let digits = text.utf8.dropFirst(2)
        guard !entry.isQuoted, text.hasPrefix("0x") || text.hasPrefix("0X"), !digits.isEmpty,
              digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 | 0x20 })
        else {
            reportValue(list, entry, "a hexadecimal sequence (0x…)")
            return text
        }
        return text
    }

    mutating func resolution(_ list: inout AttributeList, _ name: String) -> Resolution? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        var separator = entry.valueStart
        while separator < entry.valueEnd, bytes[separator] | 0x20 != UInt8(ascii: "x") { separator += 1 }
        guard !entry.isQuoted, let width = integer(entry.valueStart, separator),
              let height = integer(separator + 1, entry.valueEnd) else {
            reportValue(list, entry, "a resolution WIDTHxHEIGHT")
            return nil
        }
        return Resolution(width: width, height: height)
    }

    /// A quoted `length[@offset]` (the `BYTERANGE` attribute of `EXT-X-MAP` and `EXT-X-PART`).
    mutating func byteRange(_ list: inout AttributeList, _ name: String) -> (length: Int, offset: Int?)? {
        guard let index = find(&list, name) else { return nil }
        let entry = list.entries[index]
        guard entry.isQuoted, let range = byteRange(entry.valueStart, entry.valueEnd) else {
            reportValue(list, entry, "a quoted byte range \"length[@offset]\"")
            return nil
        }
        return range
    }

    /// `length[@offset]`.
    func byteRange(_ start: Int, _ end: Int) -> (length: Int, offset: Int?)? {
        let at = find(UInt8(ascii: "@"), from: start, end: end)
        guard let length = integer(start, at) else { return nil }
        guard at < end else { return (length, nil) }
        guard let offset = integer(at + 1, end) else { return nil }
        return (length, offset)
    }

    /// The attributes no reader asked for, as written, in order.
    func remaining(_ list: AttributeList) -> [Attribute] {
        list.entries.filter { !$0.isUsed }.map { entry in
            let valueText = string(entry.valueStart, entry.valueEnd)
            return Attribute(name: string(entry.nameStart, entry.nameEnd),
                             rawValue: entry.isQuoted ? "\"\(valueText)\"" : valueText)
        }
    }

    /// Reports a required attribute that is missing.
    mutating func requireAttribute(_ list: AttributeList, _ name: String, of tag: String) {
        if !has(list, name) {
            report(.missingAttribute, line: list.line.number, "\(tag) requires the attribute \(name)")
        }
    }
}
