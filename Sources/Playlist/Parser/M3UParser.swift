import MediaTime

/// Reads an extended M3U list or a plain list of URLs. Only the syntax is checked.
struct M3UParser {
    var core: ParserCore
    var playlist = M3UPlaylist()

    private var pendingInfo: (duration: MediaTime?, title: String?, attributes: [Attribute])?
    private var pendingLines: [PreservedLine] = []
    private var group: String?

    init(core: ParserCore) {
        self.core = core
        playlist.base = core.base
    }

    mutating func parse() -> M3UPlaylist {
        let saved = (core.offset, core.lineNumber)
        if let first = core.nextLine(), core.hasPrefix("#EXTM3U", at: first.start, end: first.end) {
            playlist.hasHeader = true
            var index = first.start + 7
            playlist.headerAttributes = readAttributes(first, &index, stopAtComma: false)
        } else {
            playlist.hasHeader = false
            (core.offset, core.lineNumber) = saved
        }
        while let line = core.nextLine() {
            if line.start == line.end { continue }
            if core.bytes[line.start] != UInt8(ascii: "#") {
                appendEntry(line)
            } else if core.hasPrefix("#EXTINF:", at: line.start, end: line.end) {
                readInfo(line)
            } else if core.hasPrefix("#EXTGRP:", at: line.start, end: line.end) {
                group = core.string(line.start + 8, line.end)
            } else if core.hasPrefix("#PLAYLIST:", at: line.start, end: line.end) {
                playlist.title = core.string(line.start + 10, line.end)
            } else {
                pendingLines.append(core.preserved(line))
            }
        }
        playlist.trailingLines = pendingLines
        return playlist
    }

    /// `#EXTINF:<duration> [attributes],<title>`.
    private mutating func readInfo(_ line: Line) {
        var index = line.start + 8
        let durationStart = index
        while index < line.end, core.bytes[index] != UInt8(ascii: ","), core.bytes[index] != UInt8(ascii: " ") { index += 1 }
        let duration = core.decimal(durationStart, index)
        if duration == nil {
            core.report(.invalidTagValue, line: line.number, column: core.column(line, durationStart),
                        "#EXTINF needs a duration in seconds (-1 when unknown)")
        }
        let attributes = readAttributes(line, &index, stopAtComma: true)
        var title: String?
        if index < line.end, core.bytes[index] == UInt8(ascii: ",") {
            title = core.string(index + 1, line.end)
        }
        let known = duration.flatMap { $0 < .zero ? nil : $0 }
        pendingInfo = (known, title, attributes)
    }

    /// Space-separated `name="value"` or `name=value` pairs, up to a comma outside quotes
    /// when `stopAtComma`, else to the end of the line.
    private mutating func readAttributes(_ line: Line, _ index: inout Int, stopAtComma: Bool) -> [Attribute] {
        var attributes: [Attribute] = []
        while index < line.end {
            let byte = core.bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
                continue
            }
            if stopAtComma && byte == UInt8(ascii: ",") { return attributes }
            let nameStart = index
            while index < line.end, core.bytes[index] != UInt8(ascii: "="), core.bytes[index] != UInt8(ascii: " "),
                  !(stopAtComma && core.bytes[index] == UInt8(ascii: ",")) {
                index += 1
            }
            let name = core.string(nameStart, index)
            guard index < line.end, core.bytes[index] == UInt8(ascii: "=") else {
                attributes.append(Attribute(name: name, rawValue: ""))
                continue
            }
            index += 1
            let valueStart = index
            if index < line.end, core.bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < line.end, core.bytes[index] != UInt8(ascii: "\"") { index += 1 }
                if index < line.end { index += 1 }
            } else {
                while index < line.end, core.bytes[index] != UInt8(ascii: " "),
                      !(stopAtComma && core.bytes[index] == UInt8(ascii: ",")) {
                    index += 1
                }
            }
            attributes.append(Attribute(name: name, rawValue: core.string(valueStart, index)))
        }
        return attributes
    }

    private mutating func appendEntry(_ line: Line) {
        var entry = M3UEntry(uri: core.string(line.start, line.end))
        if let info = pendingInfo {
            entry.duration = info.duration
            entry.title = info.title
            entry.attributes = info.attributes
            entry.hasInfo = true
        }
        entry.group = group
        entry.precedingLines = pendingLines
        entry.position = SourcePosition(line: line.number)
        entry.base = core.base
        playlist.entries.append(entry)
        pendingInfo = nil
        pendingLines = []
    }
}
