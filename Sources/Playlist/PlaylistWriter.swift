import MediaTime

/// Writes playlists as text.
///
/// Two styles:
/// - ``Style/preservingSource`` (the default): a parsed playlist whose model still equals
///   what was parsed is written back byte for byte, line endings, comments and unknown tags
///   included. Anything else is written in canonical form.
/// - ``Style/canonical``: the model is written in a fixed order with LF line endings. Unknown
///   tags and comments stay in place relative to the segments, variants and entries they
///   precede. Parsing canonical text gives a model equal to the one written.
///
/// Numbers are exact: durations are written in decimal from their rational value, never
/// through `Double`.
public enum PlaylistWriter {
    public enum Style: Sendable {
        case preservingSource
        case canonical
    }

    public static func text(of playlist: Playlist, style: Style = .preservingSource) -> String {
        String(decoding: bytes(of: playlist, style: style), as: UTF8.self)
    }

    public static func bytes(of playlist: Playlist, style: Style = .preservingSource) -> [UInt8] {
        switch playlist {
        case .media(let media): bytes(of: media, style: style)
        case .multivariant(let multivariant): bytes(of: multivariant, style: style)
        case .m3u(let list): bytes(of: list, style: style)
        }
    }

    public static func text(of playlist: MediaPlaylist, style: Style = .preservingSource) -> String {
        String(decoding: bytes(of: playlist, style: style), as: UTF8.self)
    }

    public static func text(of playlist: MultivariantPlaylist, style: Style = .preservingSource) -> String {
        String(decoding: bytes(of: playlist, style: style), as: UTF8.self)
    }

    /// An extended M3U that VLC, mpv and IPTV players open.
    public static func text(of playlist: M3UPlaylist, style: Style = .preservingSource) -> String {
        String(decoding: bytes(of: playlist, style: style), as: UTF8.self)
    }

    public static func bytes(of playlist: MediaPlaylist, style: Style = .preservingSource) -> [UInt8] {
        if style == .preservingSource, let box = playlist.source.box, box.parsed == .media(playlist) {
            return box.bytes
        }
        var output = Output()
        output.reserve(playlist.segments.count * 48 + 512)
        writeCanonical(playlist, to: &output)
        return output.bytes
    }

    public static func bytes(of playlist: MultivariantPlaylist, style: Style = .preservingSource) -> [UInt8] {
        if style == .preservingSource, let box = playlist.source.box, box.parsed == .multivariant(playlist) {
            return box.bytes
        }
        var output = Output()
        writeCanonical(playlist, to: &output)
        return output.bytes
    }

    public static func bytes(of playlist: M3UPlaylist, style: Style = .preservingSource) -> [UInt8] {
        if style == .preservingSource, let box = playlist.source.box, box.parsed == .m3u(playlist) {
            return box.bytes
        }
        var output = Output()
        output.reserve(playlist.entries.count * 96 + 64)
        writeCanonical(playlist, to: &output)
        return output.bytes
    }

    // MARK: Media playlists

    static func writeCanonical(_ playlist: MediaPlaylist, to output: inout Output) {
        output.line("#EXTM3U")
        if let version = playlist.version { output.tag("#EXT-X-VERSION:", version) }
        writeDefinitions(playlist.definitions, to: &output)
        output.tag("#EXT-X-TARGETDURATION:", playlist.targetDuration)
        if playlist.mediaSequence != 0 { output.tag("#EXT-X-MEDIA-SEQUENCE:", playlist.mediaSequence) }
        if playlist.discontinuitySequence != 0 {
            output.tag("#EXT-X-DISCONTINUITY-SEQUENCE:", playlist.discontinuitySequence)
        }
        if let type = playlist.playlistType {
            output.append("#EXT-X-PLAYLIST-TYPE:")
            output.line(type.text)
        }
        if playlist.isIFramesOnly { output.line("#EXT-X-I-FRAMES-ONLY") }
        if playlist.hasIndependentSegments { output.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { writeStart(start, to: &output) }
        if let control = playlist.serverControl {
            var attributes = AttributeWriter(tag: "#EXT-X-SERVER-CONTROL:")
            if let value = control.canSkipUntil { attributes.decimal("CAN-SKIP-UNTIL", value) }
            if control.canSkipDateRanges { attributes.enumerated("CAN-SKIP-DATERANGES", "YES") }
            if let value = control.holdBack { attributes.decimal("HOLD-BACK", value) }
            if let value = control.partHoldBack { attributes.decimal("PART-HOLD-BACK", value) }
            if control.canBlockReload { attributes.enumerated("CAN-BLOCK-RELOAD", "YES") }
            attributes.others(control.otherAttributes)
            attributes.end(into: &output)
        }
        if let info = playlist.partInformation {
            var attributes = AttributeWriter(tag: "#EXT-X-PART-INF:")
            attributes.decimal("PART-TARGET", info.partTarget)
            attributes.others(info.otherAttributes)
            attributes.end(into: &output)
        }
        writeLines(playlist.leadingLines, to: &output)
        if let skip = playlist.skip {
            var attributes = AttributeWriter(tag: "#EXT-X-SKIP:")
            attributes.integer("SKIPPED-SEGMENTS", skip.skippedSegments)
            if !skip.recentlyRemovedDateRanges.isEmpty {
                attributes.quoted("RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges.joined(separator: "\t"))
            }
            attributes.others(skip.otherAttributes)
            attributes.end(into: &output)
        }

        var dateRangeIndex = 0
        var previousKeys: [EncryptionKey] = []
        var previousMap: MediaInitializationSection?
        var previousBitrate: Int?
        // Columns are read in place: no segment value is built, nothing is retained.
        let segments = playlist.segments
        var contextRun = 0
        for index in segments.indices {
            while dateRangeIndex < playlist.dateRanges.count, playlist.dateRanges[dateRangeIndex].segmentIndex <= index {
                writeDateRange(playlist.dateRanges[dateRangeIndex], to: &output)
                dateRangeIndex += 1
            }
            let extras = segments.extras[index]
            if let extras { writeLines(extras.fields.precedingLines, to: &output) }
            let flags = segments.flags[index]
            if flags.contains(.discontinuity) { output.line("#EXT-X-DISCONTINUITY") }
            // The state in force changes only where a run of the context column starts.
            if contextRun < segments.contexts.starts.count && segments.contexts.starts[contextRun] == index {
                let context = segments.contexts.values[contextRun].value.context
                contextRun += 1
                if context.keys != previousKeys {
                    if context.keys.isEmpty {
                        output.line("#EXT-X-KEY:METHOD=NONE")
                    } else {
                        for key in context.keys { writeKey(key, tag: "#EXT-X-KEY:", to: &output) }
                    }
                    previousKeys = context.keys
                }
                if let map = context.map, map != previousMap {
                    var attributes = AttributeWriter(tag: "#EXT-X-MAP:")
                    attributes.quoted("URI", map.uri)
                    if let range = map.byteRange { attributes.quoted("BYTERANGE", range.description) }
                    attributes.others(map.otherAttributes)
                    attributes.end(into: &output)
                    previousMap = map
                }
                if let bitrate = context.bitrate, bitrate != previousBitrate {
                    output.tag("#EXT-X-BITRATE:", bitrate)
                }
                previousBitrate = context.bitrate
            }
            if flags.contains(.explicitProgramDateTime), let date = segments.programDateTimes[index] {
                output.append("#EXT-X-PROGRAM-DATE-TIME:")
                date.appendISO8601(to: &output.bytes)
                output.newline()
            }
            if flags.contains(.gap) { output.line("#EXT-X-GAP") }
            if let extras { for part in extras.fields.parts { writePart(part, to: &output) } }
            if let range = segments.byteRanges[index] {
                output.append("#EXT-X-BYTERANGE:")
                output.integer(range.length)
                output.byte(UInt8(ascii: "@"))
                output.integer(range.offset)
                output.newline()
            }
            output.append("#EXTINF:")
            output.decimal(segments.duration(at: index))
            output.byte(UInt8(ascii: ","))
            segments.appendTitle(at: index, to: &output.bytes)
            output.newline()
            segments.appendURI(at: index, to: &output.bytes)
            output.newline()
        }
        while dateRangeIndex < playlist.dateRanges.count {
            writeDateRange(playlist.dateRanges[dateRangeIndex], to: &output)
            dateRangeIndex += 1
        }
        writeLines(playlist.trailingLines, to: &output)
        for part in playlist.trailingParts { writePart(part, to: &output) }
        for hint in playlist.preloadHints {
            var attributes = AttributeWriter(tag: "#EXT-X-PRELOAD-HINT:")
            switch hint.kind {
            case .part: attributes.enumerated("TYPE", "PART")
            case .map: attributes.enumerated("TYPE", "MAP")
            case .other(let text): attributes.enumerated("TYPE", text)
            }
            attributes.quoted("URI", hint.uri)
            if let start = hint.byteRangeStart { attributes.integer("BYTERANGE-START", start) }
            if let length = hint.byteRangeLength { attributes.integer("BYTERANGE-LENGTH", length) }
            attributes.others(hint.otherAttributes)
            attributes.end(into: &output)
        }
        for report in playlist.renditionReports {
            var attributes = AttributeWriter(tag: "#EXT-X-RENDITION-REPORT:")
            attributes.quoted("URI", report.uri)
            if let value = report.lastMediaSequenceNumber { attributes.integer("LAST-MSN", value) }
            if let value = report.lastPart { attributes.integer("LAST-PART", value) }
            attributes.others(report.otherAttributes)
            attributes.end(into: &output)
        }
        if playlist.hasEndList { output.line("#EXT-X-ENDLIST") }
    }

    private static func writePart(_ part: PartialSegment, to output: inout Output) {
        var attributes = AttributeWriter(tag: "#EXT-X-PART:")
        attributes.decimal("DURATION", part.duration)
        attributes.quoted("URI", part.uri)
        if part.isIndependent { attributes.enumerated("INDEPENDENT", "YES") }
        if let range = part.byteRange { attributes.quoted("BYTERANGE", range.description) }
        if part.isGap { attributes.enumerated("GAP", "YES") }
        attributes.others(part.otherAttributes)
        attributes.end(into: &output)
    }

    private static func writeDateRange(_ range: DateRange, to output: inout Output) {
        var attributes = AttributeWriter(tag: "#EXT-X-DATERANGE:")
        attributes.quoted("ID", range.id)
        if let value = range.classValue { attributes.quoted("CLASS", value) }
        attributes.quoted("START-DATE", range.startDate.iso8601)
        if !range.cue.isEmpty { attributes.quoted("CUE", range.cue.joined(separator: ",")) }
        if let value = range.endDate { attributes.quoted("END-DATE", value.iso8601) }
        if let value = range.duration { attributes.decimal("DURATION", value) }
        if let value = range.plannedDuration { attributes.decimal("PLANNED-DURATION", value) }
        if let value = range.scte35Command { attributes.enumerated("SCTE35-CMD", value) }
        if let value = range.scte35Out { attributes.enumerated("SCTE35-OUT", value) }
        if let value = range.scte35In { attributes.enumerated("SCTE35-IN", value) }
        if range.endOnNext { attributes.enumerated("END-ON-NEXT", "YES") }
        attributes.others(range.clientAttributes)
        attributes.others(range.otherAttributes)
        attributes.end(into: &output)
    }

    // MARK: Multivariant playlists

    static func writeCanonical(_ playlist: MultivariantPlaylist, to output: inout Output) {
        output.line("#EXTM3U")
        if let version = playlist.version { output.tag("#EXT-X-VERSION:", version) }
        writeDefinitions(playlist.definitions, to: &output)
        if playlist.hasIndependentSegments { output.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { writeStart(start, to: &output) }
        if let steering = playlist.contentSteering {
            var attributes = AttributeWriter(tag: "#EXT-X-CONTENT-STEERING:")
            attributes.quoted("SERVER-URI", steering.serverURI)
            if let value = steering.pathwayID { attributes.quoted("PATHWAY-ID", value) }
            attributes.others(steering.otherAttributes)
            attributes.end(into: &output)
        }
        for data in playlist.sessionData {
            var attributes = AttributeWriter(tag: "#EXT-X-SESSION-DATA:")
            attributes.quoted("DATA-ID", data.dataID)
            if let value = data.value { attributes.quoted("VALUE", value) }
            if let value = data.uri { attributes.quoted("URI", value) }
            if let value = data.format { attributes.enumerated("FORMAT", value) }
            if let value = data.language { attributes.quoted("LANGUAGE", value) }
            attributes.others(data.otherAttributes)
            attributes.end(into: &output)
        }
        for key in playlist.sessionKeys { writeKey(key, tag: "#EXT-X-SESSION-KEY:", to: &output) }
        writeLines(playlist.leadingLines, to: &output)
        for rendition in playlist.renditions {
            writeLines(rendition.precedingLines, to: &output)
            var attributes = AttributeWriter(tag: "#EXT-X-MEDIA:")
            attributes.enumerated("TYPE", rendition.type.text)
            attributes.quoted("GROUP-ID", rendition.groupID)
            attributes.quoted("NAME", rendition.name)
            if let value = rendition.language { attributes.quoted("LANGUAGE", value) }
            if let value = rendition.associatedLanguage { attributes.quoted("ASSOC-LANGUAGE", value) }
            if let value = rendition.stableRenditionID { attributes.quoted("STABLE-RENDITION-ID", value) }
            if rendition.isDefault { attributes.enumerated("DEFAULT", "YES") }
            if rendition.isAutoselect { attributes.enumerated("AUTOSELECT", "YES") }
            if rendition.isForced { attributes.enumerated("FORCED", "YES") }
            if let value = rendition.instreamID { attributes.quoted("INSTREAM-ID", value) }
            if let value = rendition.bitDepth { attributes.integer("BIT-DEPTH", value) }
            if let value = rendition.sampleRate { attributes.integer("SAMPLE-RATE", value) }
            if !rendition.characteristics.isEmpty {
                attributes.quoted("CHARACTERISTICS", rendition.characteristics.joined(separator: ","))
            }
            if let value = rendition.channels { attributes.quoted("CHANNELS", value) }
            if let value = rendition.uri { attributes.quoted("URI", value) }
            attributes.others(rendition.otherAttributes)
            attributes.end(into: &output)
        }
        for variant in playlist.variants {
            writeLines(variant.precedingLines, to: &output)
            var attributes = AttributeWriter(tag: "#EXT-X-STREAM-INF:")
            writeStream(variant.stream, to: &attributes)
            if let value = variant.frameRate { attributes.enumerated("FRAME-RATE", formatFrameRate(value)) }
            if let value = variant.audioGroup { attributes.quoted("AUDIO", value) }
            if let value = variant.subtitlesGroup { attributes.quoted("SUBTITLES", value) }
            switch variant.closedCaptions {
            case .group(let group): attributes.quoted("CLOSED-CAPTIONS", group)
            case .none?: attributes.enumerated("CLOSED-CAPTIONS", "NONE")
            case nil: break
            }
            attributes.others(variant.stream.otherAttributes)
            attributes.end(into: &output)
            output.line(variant.uri)
        }
        for variant in playlist.iFrameVariants {
            writeLines(variant.precedingLines, to: &output)
            var attributes = AttributeWriter(tag: "#EXT-X-I-FRAME-STREAM-INF:")
            writeStream(variant.stream, to: &attributes)
            attributes.quoted("URI", variant.uri)
            attributes.others(variant.stream.otherAttributes)
            attributes.end(into: &output)
        }
        writeLines(playlist.trailingLines, to: &output)
    }

    private static func writeStream(_ stream: StreamAttributes, to attributes: inout AttributeWriter) {
        attributes.integer("BANDWIDTH", stream.bandwidth)
        if let value = stream.averageBandwidth { attributes.integer("AVERAGE-BANDWIDTH", value) }
        if let value = stream.score { attributes.enumerated("SCORE", formatFrameRate(value)) }
        if !stream.codecs.isEmpty { attributes.quoted("CODECS", stream.codecs.joined(separator: ",")) }
        if !stream.supplementalCodecs.isEmpty {
            attributes.quoted("SUPPLEMENTAL-CODECS", stream.supplementalCodecs.joined(separator: ","))
        }
        if let value = stream.resolution { attributes.enumerated("RESOLUTION", value.description) }
        if let value = stream.hdcpLevel { attributes.enumerated("HDCP-LEVEL", value) }
        if let value = stream.allowedCPC { attributes.quoted("ALLOWED-CPC", value) }
        if let value = stream.videoRange { attributes.enumerated("VIDEO-RANGE", value) }
        if let value = stream.requiredVideoLayout { attributes.quoted("REQ-VIDEO-LAYOUT", value) }
        if let value = stream.stableVariantID { attributes.quoted("STABLE-VARIANT-ID", value) }
        if let value = stream.videoGroup { attributes.quoted("VIDEO", value) }
        if let value = stream.pathwayID { attributes.quoted("PATHWAY-ID", value) }
        if let value = stream.programID { attributes.integer("PROGRAM-ID", value) }
    }

    /// Three decimals at most, trailing zeros dropped, as the RFC rounds FRAME-RATE.
    private static func formatFrameRate(_ value: Double) -> String {
        let time = MediaTime(seconds: value, timescale: 1000)
        return time.decimalSeconds(maximumFractionDigits: 3) ?? "0"
    }

    // MARK: M3U

    static func writeCanonical(_ playlist: M3UPlaylist, to output: inout Output) {
        if playlist.hasHeader {
            output.append("#EXTM3U")
            for attribute in playlist.headerAttributes {
                output.byte(UInt8(ascii: " "))
                writeM3UAttribute(attribute, to: &output)
            }
            output.newline()
        }
        if let title = playlist.title {
            output.append("#PLAYLIST:")
            output.line(title)
        }
        var previousGroup: String?
        for entry in playlist.entries {
            writeLines(entry.precedingLines, to: &output)
            if let group = entry.group, group != previousGroup {
                output.append("#EXTGRP:")
                output.line(group)
            }
            previousGroup = entry.group
            if entry.hasInfo {
                output.append("#EXTINF:")
                if let duration = entry.duration { output.decimal(duration) } else { output.append("-1") }
                for attribute in entry.attributes {
                    output.byte(UInt8(ascii: " "))
                    writeM3UAttribute(attribute, to: &output)
                }
                output.byte(UInt8(ascii: ","))
                output.line(entry.title ?? "")
            }
            output.line(entry.uri)
        }
        writeLines(playlist.trailingLines, to: &output)
    }

    private static func writeM3UAttribute(_ attribute: Attribute, to output: inout Output) {
        output.append(attribute.name)
        output.byte(UInt8(ascii: "="))
        output.append(attribute.rawValue)
    }

    // MARK: Shared tags

    private static func writeDefinitions(_ definitions: [VariableDefinition], to output: inout Output) {
        for definition in definitions {
            var attributes = AttributeWriter(tag: "#EXT-X-DEFINE:")
            switch definition.source {
            case .value(let value):
                attributes.quoted("NAME", definition.name)
                attributes.quoted("VALUE", value)
            case .imported:
                attributes.quoted("IMPORT", definition.name)
            case .queryParameter:
                attributes.quoted("QUERYPARAM", definition.name)
            }
            attributes.end(into: &output)
        }
    }

    private static func writeStart(_ start: StartOffset, to output: inout Output) {
        var attributes = AttributeWriter(tag: "#EXT-X-START:")
        attributes.decimal("TIME-OFFSET", start.timeOffset)
        if start.isPrecise { attributes.enumerated("PRECISE", "YES") }
        attributes.others(start.otherAttributes)
        attributes.end(into: &output)
    }

    private static func writeKey(_ key: EncryptionKey, tag: StaticString, to output: inout Output) {
        var attributes = AttributeWriter(tag: tag)
        attributes.enumerated("METHOD", key.method.text)
        if let value = key.uri { attributes.quoted("URI", value) }
        if let value = key.iv { attributes.enumerated("IV", value) }
        if let value = key.keyFormat { attributes.quoted("KEYFORMAT", value) }
        if let value = key.keyFormatVersions { attributes.quoted("KEYFORMATVERSIONS", value) }
        attributes.others(key.otherAttributes)
        attributes.end(into: &output)
    }

    private static func writeLines(_ lines: [PreservedLine], to output: inout Output) {
        for line in lines { output.line(line.text) }
    }
}

/// A growing UTF-8 buffer with the appenders the writer needs, none of which builds a
/// `String`.
struct Output {
    var bytes: [UInt8] = []

    mutating func reserve(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    @inline(__always)
    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func line(_ text: StaticString) {
        append(text)
        newline()
    }

    mutating func line(_ text: String) {
        append(text)
        newline()
    }

    mutating func tag(_ prefix: StaticString, _ value: Int) {
        append(prefix)
        integer(value)
        newline()
    }

    mutating func integer(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsignedInteger(value.magnitude, minimumDigits: 1)
    }

    /// Digits of `value`, left-padded with zeros to `minimumDigits`.
    @inline(__always)
    mutating func unsignedInteger(_ value: UInt, minimumDigits: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var remaining = value
        withUnsafeMutableBytes(of: &digits) { storage in
            repeat {
                storage[23 - count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining != 0 || count < minimumDigits
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: storage[(24 - count)...]))
        }
    }

    /// Exact decimal seconds: `6.006`, `2`, `-0.5`. Times whose timescale is not a power of
    /// ten are rounded to nanoseconds.
    mutating func decimal(_ time: MediaTime) {
        guard var value = time.value, var timescale = time.timescale else {
            append("0")
            return
        }
        var digits = 0
        var power: Int64 = 1
        while power < Int64(timescale) && digits < 9 {
            power *= 10
            digits += 1
        }
        if power != Int64(timescale) {
            let converted = time.converted(toTimescale: 1_000_000_000)
            value = converted.value ?? 0
            timescale = 1_000_000_000
            digits = 9
        }
        if value < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        unsignedInteger(UInt(magnitude / UInt64(timescale)), minimumDigits: 1)
        var fraction = magnitude % UInt64(timescale)
        guard fraction != 0 else { return }
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        byte(UInt8(ascii: "."))
        unsignedInteger(UInt(fraction), minimumDigits: digits)
    }
}

/// Builds `TAG:NAME=value,NAME="value"` one attribute at a time, then appends the line.
struct AttributeWriter {
    private var isFirst = true
    private var text = Output()

    init(tag: StaticString) {
        text.append(tag)
    }

    private mutating func name(_ name: StaticString) {
        if !isFirst { text.byte(UInt8(ascii: ",")) }
        isFirst = false
        text.append(name)
        text.byte(UInt8(ascii: "="))
    }

    mutating func quoted(_ attribute: StaticString, _ value: String) {
        name(attribute)
        text.byte(UInt8(ascii: "\""))
        text.append(value)
        text.byte(UInt8(ascii: "\""))
    }

    mutating func enumerated(_ attribute: StaticString, _ value: String) {
        name(attribute)
        text.append(value)
    }

    mutating func integer(_ attribute: StaticString, _ value: Int) {
        name(attribute)
        text.integer(value)
    }

    mutating func decimal(_ attribute: StaticString, _ value: MediaTime) {
        name(attribute)
        text.decimal(value)
    }

    mutating func others(_ attributes: [Attribute]) {
        for attribute in attributes {
            if !isFirst { text.byte(UInt8(ascii: ",")) }
            isFirst = false
            text.append(attribute.name)
            text.byte(UInt8(ascii: "="))
            text.append(attribute.rawValue)
        }
    }

    func end(into output: inout Output) {
        output.bytes.append(contentsOf: text.bytes)
        output.newline()
    }
}
