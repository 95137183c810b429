/// Reads a multivariant playlist in one pass, then checks the group references.
struct MultivariantPlaylistParser {
    var core: ParserCore
    var playlist = MultivariantPlaylist()

    private var seen: Set<Tag> = []
    private var versionLine = 1
    private var precedingLines: [PreservedLine] = []
    /// The variant whose URI line is expected next.
    private var pendingVariant: (variant: Variant, line: Line)?
    /// Group references to check once every rendition is known.
    private var groupReferences: [(type: Rendition.MediaType, group: String, line: Int, column: Int)] = []

    init(core: ParserCore) {
        self.core = core
        playlist.base = core.base
    }

    mutating func parse() -> MultivariantPlaylist {
        _ = core.readHeader()
        while let line = core.nextLine() {
            if line.start == line.end { continue }
            if core.bytes[line.start] != UInt8(ascii: "#") {
                readURI(line)
            } else if core.hasPrefix("#EXT", at: line.start, end: line.end), let (tag, valueStart) = core.tag(of: line) {
                if pendingVariant != nil && tag != .define { closePendingVariantWithoutURI() }
                readTag(tag, line, valueStart)
            } else {
                precedingLines.append(core.preserved(line))
            }
        }
        if pendingVariant != nil { closePendingVariantWithoutURI() }
        playlist.trailingLines = precedingLines
        checkGroups()
        core.checkVersion(declared: playlist.version, line: versionLine)
        return playlist
    }

    private mutating func takePrecedingLines() -> [PreservedLine] {
        defer { precedingLines = [] }
        if playlist.variants.isEmpty && playlist.renditions.isEmpty && playlist.iFrameVariants.isEmpty {
            playlist.leadingLines += precedingLines
            return []
        }
        return precedingLines
    }

    private mutating func readURI(_ line: Line) {
        guard var (variant, _) = pendingVariant else {
            core.report(.mixedPlaylistKinds, line: line.number,
                        "a URI line in a multivariant playlist must follow EXT-X-STREAM-INF")
            precedingLines.append(core.preserved(line))
            return
        }
        variant.uri = core.substituted(line.start, line.end, line: line)
        variant.precedingLines = takePrecedingLines()
        playlist.variants.append(variant)
        pendingVariant = nil
    }

    private mutating func closePendingVariantWithoutURI() {
        guard let (variant, line) = pendingVariant else { return }
        core.report(.streamInfMissingURI, line: line.number, "EXT-X-STREAM-INF must be followed by a URI line")
        var kept = variant
        kept.precedingLines = takePrecedingLines()
        playlist.variants.append(kept)
        pendingVariant = nil
    }

    private mutating func readTag(_ tag: Tag, _ line: Line, _ valueStart: Int) {
        if tag.scope == .media || tag == .extinf || tag.scope == .m3u {
            core.report(.mixedPlaylistKinds, line: line.number,
                        "#\(tag.name) belongs in a media playlist, not in a multivariant playlist")
            precedingLines.append(core.preserved(line))
            return
        }
        if tag.isSingleton {
            if seen.contains(tag) {
                core.report(.duplicateTag, line: line.number, "#\(tag.name) may appear only once; this one is ignored")
                return
            }
            seen.insert(tag)
        }
        switch tag {
        case .extm3u:
            core.report(.duplicateTag, line: line.number, "#EXTM3U may appear only on the first line")
        case .version:
            if let version = core.integer(valueStart, line.end) {
                playlist.version = version
            } else {
                core.report(.invalidTagValue, line: line.number, column: core.column(line, valueStart),
                            "#EXT-X-VERSION needs a decimal integer")
            }
            versionLine = line.number
        case .independentSegments:
            playlist.hasIndependentSegments = true
        case .start:
            playlist.start = core.startOffset(line, valueStart)
        case .define:
            if let definition = core.define(line, valueStart, importing: [:], allowsImport: false) {
                playlist.definitions.append(definition)
            }
        case .media:
            readRendition(line, valueStart)
        case .streamInf:
            var list = core.attributeList(line, from: valueStart)
            var variant = Variant(uri: "", stream: streamAttributes(&list))
            variant.frameRate = core.double(&list, "FRAME-RATE")
            variant.audioGroup = groupReference(&list, "AUDIO", .audio)
            variant.subtitlesGroup = groupReference(&list, "SUBTITLES", .subtitles)
            if let index = core.find(&list, "CLOSED-CAPTIONS") {
                let entry = list.entries[index]
                if entry.isQuoted {
                    let group = core.substituted(entry.valueStart, entry.valueEnd, line: line)
                    variant.closedCaptions = .group(group)
                    groupReferences.append((.closedCaptions, group, line.number, core.column(line, entry.nameStart)))
                } else if core.equals(entry.valueStart, entry.valueEnd, "NONE") {
                    variant.closedCaptions = Variant.ClosedCaptions.none
                } else {
                    core.reportValue(list, entry, "a quoted group id or NONE")
                }
            }
            variant.stream.otherAttributes = core.remaining(list)
            variant.position = SourcePosition(line: line.number)
            variant.base = core.base
            pendingVariant = (variant, line)
        case .iFrameStreamInf:
            var list = core.attributeList(line, from: valueStart)
            let stream = streamAttributes(&list)
            let uri = core.quoted(&list, "URI")
            if uri == nil {
                core.report(.missingAttribute, line: line.number, "EXT-X-I-FRAME-STREAM-INF requires the attribute URI")
            }
            var variant = IFrameVariant(uri: uri ?? "", stream: stream)
            variant.stream.otherAttributes = core.remaining(list)
            variant.position = SourcePosition(line: line.number)
            variant.base = core.base
            variant.precedingLines = takePrecedingLines()
            playlist.iFrameVariants.append(variant)
        case .sessionData:
            var list = core.attributeList(line, from: valueStart)
            let dataID = core.quoted(&list, "DATA-ID")
            if dataID == nil {
                core.report(.missingAttribute, line: line.number, "EXT-X-SESSION-DATA requires the attribute DATA-ID")
            }
            var data = SessionData(dataID: dataID ?? "", value: core.quoted(&list, "VALUE"), uri: core.quoted(&list, "URI"),
                                   language: core.quoted(&list, "LANGUAGE"))
            if (data.value == nil) == (data.uri == nil) {
                core.report(.missingAttribute, line: line.number, "EXT-X-SESSION-DATA requires exactly one of VALUE and URI")
            }
            data.format = core.enumerated(&list, "FORMAT", allowed: ["JSON", "RAW"])
            data.otherAttributes = core.remaining(list)
            data.base = core.base
            playlist.sessionData.append(data)
        case .sessionKey:
            if let key = core.encryptionKey(line, valueStart, tagName: "EXT-X-SESSION-KEY") {
                if key.method == .none {
                    core.report(.invalidAttributeValue, line: line.number, "EXT-X-SESSION-KEY must not have METHOD=NONE")
                }
                playlist.sessionKeys.append(key)
            }
        case .contentSteering:
            var list = core.attributeList(line, from: valueStart)
            guard let server = core.quoted(&list, "SERVER-URI") else {
                core.report(.missingAttribute, line: line.number, "EXT-X-CONTENT-STEERING requires the attribute SERVER-URI")
                return
            }
            var steering = ContentSteering(serverURI: server, pathwayID: core.quoted(&list, "PATHWAY-ID"))
            steering.otherAttributes = core.remaining(list)
            steering.base = core.base
            playlist.contentSteering = steering
        default:
            break
        }
    }

    private mutating func streamAttributes(_ list: inout AttributeList) -> StreamAttributes {
        let line = list.line
        // Version 12 announces the REQ- attributes: a client that does not know one must skip
        // the variant, which older clients would not do.
        if let requirement = list.entries.first(where: { core.hasPrefix("REQ-", at: $0.nameStart, end: $0.nameEnd) }) {
            core.require(version: 12, for: "the attribute \(core.string(requirement.nameStart, requirement.nameEnd))",
                         line: line.number)
        }
        let bandwidth = core.integer(&list, "BANDWIDTH")
        if bandwidth == nil && !core.has(list, "BANDWIDTH") {
            core.report(.streamInfMissingBandwidth, line: line.number, "the variant requires the attribute BANDWIDTH")
        }
        var stream = StreamAttributes(bandwidth: bandwidth ?? 0)
        stream.averageBandwidth = core.integer(&list, "AVERAGE-BANDWIDTH")
        stream.score = core.double(&list, "SCORE")
        stream.codecs = core.quoted(&list, "CODECS").map(Self.commaSeparated) ?? []
        stream.supplementalCodecs = core.quoted(&list, "SUPPLEMENTAL-CODECS").map(Self.commaSeparated) ?? []
        stream.resolution = core.resolution(&list, "RESOLUTION")
        stream.hdcpLevel = core.enumerated(&list, "HDCP-LEVEL", allowed: ["TYPE-0", "TYPE-1", "NONE"])
        stream.allowedCPC = core.quoted(&list, "ALLOWED-CPC")
        stream.videoRange = core.enumerated(&list, "VIDEO-RANGE", allowed: ["SDR", "HLG", "PQ"])
        stream.requiredVideoLayout = core.quoted(&list, "REQ-VIDEO-LAYOUT")
        stream.stableVariantID = core.quoted(&list, "STABLE-VARIANT-ID")
        stream.videoGroup = groupReference(&list, "VIDEO", .video)
        stream.pathwayID = core.quoted(&list, "PATHWAY-ID")
        stream.programID = core.integer(&list, "PROGRAM-ID")
        return stream
    }

    private static func commaSeparated(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0.drop { $0 == " " }) }
    }

    private mutating func groupReference(_ list: inout AttributeList, _ name: String, _ type: Rendition.MediaType) -> String? {
        guard let group = core.quoted(&list, name),
              let entry = list.entries.first(where: { core.equals($0.nameStart, $0.nameEnd, name) }) else { return nil }
        groupReferences.append((type, group, list.line.number, core.column(list.line, entry.nameStart)))
        return group
    }

    private mutating func readRendition(_ line: Line, _ valueStart: Int) {
        var list = core.attributeList(line, from: valueStart)
        let typeText = core.enumerated(&list, "TYPE", allowed: ["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"])
        let groupID = core.quoted(&list, "GROUP-ID")
        let name = core.quoted(&list, "NAME")
        for (value, attribute) in [(typeText, "TYPE"), (groupID, "GROUP-ID"), (name, "NAME")] where value == nil {
            core.report(.missingAttribute, line: line.number, "EXT-X-MEDIA requires the attribute \(attribute)")
        }
        let type = Rendition.MediaType(typeText ?? "")
        var rendition = Rendition(type: type, groupID: groupID ?? "", name: name ?? "", uri: core.quoted(&list, "URI"))
        rendition.language = core.quoted(&list, "LANGUAGE")
        rendition.associatedLanguage = core.quoted(&list, "ASSOC-LANGUAGE")
        rendition.stableRenditionID = core.quoted(&list, "STABLE-RENDITION-ID")
        rendition.isDefault = core.yesNo(&list, "DEFAULT") ?? false
        let autoselect = core.yesNo(&list, "AUTOSELECT")
        rendition.isAutoselect = autoselect ?? false
        rendition.isForced = core.yesNo(&list, "FORCED") ?? false
        rendition.instreamID = core.quoted(&list, "INSTREAM-ID")
        rendition.bitDepth = core.integer(&list, "BIT-DEPTH")
        rendition.sampleRate = core.integer(&list, "SAMPLE-RATE")
        rendition.characteristics = core.quoted(&list, "CHARACTERISTICS").map { $0.split(separator: ",").map(String.init) } ?? []
        rendition.channels = core.quoted(&list, "CHANNELS")
        rendition.otherAttributes = core.remaining(list)
        rendition.position = SourcePosition(line: line.number)
        rendition.base = core.base
        rendition.precedingLines = takePrecedingLines()

        if rendition.isDefault && autoselect == false {
            core.report(.defaultWithoutAutoselect, line: line.number, "EXT-X-MEDIA with DEFAULT=YES must have AUTOSELECT=YES")
        }
        if type == .closedCaptions {
            if rendition.uri != nil {
                core.report(.closedCaptionsWithURI, line: line.number, "a CLOSED-CAPTIONS rendition must not have a URI")
            }
            if let instreamID = rendition.instreamID {
                if instreamID.hasPrefix("SERVICE") {
                    core.require(version: 7, for: "INSTREAM-ID=\(instreamID)", line: line.number)
                }
                let valid = ["CC1", "CC2", "CC3", "CC4"].contains(instreamID)
                    || (instreamID.hasPrefix("SERVICE") && Int(instreamID.dropFirst(7)).map { (1...63).contains($0) } == true)
                if !valid {
                    core.report(.unknownEnumeratedValue, line: line.number,
                                "INSTREAM-ID must be CC1 to CC4 or SERVICE1 to SERVICE63, not \(instreamID)")
                }
            } else {
                core.report(.closedCaptionsMissingInstreamID, line: line.number,
                            "a CLOSED-CAPTIONS rendition requires INSTREAM-ID")
            }
        } else if rendition.instreamID != nil {
            core.report(.invalidAttributeValue, line: line.number, "INSTREAM-ID is only for CLOSED-CAPTIONS renditions")
        }
        if rendition.isForced && type != .subtitles {
            core.report(.invalidAttributeValue, line: line.number, "FORCED is only for SUBTITLES renditions")
        }
        playlist.renditions.append(rendition)
    }

    private mutating func checkGroups() {
        for reference in groupReferences
        where !playlist.renditions.contains(where: { $0.type == reference.type && $0.groupID == reference.group }) {
            core.report(.undefinedGroup, line: reference.line, column: reference.column,
                        "no EXT-X-MEDIA with TYPE=\(reference.type.text) has GROUP-ID=\"\(reference.group)\"")
        }
    }
}
