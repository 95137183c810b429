import MediaTime

/// Reads a media playlist in one pass. Segment tags accumulate in `pending` until the URI
/// line, which completes the segment with the state in force (keys, map, bitrate).
struct MediaPlaylistParser {
    var core: ParserCore
    let options: ParseOptions
    var playlist = MediaPlaylist(targetDuration: 0)

    private var seen: Set<Tag> = []
    private var versionLine = 1
    private var targetDurationKnown = false
    /// `targetDuration + 0.5`: a duration at or past it rounds above the target.
    private var roundingLimit = MediaTime.zero
    private var pending = PendingSegment()
    /// The keys, map and bitrate in force, shared by the segments they apply to.
    private var context: SegmentContext {
        didSet { runsChanged = true }
    }
    /// Whether the next segment's context or sequence numbers may not continue the previous
    /// segment's runs.
    private var runsChanged = true
    private var nextStart = MediaTime.zero
    private var discontinuity = 0
    private var lastDated: (date: DateTime, start: MediaTime)?
    private var sequenceTagAfterSegment = false
    private var firstDatedIndex: Int?
    /// The segments so far; moved into the playlist at the end.
    private var segments = MediaSegmentList()
    private var firstPartLine: Int?
    private var partInfLine = 1
    /// The last calendar day of an `EXT-X-PROGRAM-DATE-TIME`.
    private var lastDay = DateTime.DayMemo()
    /// The last `EXTINF` duration read: playlists repeat a few durations, and a repeated one
    /// is not parsed again.
    private var lastDuration = ReadDuration()

    private struct ReadDuration {
        /// The text, at most eight bytes as a little-endian word; 0 when it cannot be reused.
        var text: UInt64 = 0
        var length = 0
        var time = MediaTime.zero
        var packed = PackedTime(MediaTime.zero)
        /// Whether it rounds to at most the target duration (or no target is known yet):
        /// `EXT-X-TARGETDURATION` clears the memo.
        var fitsTarget = true
    }

    /// The tags read for the segment being built.
    private struct PendingSegment {
        var duration: MediaTime?
        var titleStart = 0
        var titleEnd = 0
        var extinfLine = 0
        var byteRange: (length: Int, offset: Int?, line: Int)?
        var programDateTime: DateTime?
        var isDiscontinuity = false
        var isGap = false
        /// Parts, preserved lines and strings that are not spans of the source; nil for most
        /// segments, so that the common one never touches an array or a string.
        var extras: SegmentExtras.Fields?

        /// No tag read yet for the segment.
        var isEmpty: Bool {
            duration == nil && byteRange == nil && programDateTime == nil && !isDiscontinuity && !isGap && extras == nil
        }

        var parts: [PartialSegment] { extras?.parts ?? [] }
        var precedingLines: [PreservedLine] { extras?.precedingLines ?? [] }

        mutating func changeExtras(_ change: (inout SegmentExtras.Fields) -> Void) {
            var fields = extras ?? SegmentExtras.Fields()
            change(&fields)
            extras = fields
        }

        mutating func reset() {
            duration = nil
            titleStart = 0
            titleEnd = 0
            extinfLine = 0
            byteRange = nil
            programDateTime = nil
            isDiscontinuity = false
            isGap = false
            if extras != nil { extras = nil }
        }
    }

    init(core: ParserCore, options: ParseOptions) {
        self.core = core
        self.options = options
        playlist.base = core.base
        context = SegmentContext(keys: [], map: nil, bitrate: nil, base: core.base, source: core.source)
    }

    mutating func parse() -> MediaPlaylist {
        _ = core.readHeader()
        segments.reserveCapacity(estimatedSegmentCount())
        while let line = core.nextLine() {
            if line.start == line.end { continue }
            if core.bytes[line.start] != UInt8(ascii: "#") {
                appendSegment(uriLine: line)
            } else if core.hasPrefix("#EXTINF:", at: line.start, end: line.end) {
                if !readPlainSegments(startingWith: line) { readExtinf(line) }
            } else if core.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:", at: line.start, end: line.end) {
                readTag(.programDateTime, line, line.start + 25)
            } else if core.hasPrefix("#EXT-X-BYTERANGE:", at: line.start, end: line.end) {
                readTag(.byteRange, line, line.start + 17)
            } else if core.hasPrefix("#EXT", at: line.start, end: line.end), let (tag, valueStart) = core.tag(of: line) {
                readTag(tag, line, valueStart)
            } else {
                let preserved = core.preserved(line)
                pending.changeExtras { $0.precedingLines.append(preserved) }
            }
        }
        finish()
        return playlist
    }

    /// Newlines halved: exact for `EXTINF` + URI playlists, generous for richer ones. Pages
    /// reserved and never written are not resident.
    private func estimatedSegmentCount() -> Int {
        core.bytes.count / 24
    }

    // MARK: Segments

    private mutating func readExtinf(_ line: Line) {
        let valueStart = min(line.start + 8, line.end)
        let comma = core.find(UInt8(ascii: ","), from: valueStart, end: line.end)
        if pending.duration != nil {
            core.report(.duplicateTag, line: line.number, "a segment may have only one EXTINF")
        }
        if let duration = extinfDuration(valueStart, comma, line: line) {
            pending.duration = duration
        } else {
            core.report(.invalidTagValue, line: line.number, column: core.column(line, valueStart),
                        "EXTINF needs a non-negative decimal duration")
            pending.duration = .zero
        }
        pending.titleStart = min(comma + 1, line.end)
        pending.titleEnd = line.end
        pending.extinfLine = line.number
    }

    /// The `EXTINF` duration in `buffer[start..<end]`, or nil when it is not a non-negative
    /// decimal; ``lastDuration`` then describes it.
    @inline(__always)
    private mutating func extinfDuration(_ start: Int, _ end: Int, line: Line) -> MediaTime? {
        readDuration(start, end, line: line) ? lastDuration.time : nil
    }

    /// Reads the `EXTINF` duration in `buffer[start..<end]` into ``lastDuration``, unless it
    /// has the text of the last one; false when it is not a non-negative decimal. Records
    /// that a decimal one needs version 3.
    @inline(__always)
    private mutating func readDuration(_ start: Int, _ end: Int, line: Line) -> Bool {
        let length = end - start
        let text = length > 0 && length <= 8 && start + 8 <= core.bytes.count
            ? core.word(at: start) & (UInt64.max >> (64 - 8 * length)) : 0
        if text != 0 && text == lastDuration.text && length == lastDuration.length { return true }
        guard let duration = core.decimal(start, end), let value = duration.value, value >= 0 else { return false }
        lastDuration = ReadDuration(text: text, length: length, time: duration, packed: PackedTime(duration),
                                    fitsTarget: !targetDurationKnown || duration < roundingLimit)
        if core.requiredVersion.version < 3 && core.find(UInt8(ascii: "."), from: start, end: end) < end {
            core.require(version: 3, for: "a decimal EXTINF duration", line: line.number)
        }
        return true
    }

    /// The fast path for the common segment: an `EXTINF` line without a title, then a URI
    /// line that is a span of the source, and nothing else. Starting with `first`, such an
    /// `EXTINF` line, it reads segments while they are that plain and leaves the first pair
    /// that is not to the general path, as if it had not looked at it. Returns whether it
    /// consumed `first`.
    ///
    /// It appends what ``appendSegment(uriLine:)`` would and skips only what a plain segment
    /// does not need: pending tags, optional columns, diagnostics (a pair that would report
    /// one is not plain). Durations and the running start time stay in their packed decimal
    /// form, which has the representation `MediaTime` sums give (the larger power of ten);
    /// a sum that would not fit leaves the segment to the general path.
    private mutating func readPlainSegments(startingWith first: Line) -> Bool {
        guard pending.isEmpty, lastDated == nil, segments.acceptsPlainRows else { return false }
        var start = PackedTime(nextStart)
        var extinf = first
        // Where the general path resumes when the current pair is not plain.
        var resume = core.position
        var consumed = false
        defer { if consumed, let time = start.time { nextStart = time } }
        while true {
            let valueStart = min(extinf.start + 8, extinf.end)
            let comma = core.find(UInt8(ascii: ","), from: valueStart, end: extinf.end)
            guard extinf.end - comma <= 1, readDuration(valueStart, comma, line: extinf), lastDuration.fitsTarget,
                  let end = start.adding(lastDuration.packed),
                  let (uriLine, hasBrace) = core.nextLineNotingBrace(), !hasBrace, uriLine.start < uriLine.end,
                  core.bytes[uriLine.start] != UInt8(ascii: "#"),
                  let uri = core.plainSpan(uriLine.start, uriLine.end) else {
                core.position = resume
                return consumed
            }
            if runsChanged {
                segments.startRuns(context: context, mediaSequenceNumber: playlist.mediaSequence + segments.count,
                                   discontinuitySequence: playlist.discontinuitySequence + discontinuity)
                runsChanged = false
            }
            segments.appendPlain(duration: lastDuration.packed, startTime: start, uri: uri)
            start = end
            consumed = true
            resume = core.position
            guard let next = core.nextLine(), core.hasPrefix("#EXTINF:", at: next.start, end: next.end) else {
                core.position = resume
                return true
            }
            extinf = next
        }
    }

    private mutating func appendSegment(uriLine line: Line) {
        var uriSpan = TextSpan.owned
        if let span = core.sourceSpan(line.start, line.end) {
            uriSpan = span
        } else {
            let uri = core.substituted(line.start, line.end, line: line)
            pending.changeExtras { $0.uri = uri }
        }
        let duration: MediaTime
        if let given = pending.duration {
            duration = given
        } else {
            core.report(.missingRequiredTag, line: line.number,
                        "the segment \(core.string(line.start, line.end)) has no EXTINF before it")
            duration = .zero
        }
        if targetDurationKnown && !(duration < roundingLimit) {
            reportOverTarget(duration, line: pending.extinfLine != 0 ? pending.extinfLine : line.number)
        }
        var byteRange: ByteRange?
        if let range = pending.byteRange {
            var offset = range.offset ?? 0
            if range.offset == nil {
                if let previous = segments.indices.last, let previousRange = segments.byteRanges[previous],
                   isURI(uriSpan, pending.extras?.uri, sameAsSegment: previous) {
                    offset = previousRange.end
                } else {
                    core.report(.byteRangeWithoutOffset, line: range.line,
                                "EXT-X-BYTERANGE has no offset, and the previous segment is not a sub-range of the same resource")
                }
            }
            byteRange = ByteRange(length: range.length, offset: offset)
        }
        var flags: SegmentFlags = []
        if pending.isDiscontinuity {
            discontinuity += 1
            flags.insert(.discontinuity)
            runsChanged = true
        }
        if pending.isGap { flags.insert(.gap) }
        var programDateTime: DateTime?
        if let date = pending.programDateTime {
            programDateTime = date
            flags.insert(.explicitProgramDateTime)
            lastDated = (date, nextStart)
            if firstDatedIndex == nil { firstDatedIndex = segments.count }
        } else if let lastDated {
            programDateTime = lastDated.date + (nextStart - lastDated.start)
        }
        var titleSpan = TextSpan.empty
        if pending.titleEnd > pending.titleStart {
            if let span = core.plainSpan(pending.titleStart, pending.titleEnd) {
                titleSpan = span
            } else {
                titleSpan = .owned
                let title = core.string(pending.titleStart, pending.titleEnd)
                pending.changeExtras { $0.title = title }
            }
        }
        if runsChanged {
            segments.startRuns(context: context, mediaSequenceNumber: playlist.mediaSequence + segments.count,
                               discontinuitySequence: playlist.discontinuitySequence + discontinuity)
            runsChanged = false
        }
        segments.appendParsed(
            duration: duration, startTime: nextStart, uri: uriSpan, flags: flags, programDateTime: programDateTime,
            byteRange: byteRange, title: titleSpan, extras: pending.extras.flatMap(SegmentExtras.make))
        nextStart += duration
        pending.reset()
    }

    /// Whether a URI (a span of the source, or a substituted string) is the URI of segment
    /// `index`, comparing bytes when both are spans.
    private func isURI(_ span: TextSpan, _ owned: String?, sameAsSegment index: Int) -> Bool {
        let previous = segments.rows[index].uri
        if let owned { return segments[index].uri == owned }
        if previous.isOwned { return segments[index].uri == core.string(Int(span.offset), Int(span.offset + span.length)) }
        return core.slice(Int(span.offset), Int(span.offset + span.length))
            .elementsEqual(core.slice(Int(previous.offset), Int(previous.offset + previous.length)))
    }

    private mutating func reportOverTarget(_ duration: MediaTime, line: Int) {
        core.report(.segmentExceedsTargetDuration, line: line, column: 9,
                    "the EXTINF duration \(duration) rounds to more than the target duration \(playlist.targetDuration)")
    }

    // MARK: Tags

    private mutating func readTag(_ tag: Tag, _ line: Line, _ valueStart: Int) {
        if tag.scope == .multivariant || tag.scope == .m3u {
            core.report(.mixedPlaylistKinds, line: line.number,
                        "#\(tag.name) belongs in a multivariant playlist, not in a media playlist")
            let preserved = core.preserved(line)
            pending.changeExtras { $0.precedingLines.append(preserved) }
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
            playlist.version = integerValue(line, valueStart, tag)
            versionLine = line.number
        case .independentSegments:
            playlist.hasIndependentSegments = true
        case .start:
            playlist.start = core.startOffset(line, valueStart)
        case .define:
            if let definition = core.define(line, valueStart, importing: options.importedVariables, allowsImport: true) {
                playlist.definitions.append(definition)
            }
        case .targetDuration:
            playlist.targetDuration = integerValue(line, valueStart, tag) ?? 0
            targetDurationKnown = true
            roundingLimit = MediaTime(value: Int64(playlist.targetDuration) * 2 + 1, timescale: 2)
            lastDuration = ReadDuration()
            // Segments read before the tag: reported on the tag's line.
            for index in segments.indices where segments.duration(at: index) >= roundingLimit {
                reportOverTarget(segments.duration(at: index), line: line.number)
            }
        case .mediaSequence, .discontinuitySequence:
            let value = integerValue(line, valueStart, tag) ?? 0
            if !segments.isEmpty {
                core.report(.sequenceTagAfterSegment, line: line.number, "#\(tag.name) must appear before the first segment")
                sequenceTagAfterSegment = true
            }
            runsChanged = true
            if tag == .mediaSequence { playlist.mediaSequence = value } else { playlist.discontinuitySequence = value }
        case .endList:
            playlist.hasEndList = true
        case .playlistType:
            let text = core.string(valueStart, line.end)
            if text != "EVENT" && text != "VOD" {
                core.report(.unknownEnumeratedValue, line: line.number, column: core.column(line, valueStart),
                            "EXT-X-PLAYLIST-TYPE must be EVENT or VOD, not \(text)")
            }
            playlist.playlistType = PlaylistType(text)
        case .iFramesOnly:
            playlist.isIFramesOnly = true
            core.require(version: 4, for: "EXT-X-I-FRAMES-ONLY", line: line.number)
        case .partInf:
            partInfLine = line.number
            var list = core.attributeList(line, from: valueStart)
            core.requireAttribute(list, "PART-TARGET", of: "EXT-X-PART-INF")
            if let target = core.decimalTime(&list, "PART-TARGET") {
                playlist.partInformation = PartInformation(partTarget: target, otherAttributes: core.remaining(list))
            }
        case .serverControl:
            var list = core.attributeList(line, from: valueStart)
            var control = ServerControl()
            control.canSkipUntil = core.decimalTime(&list, "CAN-SKIP-UNTIL")
            control.canSkipDateRanges = core.yesNo(&list, "CAN-SKIP-DATERANGES") ?? false
            control.holdBack = core.decimalTime(&list, "HOLD-BACK")
            control.partHoldBack = core.decimalTime(&list, "PART-HOLD-BACK")
            control.canBlockReload = core.yesNo(&list, "CAN-BLOCK-RELOAD") ?? false
            control.otherAttributes = core.remaining(list)
            playlist.serverControl = control
        case .extinf:
            readExtinf(line)
        case .byteRange:
            core.require(version: 4, for: "EXT-X-BYTERANGE", line: line.number)
            if let range = core.byteRange(valueStart, line.end) {
                pending.byteRange = (range.length, range.offset, line.number)
            } else {
                core.report(.invalidTagValue, line: line.number, column: core.column(line, valueStart),
                            "EXT-X-BYTERANGE must be length[@offset]")
            }
        case .discontinuity:
            pending.isDiscontinuity = true
        case .key:
            readKey(line, valueStart)
        case .map:
            readMap(line, valueStart)
        case .programDateTime:
            if let date = DateTime.parse(core.bytes, valueStart, line.end, memo: &lastDay) {
                pending.programDateTime = date
            } else {
                core.report(.invalidTagValue, line: line.number, column: core.column(line, valueStart),
                            "EXT-X-PROGRAM-DATE-TIME must be an ISO 8601 date-time with a time zone")
            }
        case .gap:
            pending.isGap = true
        case .bitrate:
            context = context.with(bitrate: integerValue(line, valueStart, tag))
        case .part:
            readPart(line, valueStart)
        case .dateRange:
            readDateRange(line, valueStart)
        case .skip:
            var list = core.attributeList(line, from: valueStart)
            core.require(version: 9, for: "EXT-X-SKIP", line: line.number)
            core.requireAttribute(list, "SKIPPED-SEGMENTS", of: "EXT-X-SKIP")
            let skipped = core.integer(&list, "SKIPPED-SEGMENTS") ?? 0
            let removed = core.quoted(&list, "RECENTLY-REMOVED-DATERANGES")
            if removed != nil {
                core.require(version: 10, for: "EXT-X-SKIP with RECENTLY-REMOVED-DATERANGES", line: line.number)
            }
            playlist.skip = Skip(skippedSegments: skipped,
                                 recentlyRemovedDateRanges: removed.map { $0.split(separator: "\t").map(String.init) } ?? [],
                                 otherAttributes: core.remaining(list))
        case .preloadHint:
            var list = core.attributeList(line, from: valueStart)
            core.requireAttribute(list, "TYPE", of: "EXT-X-PRELOAD-HINT")
            core.requireAttribute(list, "URI", of: "EXT-X-PRELOAD-HINT")
            let type = core.enumerated(&list, "TYPE", allowed: ["PART", "MAP"]) ?? "PART"
            var hint = PreloadHint(kind: type == "PART" ? .part : type == "MAP" ? .map : .other(type),
                                   uri: core.quoted(&list, "URI") ?? "")
            hint.byteRangeStart = core.integer(&list, "BYTERANGE-START")
            hint.byteRangeLength = core.integer(&list, "BYTERANGE-LENGTH")
            hint.otherAttributes = core.remaining(list)
            hint.base = core.base
            playlist.preloadHints.append(hint)
        case .renditionReport:
            var list = core.attributeList(line, from: valueStart)
            core.requireAttribute(list, "URI", of: "EXT-X-RENDITION-REPORT")
            var report = RenditionReport(uri: core.quoted(&list, "URI") ?? "")
            report.lastMediaSequenceNumber = core.integer(&list, "LAST-MSN")
            report.lastPart = core.integer(&list, "LAST-PART")
            report.otherAttributes = core.remaining(list)
            report.base = core.base
            playlist.renditionReports.append(report)
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering, .extgrp, .playlist:
            break
        }
    }

    private mutating func integerValue(_ line: Line, _ valueStart: Int, _ tag: Tag) -> Int? {
        guard let value = core.integer(valueStart, line.end) else {
            core.report(.invalidTagValue, line: line.number, column: core.column(line, valueStart),
                        "#\(tag.name) needs a decimal integer")
            return nil
        }
        return value
    }

    private mutating func readKey(_ line: Line, _ valueStart: Int) {
        guard let key = core.encryptionKey(line, valueStart, tagName: "EXT-X-KEY") else { return }
        if key.method == .none {
            context = context.with(keys: [])
        } else {
            // One key per format: a new key replaces the one of its format.
            let format = key.keyFormat ?? "identity"
            var keys = context.keys
            keys.removeAll { ($0.keyFormat ?? "identity") == format }
            keys.append(key)
            context = context.with(keys: keys)
        }
    }

    private mutating func readMap(_ line: Line, _ valueStart: Int) {
        var list = core.attributeList(line, from: valueStart)
        guard let uri = core.quoted(&list, "URI") else {
            core.report(.missingAttribute, line: line.number, "EXT-X-MAP requires the attribute URI")
            return
        }
        var section = MediaInitializationSection(uri: uri)
        if let range = core.byteRange(&list, "BYTERANGE") {
            section.byteRange = ByteRange(length: range.length, offset: range.offset ?? 0)
        }
        section.otherAttributes = core.remaining(list)
        section.base = core.base
        context = context.with(map: section)
        if playlist.isIFramesOnly {
            core.require(version: 5, for: "EXT-X-MAP", line: line.number)
        } else {
            core.require(version: 6, for: "EXT-X-MAP without EXT-X-I-FRAMES-ONLY", line: line.number)
        }
    }

    private mutating func readPart(_ line: Line, _ valueStart: Int) {
        if firstPartLine == nil { firstPartLine = line.number }
        var list = core.attributeList(line, from: valueStart)
        core.requireAttribute(list, "URI", of: "EXT-X-PART")
        core.requireAttribute(list, "DURATION", of: "EXT-X-PART")
        var part = PartialSegment(uri: core.quoted(&list, "URI") ?? "",
                                  duration: core.decimalTime(&list, "DURATION") ?? .zero)
        part.isIndependent = core.yesNo(&list, "INDEPENDENT") ?? false
        if let range = core.byteRange(&list, "BYTERANGE") {
            var offset = range.offset ?? 0
            if range.offset == nil {
                let previous = pending.parts.last ?? segments.last?.parts.last
                if let previous, previous.uri == part.uri, let previousRange = previous.byteRange {
                    offset = previousRange.end
                } else {
                    core.report(.byteRangeWithoutOffset, line: line.number,
                                "the part's BYTERANGE has no offset, and the previous part is not a sub-range of the same resource")
                }
            }
            part.byteRange = ByteRange(length: range.length, offset: offset)
        }
        part.isGap = core.yesNo(&list, "GAP") ?? false
        part.otherAttributes = core.remaining(list)
        part.base = core.base
        pending.changeExtras { $0.parts.append(part) }
    }

    private mutating func readDateRange(_ line: Line, _ valueStart: Int) {
        var list = core.attributeList(line, from: valueStart)
        let id = core.quoted(&list, "ID")
        if id == nil {
            core.report(.dateRangeMissingID, line: line.number, "EXT-X-DATERANGE requires an ID")
        }
        let startText = core.quoted(&list, "START-DATE")
        var startDate = startText.flatMap { DateTime(iso8601: $0) }
        // A later tag with the same ID adds attributes to the range (RFC 8216bis §4.4.5.1),
        // as the SCTE-35 example of the RFC does with its IN tag, and inherits its start.
        let earlier = id.flatMap { id in playlist.dateRanges.last { $0.id == id } }
        if startText == nil, let earlier {
            startDate = earlier.startDate
        } else if startText == nil {
            core.report(.dateRangeMissingStartDate, line: line.number, "EXT-X-DATERANGE requires a START-DATE")
        } else if startDate == nil {
            core.report(.invalidAttributeValue, line: line.number, "START-DATE must be an ISO 8601 date-time")
        }
        var range = DateRange(id: id ?? "", startDate: startDate ?? DateTime(secondsSince1970: .zero),
                              segmentIndex: segments.count)
        range.classValue = core.quoted(&list, "CLASS")
        range.cue = core.quoted(&list, "CUE").map { $0.split(separator: ",").map(String.init) } ?? []
        if let endText = core.quoted(&list, "END-DATE") {
            range.endDate = DateTime(iso8601: endText)
            if range.endDate == nil {
                core.report(.invalidAttributeValue, line: line.number, "END-DATE must be an ISO 8601 date-time")
            } else if let endDate = range.endDate, let startDate, endDate < startDate {
                core.report(.dateRangeEndBeforeStart, line: line.number, "END-DATE \(endText) is before START-DATE \(startText ?? "")")
            }
        }
        range.duration = core.decimalTime(&list, "DURATION")
        range.plannedDuration = core.decimalTime(&list, "PLANNED-DURATION")
        range.scte35Command = core.hexadecimal(&list, "SCTE35-CMD")
        range.scte35Out = core.hexadecimal(&list, "SCTE35-OUT")
        range.scte35In = core.hexadecimal(&list, "SCTE35-IN")
        if let endOnNext = core.enumerated(&list, "END-ON-NEXT", allowed: ["YES"]) {
            range.endOnNext = endOnNext == "YES"
        }
        for attribute in core.remaining(list) {
            if attribute.name.hasPrefix("X-") { range.clientAttributes.append(attribute) } else { range.otherAttributes.append(attribute) }
        }
        range.position = SourcePosition(line: line.number)
        playlist.dateRanges.append(range)
    }

    // MARK: End

    private mutating func finish() {
        playlist.segments = segments
        segments = []
        playlist.trailingLines = pending.precedingLines
        playlist.trailingParts = pending.parts
        if pending.duration != nil {
            core.report(.missingURI, line: pending.extinfLine, "the last EXTINF has no URI line after it")
        }
        // Lines before the first segment belong to the header.
        if let first = playlist.segments.first, !first.precedingLines.isEmpty {
            playlist.leadingLines = first.precedingLines
            playlist.segments[0].precedingLines = []
        }
        if !seen.contains(.targetDuration) {
            core.report(.missingRequiredTag, line: 1, "a media playlist requires EXT-X-TARGETDURATION")
            let longest = playlist.segments.map(\.duration).max() ?? .zero
            playlist.targetDuration = Int(longest.converted(toTimescale: 1).value ?? 0)
        }
        if playlist.partInformation != nil && playlist.serverControl?.partHoldBack == nil {
            core.report(.missingAttribute, line: partInfLine,
                        "a playlist with EXT-X-PART-INF requires EXT-X-SERVER-CONTROL with PART-HOLD-BACK")
        }
        if let firstPartLine, playlist.partInformation == nil {
            core.report(.partWithoutPartInf, line: firstPartLine, "EXT-X-PART requires EXT-X-PART-INF in the playlist")
        }
        if sequenceTagAfterSegment {
            playlist.recomputeTimeline()
        } else if let firstDatedIndex {
            playlist.segments.extrapolateDatesBackward(from: firstDatedIndex)
        }
        core.checkVersion(declared: playlist.version, line: versionLine)
        assert(playlist.checkInvariants())
    }
}
