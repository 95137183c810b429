extension Playlist {
    /// Parses a playlist of any kind: HLS media or multivariant, extended M3U or a plain list
    /// of URLs. Never fails: the result always holds a model, and the diagnostics say what is
    /// wrong, with severities set by `options.mode`.
    public static func parse(_ text: String, options: ParseOptions = ParseOptions()) -> ParseResult {
        parse(bytes: Array(text.utf8), options: options)
    }

    /// ``parse(_:options:)`` over raw bytes, which need not be valid UTF-8 (invalid bytes are
    /// reported and replaced).
    public static func parse(bytes: [UInt8], options: ParseOptions = ParseOptions()) -> ParseResult {
        let base = options.baseURL.map(BaseURL.init)
        let source = SourceText(bytes)
        var result = bytes.withUnsafeBufferPointer { buffer in
            parse(buffer: buffer, source: source, options: options, base: base)
        }
        let parsed = result.playlist
        let retained = RetainedSource(box: SourceBox(bytes: bytes, parsed: parsed))
        switch parsed {
        case .media(var playlist):
            playlist.source = retained
            result.playlist = .media(playlist)
        case .multivariant(var playlist):
            playlist.source = retained
            result.playlist = .multivariant(playlist)
        case .m3u(var playlist):
            playlist.source = retained
            result.playlist = .m3u(playlist)
        }
        return result
    }

    /// Parses in strict mode and throws when any rule is broken.
    public static func parseStrictly(bytes: [UInt8], options: ParseOptions = ParseOptions()) throws(PlaylistRejection) -> Playlist {
        var strict = options
        strict.mode = .strict
        let result = parse(bytes: bytes, options: strict)
        guard result.isValid else { throw PlaylistRejection(diagnostics: result.diagnostics) }
        return result.playlist
    }

    /// ``parseStrictly(bytes:options:)`` over text.
    public static func parseStrictly(_ text: String, options: ParseOptions = ParseOptions()) throws(PlaylistRejection) -> Playlist {
        try parseStrictly(bytes: Array(text.utf8), options: options)
    }

    enum Kind {
        case media, multivariant, m3u
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, source: SourceText, options: ParseOptions,
                              base: BaseURL?) -> ParseResult {
        let hasByteOrderMark = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
        var core = ParserCore(bytes: buffer, source: source, startOffset: hasByteOrderMark ? 3 : 0, mode: options.mode,
                              base: base)
        let kind = detectKind(core)
        if let invalid = firstInvalidUTF8Offset(buffer) {
            let line = buffer[..<invalid].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            var lineStart = invalid
            while lineStart > 0, buffer[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
            core.report(.invalidUTF8, line: line, column: invalid - lineStart + 1,
                        "the playlist is not valid UTF-8 here; the bytes are replaced by U+FFFD")
        }
        if hasByteOrderMark && kind != .m3u {
            core.report(.byteOrderMark, line: 1, "an HLS playlist must not start with a byte order mark")
        }
        let playlist: Playlist
        switch kind {
        case .media:
            var parser = MediaPlaylistParser(core: core, options: options)
            playlist = .media(parser.parse())
            core = parser.core
        case .multivariant:
            var parser = MultivariantPlaylistParser(core: core)
            playlist = .multivariant(parser.parse())
            core = parser.core
        case .m3u:
            var parser = M3UParser(core: core)
            playlist = .m3u(parser.parse())
            core = parser.core
        }
        let diagnostics = core.diagnostics.enumerated().sorted {
            ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
        }.map(\.element)
        return ParseResult(playlist: playlist, diagnostics: diagnostics)
    }

    /// Which parser to use: the first tag that only one kind of HLS playlist has decides;
    /// without one, a list with other `EXT-X-` tags is a media playlist and anything else is
    /// an extended M3U or a plain list of URLs.
    static func detectKind(_ core: ParserCore) -> Kind {
        var scanner = core
        var sawHLSTag = false
        var sawM3UTag = false
        while let line = scanner.nextLine() {
            guard scanner.hasPrefix("#EXT", at: line.start, end: line.end) else { continue }
            if let (tag, _) = scanner.tag(of: line) {
                switch tag.scope {
                case .media: return .media
                case .multivariant: return .multivariant
                case .m3u: sawM3UTag = true
                case .common: if tag != .extm3u && tag != .extinf { sawHLSTag = true }
                }
            } else if scanner.hasPrefix("#EXT-X-", at: line.start, end: line.end) {
                sawHLSTag = true
            }
        }
        return sawHLSTag && !sawM3UTag ? .media : .m3u
    }
}

extension ParserCore {
    /// Checks that the first line is `#EXTM3U`; returns that line when it is.
    mutating func readHeader() -> Line? {
        let saved = (offset, lineNumber)
        guard let first = nextLine() else {
            report(.extm3uFirst, line: 1, "the playlist is empty; it must start with #EXTM3U")
            return nil
        }
        if hasPrefix("#EXTM3U", at: first.start, end: first.end) {
            return first
        }
        report(.extm3uFirst, line: first.number, "the first line must be #EXTM3U")
        (offset, lineNumber) = saved
        return nil
    }

    /// Handles `EXT-X-DEFINE`, adding the variable to those in force.
    mutating func define(_ line: Line, _ valueStart: Int, importing imported: [String: String],
                         allowsImport: Bool) -> VariableDefinition? {
        var list = attributeList(line, from: valueStart)
        require(version: 8, for: "EXT-X-DEFINE", line: line.number)
        let definition: VariableDefinition
        if let name = quoted(&list, "NAME") {
            guard let value = quoted(&list, "VALUE") else {
                report(.missingAttribute, line: line.number, "EXT-X-DEFINE with NAME requires VALUE")
                return nil
            }
            definition = VariableDefinition(name: name, source: .value(value))
        } else if let name = quoted(&list, "IMPORT") {
            if !allowsImport {
                report(.invalidAttributeValue, line: line.number,
                       "IMPORT is only allowed in a media playlist, which imports from its multivariant playlist")
            } else if imported[name] == nil {
                report(.undefinedVariable, line: line.number,
                       "IMPORT=\"\(name)\" names a variable the multivariant playlist does not define")
            }
            definition = VariableDefinition(name: name, source: .imported, resolvedValue: imported[name])
        } else if let name = quoted(&list, "QUERYPARAM") {
            require(version: 11, for: "EXT-X-DEFINE with QUERYPARAM", line: line.number)
            let value = base?.queryParameter(name)
            if value == nil {
                report(.undefinedVariable, line: line.number,
                       "QUERYPARAM=\"\(name)\" names a query parameter the playlist URL does not have")
            }
            definition = VariableDefinition(name: name, source: .queryParameter, resolvedValue: value)
        } else {
            report(.missingAttribute, line: line.number, "EXT-X-DEFINE requires NAME, IMPORT or QUERYPARAM")
            return nil
        }
        if !definition.name.utf8.allSatisfy(VariableName.isNameByte) || definition.name.isEmpty {
            report(.invalidAttributeValue, line: line.number,
                   "a variable name may only hold a-z, A-Z, 0-9, '-' and '_'")
        }
        if variables[definition.name] != nil {
            report(.duplicateVariable, line: line.number, "the variable \(definition.name) is already defined")
        } else if let value = definition.resolvedValue {
            variables[definition.name] = value
        }
        return definition
    }

    /// Handles `EXT-X-START`.
    mutating func startOffset(_ line: Line, _ valueStart: Int) -> StartOffset? {
        var list = attributeList(line, from: valueStart)
        requireAttribute(list, "TIME-OFFSET", of: "EXT-X-START")
        guard let offset = decimalTime(&list, "TIME-OFFSET", signed: true) else { return nil }
        let precise = yesNo(&list, "PRECISE") ?? false
        return StartOffset(timeOffset: offset, isPrecise: precise, otherAttributes: remaining(list))
    }

    /// Handles `EXT-X-KEY` and `EXT-X-SESSION-KEY`.
    mutating func encryptionKey(_ line: Line, _ valueStart: Int, tagName: String) -> EncryptionKey? {
        var list = attributeList(line, from: valueStart)
        guard let methodText = enumerated(&list, "METHOD", allowed: ["NONE", "AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR"]) else {
            report(.missingAttribute, line: line.number, "\(tagName) requires the attribute METHOD")
            return nil
        }
        var key = EncryptionKey(method: EncryptionKey.Method(methodText))
        key.uri = quoted(&list, "URI")
        key.iv = hexadecimal(&list, "IV")
        key.keyFormat = quoted(&list, "KEYFORMAT")
        key.keyFormatVersions = quoted(&list, "KEYFORMATVERSIONS")
        key.otherAttributes = remaining(list)
        key.base = base
        if key.method == .none {
            if key.uri != nil || key.iv != nil || key.keyFormat != nil || key.keyFormatVersions != nil {
                report(.keyNoneWithAttributes, line: line.number,
                       "\(tagName) with METHOD=NONE must not have URI, IV, KEYFORMAT or KEYFORMATVERSIONS")
            }
        } else if key.uri == nil {
            report(.keyMissingURI, line: line.number, "\(tagName) with METHOD=\(methodText) requires a URI")
        }
        if key.iv != nil { require(version: 2, for: "the IV attribute", line: line.number) }
        if key.keyFormat != nil || key.keyFormatVersions != nil {
            require(version: 5, for: "KEYFORMAT or KEYFORMATVERSIONS", line: line.number)
        }
        if key.method == .sampleAES { require(version: 5, for: "METHOD=SAMPLE-AES", line: line.number) }
        return key
    }

    /// A line that is neither a known tag nor a URI, kept as written.
    func preserved(_ line: Line) -> PreservedLine {
        PreservedLine(string(line.start, line.end), position: SourcePosition(line: line.number))
    }
}
