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
        let estimate = estimatedCount(source: playlist.source, items: playlist.segments.count, bytesPerItem: 48)
        return Output.bytes(estimatedCount: estimate) { writeCanonical(playlist, to: &$0) }
    }

    public static func bytes(of playlist: MultivariantPlaylist, style: Style = .preservingSource) -> [UInt8] {
        if style == .preservingSource, let box = playlist.source.box, box.parsed == .multivariant(playlist) {
            return box.bytes
        }
        let estimate = estimatedCount(source: playlist.source, items: playlist.variants.count + playlist.renditions.count,
                                      bytesPerItem: 160)
        return Output.bytes(estimatedCount: estimate) { writeCanonical(playlist, to: &$0) }
    }

    public static func bytes(of playlist: M3UPlaylist, style: Style = .preservingSource) -> [UInt8] {
        if style == .preservingSource, let box = playlist.source.box, box.parsed == .m3u(playlist) {
            return box.bytes
        }
        let estimate = estimatedCount(source: playlist.source, items: playlist.entries.count, bytesPerItem: 96)
        return Output.bytes(estimatedCount: estimate) { writeCanonical(playlist, to: &$0) }
    }

    /// The size to write canonical text into: the text the playlist was parsed from (close to
    /// its canonical form) with some room, or a guess from its number of items. Only pages
    /// written become resident; a short estimate costs a second writing.
    private static func estimatedCount(source: RetainedSource, items: Int, bytesPerItem: Int) -> Int {
        let guess = items * bytesPerItem + 512
        guard let box = source.box else { return guess }
        return max(box.bytes.count + box.bytes.count / 32 + 512, guess / 2)
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
            output.line(string: type.text)
        }
        if playlist.isIFramesOnly { output.line("#EXT-X-I-FRAMES-ONLY") }
        if playlist.hasIndependentSegments { output.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { writeStart(start, to: &output) }
        if let control = playlist.serverControl {
            output.attributeLine("#EXT-X-SERVER-CONTROL:") { attributes in
                if let value = control.canSkipUntil { attributes.decimal("CAN-SKIP-UNTIL", value) }
                if control.canSkipDateRanges { attributes.enumerated("CAN-SKIP-DATERANGES", "YES") }
                if let value = control.holdBack { attributes.decimal("HOLD-BACK", value) }
                if let value = control.partHoldBack { attributes.decimal("PART-HOLD-BACK", value) }
                if control.canBlockReload { attributes.enumerated("CAN-BLOCK-RELOAD", "YES") }
                attributes.others(control.otherAttributes)
            }
        }
        if let info = playlist.partInformation {
            output.attributeLine("#EXT-X-PART-INF:") { attributes in
                attributes.decimal("PART-TARGET", info.partTarget)
                attributes.others(info.otherAttributes)
            }
        }
        writeLines(playlist.leadingLines, to: &output)
        if let skip = playlist.skip {
            output.attributeLine("#EXT-X-SKIP:") { attributes in
                attributes.integer("SKIPPED-SEGMENTS", skip.skippedSegments)
                if !skip.recentlyRemovedDateRanges.isEmpty {
                    attributes.quoted("RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges.joined(separator: "\t"))
                }
                attributes.others(skip.otherAttributes)
            }
        }

        writeSegmentsAndDateRanges(playlist, to: &output)
        writeLines(playlist.trailingLines, to: &output)
        for part in playlist.trailingParts { writePart(part, to: &output) }
        for hint in playlist.preloadHints {
            output.attributeLine("#EXT-X-PRELOAD-HINT:") { attributes in
                switch hint.kind {
                case .part: attributes.enumerated("TYPE", "PART")
                case .map: attributes.enumerated("TYPE", "MAP")
                case .other(let text): attributes.enumerated("TYPE", text)
                }
                attributes.quoted("URI", hint.uri)
                if let start = hint.byteRangeStart { attributes.integer("BYTERANGE-START", start) }
                if let length = hint.byteRangeLength { attributes.integer("BYTERANGE-LENGTH", length) }
                attributes.others(hint.otherAttributes)
            }
        }
        for report in playlist.renditionReports {
            output.attributeLine("#EXT-X-RENDITION-REPORT:") { attributes in
                attributes.quoted("URI", report.uri)
                if let value = report.lastMediaSequenceNumber { attributes.integer("LAST-MSN", value) }
                if let value = report.lastPart { attributes.integer("LAST-PART", value) }
                attributes.others(report.otherAttributes)
            }
        }
        if playlist.hasEndList { output.line("#EXT-X-ENDLIST") }
    }

    /// The segments, each date range before the segment it is attached to. The columns are
    /// read in place, one run of segments under the same state at a time, with the source
    /// text the run's URIs and titles point into: no segment value is built, nothing is
    /// retained per segment.
    private static func writeSegmentsAndDateRanges(_ playlist: MediaPlaylist, to output: inout Output) {
        let segments = playlist.segments
        let dateRanges = playlist.dateRanges
        var dateRangeIndex = 0
        var previousKeys: [EncryptionKey] = []
        var previousMap: MediaInitializationSection?
        var previousBitrate: Int?
        var lastDay = DateTime.DayMemo()
        segments.forEachContextRun { run, context in
            context.withSourceBytes { sourceBytes in
                let source = sourceBytes.baseAddress
                for index in run {
                    while dateRangeIndex < dateRanges.count, dateRanges[dateRangeIndex].segmentIndex <= index {
                        writeDateRange(dateRanges[dateRangeIndex], to: &output)
                        dateRangeIndex += 1
                    }
                    let extras = segments.extras.isMaterialized ? segments.extras[index] : nil
                    if let extras { writeLines(extras.fields.precedingLines, to: &output) }
                    let flags = segments.flags[index]
                    if flags.contains(.discontinuity) { output.line("#EXT-X-DISCONTINUITY") }
                    if index == run.lowerBound {
                        if context.keys != previousKeys {
                            if context.keys.isEmpty {
                                output.line("#EXT-X-KEY:METHOD=NONE")
                            } else {
                                for key in context.keys { writeKey(key, tag: "#EXT-X-KEY:", to: &output) }
                            }
                            previousKeys = context.keys
                        }
                        if let map = context.map, map != previousMap {
                            output.attributeLine("#EXT-X-MAP:") { attributes in
                                attributes.quoted("URI", map.uri)
                                if let range = map.byteRange { attributes.quoted("BYTERANGE", range.description) }
                                attributes.others(map.otherAttributes)
                            }
                            previousMap = map
                        }
                        if let bitrate = context.bitrate, bitrate != previousBitrate {
                            output.tag("#EXT-X-BITRATE:", bitrate)
                        }
                        previousBitrate = context.bitrate
                    }
                    if flags.contains(.explicitProgramDateTime), let date = segments.programDateTimes[index] {
                        output.append("#EXT-X-PROGRAM-DATE-TIME:")
                        date.appendISO8601(to: &output, memo: &lastDay)
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
                    let row = segments.rows[index]
                    output.append("#EXTINF:")
                    if let (value, fractionDigits) = row.duration.decimal {
                        output.decimal(value: value, fractionDigits: fractionDigits)
                    } else {
                        output.decimal(segments.duration(at: index))
                    }
                    output.byte(UInt8(ascii: ","))
                    let title = segments.titles[index]
                    if title.isOwned {
                        if let text = extras?.fields.title { output.append(string: text) }
                    } else {
                        output.append(source, title)
                    }
                    output.newline()
                    if row.uri.isOwned {
                        if let text = extras?.fields.uri { output.append(string: text) }
                    } else {
                        output.append(source, row.uri)
                    }
                    output.newline()
                }
            }
        }
        while dateRangeIndex < dateRanges.count {
            writeDateRange(dateRanges[dateRangeIndex], to: &output)
            dateRangeIndex += 1
        }
    }

    private static func writePart(_ part: PartialSegment, to output: inout Output) {
        output.attributeLine("#EXT-X-PART:") { attributes in
            attributes.decimal("DURATION", part.duration)
            attributes.quoted("URI", part.uri)
            if part.isIndependent { attributes.enumerated("INDEPENDENT", "YES") }
            if let range = part.byteRange { attributes.quoted("BYTERANGE", range.description) }
            if part.isGap { attributes.enumerated("GAP", "YES") }
            attributes.others(part.otherAttributes)
        }
    }

    private static func writeDateRange(_ range: DateRange, to output: inout Output) {
        output.attributeLine("#EXT-X-DATERANGE:") { attributes in
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
        }
    }

    // MARK: Multivariant playlists

    static func writeCanonical(_ playlist: MultivariantPlaylist, to output: inout Output) {
        output.line("#EXTM3U")
        if let version = playlist.version { output.tag("#EXT-X-VERSION:", version) }
        writeDefinitions(playlist.definitions, to: &output)
        if playlist.hasIndependentSegments { output.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { writeStart(start, to: &output) }
        if let steering = playlist.contentSteering {
            output.attributeLine("#EXT-X-CONTENT-STEERING:") { attributes in
                attributes.quoted("SERVER-URI", steering.serverURI)
                if let value = steering.pathwayID { attributes.quoted("PATHWAY-ID", value) }
                attributes.others(steering.otherAttributes)
            }
        }
        for data in playlist.sessionData {
            output.attributeLine("#EXT-X-SESSION-DATA:") { attributes in
                attributes.quoted("DATA-ID", data.dataID)
                if let value = data.value { attributes.quoted("VALUE", value) }
                if let value = data.uri { attributes.quoted("URI", value) }
                if let value = data.format { attributes.enumerated("FORMAT", value) }
                if let value = data.language { attributes.quoted("LANGUAGE", value) }
                attributes.others(data.otherAttributes)
            }
        }
        for key in playlist.sessionKeys { writeKey(key, tag: "#EXT-X-SESSION-KEY:", to: &output) }
        writeLines(playlist.leadingLines, to: &output)
        for rendition in playlist.renditions {
            writeLines(rendition.precedingLines, to: &output)
            output.attributeLine("#EXT-X-MEDIA:") { attributes in
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
            }
        }
        for variant in playlist.variants {
            writeLines(variant.precedingLines, to: &output)
            output.attributeLine("#EXT-X-STREAM-INF:") { attributes in
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
            }
            output.line(string: variant.uri)
        }
        for variant in playlist.iFrameVariants {
            writeLines(variant.precedingLines, to: &output)
            output.attributeLine("#EXT-X-I-FRAME-STREAM-INF:") { attributes in
                writeStream(variant.stream, to: &attributes)
                attributes.quoted("URI", variant.uri)
                attributes.others(variant.stream.otherAttributes)
            }
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
            output.line(string: title)
        }
        var previousGroup: String?
        for entry in playlist.entries {
            writeLines(entry.precedingLines, to: &output)
            if let group = entry.group, group != previousGroup {
                output.append("#EXTGRP:")
                output.line(string: group)
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
                output.line(string: entry.title ?? "")
            }
            output.line(string: entry.uri)
        }
        writeLines(playlist.trailingLines, to: &output)
    }

    private static func writeM3UAttribute(_ attribute: Attribute, to output: inout Output) {
        output.append(string: attribute.name)
        output.byte(UInt8(ascii: "="))
        output.append(string: attribute.rawValue)
    }

    // MARK: Shared tags

    private static func writeDefinitions(_ definitions: [VariableDefinition], to output: inout Output) {
        for definition in definitions {
            output.attributeLine("#EXT-X-DEFINE:") { attributes in
                switch definition.source {
                case .value(let value):
                    attributes.quoted("NAME", definition.name)
                    attributes.quoted("VALUE", value)
                case .imported:
                    attributes.quoted("IMPORT", definition.name)
                case .queryParameter:
                    attributes.quoted("QUERYPARAM", definition.name)
                }
            }
        }
    }

    private static func writeStart(_ start: StartOffset, to output: inout Output) {
        output.attributeLine("#EXT-X-START:") { attributes in
            attributes.decimal("TIME-OFFSET", start.timeOffset)
            if start.isPrecise { attributes.enumerated("PRECISE", "YES") }
            attributes.others(start.otherAttributes)
        }
    }

    private static func writeKey(_ key: EncryptionKey, tag: StaticString, to output: inout Output) {
        output.attributeLine(tag) { attributes in
            attributes.enumerated("METHOD", key.method.text)
            if let value = key.uri { attributes.quoted("URI", value) }
            if let value = key.iv { attributes.enumerated("IV", value) }
            if let value = key.keyFormat { attributes.quoted("KEYFORMAT", value) }
            if let value = key.keyFormatVersions { attributes.quoted("KEYFORMATVERSIONS", value) }
            attributes.others(key.otherAttributes)
        }
    }

    private static func writeLines(_ lines: [PreservedLine], to output: inout Output) {
        for line in lines { output.line(string: line.text) }
    }
}

/// Where the writer puts UTF-8 bytes, with the appenders it needs, none of which builds a
/// `String`.
///
/// Text is written straight into an array allocated at an estimated size (a parsed
/// playlist's source size is a close one), never grown and never copied: past the end the
/// output only counts, and when the estimate was short the text is written again into an
/// array of exactly the counted size.
struct Output {
    /// The buffer being written.
    private let base: UnsafeMutablePointer<UInt8>?
    private let capacity: Int
    /// The bytes appended so far, written or (past the capacity) only counted.
    private(set) var count = 0

    private init(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress
        capacity = buffer.count
    }

    /// The bytes `write` produces, in an array of `estimatedCount` bytes of capacity, or of
    /// exactly the needed size when that was too few.
    static func bytes(estimatedCount: Int, _ write: (inout Output) -> Void) -> [UInt8] {
        var needed = 0
        let estimated = [UInt8](unsafeUninitializedCapacity: max(estimatedCount, 0)) { buffer, initializedCount in
            var output = Output(into: buffer)
            write(&output)
            needed = output.count
            initializedCount = needed <= buffer.count ? needed : 0
        }
        guard needed > estimated.capacity else { return estimated }
        return [UInt8](unsafeUninitializedCapacity: needed) { buffer, initializedCount in
            var output = Output(into: buffer)
            write(&output)
            assert(output.count == needed, "the second writing differs from the first")
            initializedCount = min(output.count, buffer.count)
        }
    }

    /// Appends `bytes`: what fits is written, the rest counted.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if let base, count < capacity, let source = bytes.baseAddress {
            (base + count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: min(bytes.count, capacity - count))
        }
        count += bytes.count
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        if let base, count < capacity { base[count] = byte }
        count += 1
    }

    @inline(__always)
    mutating func newline() {
        byte(UInt8(ascii: "\n"))
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 (a separate name: a literal would pick a `String` overload
    /// over the `StaticString` one).
    @inline(__always)
    mutating func append(string text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a span of the text starting at `source`, which a segment's spans point into.
    @inline(__always)
    mutating func append(_ source: UnsafeRawPointer?, _ span: TextSpan) {
        guard span.length > 0, !span.isOwned, let source else { return }
        append(UnsafeRawBufferPointer(start: source + Int(span.offset), count: Int(span.length)))
    }

    mutating func line(_ text: StaticString) {
        append(text)
        newline()
    }

    mutating func line(string text: String) {
        append(string: text)
        newline()
    }

    mutating func tag(_ prefix: StaticString, _ value: Int) {
        append(prefix)
        integer(value)
        newline()
    }

    /// `TAG:NAME=value,NAME="value"` and a newline; `body` adds the attributes.
    mutating func attributeLine(_ tag: StaticString, _ body: (inout AttributeWriter) -> Void) {
        append(tag)
        var attributes = AttributeWriter(output: self)
        body(&attributes)
        self = attributes.output
        newline()
    }

    @inline(__always)
    mutating func integer(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsignedInteger(UInt64(value.magnitude), minimumDigits: 1)
    }

    /// Digits of `value`, left-padded with zeros to `minimumDigits`.
    @inline(__always)
    mutating func unsignedInteger(_ value: UInt64, minimumDigits: Int) {
        var digits = 1
        var rest = value / 10
        while rest != 0 {
            digits += 1
            rest /= 10
        }
        digits = max(digits, minimumDigits)
        if let base, count + digits <= capacity {
            var position = base + count + digits
            var rest = value
            for _ in 0..<digits {
                position -= 1
                position.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            count += digits
        } else {
            // Past the end: counted only.
            count += digits
        }
    }

    /// Exact decimal seconds: `6.006`, `2`, `-0.5`. Times whose timescale is not a power of
    /// ten are rounded to nanoseconds.
    mutating func decimal(_ time: MediaTime) {
        guard let value = time.value, let timescale = time.timescale else {
            append("0")
            return
        }
        var fractionDigits = 0
        var power: Int64 = 1
        while power < Int64(timescale) && fractionDigits < 9 {
            power *= 10
            fractionDigits += 1
        }
        if power == Int64(timescale) {
            decimal(value: value, fractionDigits: fractionDigits)
        } else {
            decimal(value: time.converted(toTimescale: 1_000_000_000).value ?? 0, fractionDigits: 9)
        }
    }

    /// `value / 10^fractionDigits` in decimal, trailing fraction zeros dropped.
    @inline(__always)
    mutating func decimal(value: Int64, fractionDigits: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var scale: UInt64 = 1
        for _ in 0..<fractionDigits { scale &*= 10 }
        unsignedInteger(magnitude / scale, minimumDigits: 1)
        var fraction = magnitude % scale
        guard fraction != 0 else { return }
        var digits = fractionDigits
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        byte(UInt8(ascii: "."))
        unsignedInteger(fraction, minimumDigits: digits)
    }
}

/// Adds `NAME=value` attributes to a line that ``Output/attributeLine(_:_:)`` starts and ends.
struct AttributeWriter {
    fileprivate var output: Output
    private var isFirst = true

    fileprivate init(output: Output) {
        self.output = output
    }

    private mutating func name(_ name: StaticString) {
        if !isFirst { output.byte(UInt8(ascii: ",")) }
        isFirst = false
        output.append(name)
        output.byte(UInt8(ascii: "="))
    }

    mutating func quoted(_ attribute: StaticString, _ value: String) {
        name(attribute)
        output.byte(UInt8(ascii: "\""))
        output.append(string: value)
        output.byte(UInt8(ascii: "\""))
    }

    mutating func enumerated(_ attribute: StaticString, _ value: String) {
        name(attribute)
        output.append(string: value)
    }

    mutating func integer(_ attribute: StaticString, _ value: Int) {
        name(attribute)
        output.integer(value)
    }

    mutating func decimal(_ attribute: StaticString, _ value: MediaTime) {
        name(attribute)
        output.decimal(value)
    }

    mutating func others(_ attributes: [Attribute]) {
        for attribute in attributes {
            if !isFirst { output.byte(UInt8(ascii: ",")) }
            isFirst = false
            output.append(string: attribute.name)
            output.byte(UInt8(ascii: "="))
            output.append(string: attribute.rawValue)
        }
    }
}
