import MediaTime

/// The segments of a ``MediaPlaylist``, in playlist order: a random-access, mutable,
/// range-replaceable collection of ``MediaSegment`` values with `Int` indices from zero, used
/// like an array (`segments[i]`, `for segment in segments`, `segments.append(_:)`,
/// `segments.insert(_:at:)`, array literals).
///
/// Storage: the segments are kept column by column, and each read builds a ``MediaSegment``
/// from its row. Nothing per segment is a reference, so a list of 100,000 parsed segments is
/// a few arrays of plain values that take a fraction of the playlist's size and cost no
/// reference counting to build or to drop:
/// - every segment has a 24-byte row: its duration and start time (``PackedTime``) and its
///   URI as a span of the source text;
/// - what most playlists never use (flags, dates, byte ranges, titles, parts, preserved
///   lines, times that do not pack) takes no space until one segment has it, then one slot
///   per segment (``LazyColumn``);
/// - what changes rarely along the list (the keys, map and bitrate in force, the
///   discontinuity sequence, the media sequence number) is stored once per run of segments
///   (``RunColumn``).
///
/// Semantics are those of an array of ``MediaSegment``: a segment stored and read back is
/// equal to what was stored, derived values included (they are brought up to date by
/// ``MediaPlaylist/recomputeTimeline()``, not by storing). Two lists are equal when their
/// segments are, in order.
///
/// Invariant (``checkInvariants()``): every column describes exactly ``count`` segments, and a
/// row whose time does not pack has that time in the matching side column.
public struct MediaSegmentList: Sendable {
    /// What every segment has.
    struct Row {
        var duration: PackedTime
        var startTime: PackedTime
        var uri: TextSpan
    }

    private(set) var rows: [Row] = []
    /// Durations and start times that ``PackedTime`` does not hold, for the rows that say so.
    private var unpackedDurations = LazyColumn<MediaTime?>(absent: nil)
    private var unpackedStartTimes = LazyColumn<MediaTime?>(absent: nil)
    private(set) var flags = LazyColumn<SegmentFlags>(absent: [])
    private(set) var programDateTimes = LazyColumn<DateTime?>(absent: nil)
    private(set) var byteRanges = LazyColumn<ByteRange?>(absent: nil)
    private(set) var titles = LazyColumn<TextSpan>(absent: .empty)
    private(set) var extras = LazyColumn<SegmentExtras?>(absent: nil)
    private(set) var contexts = RunColumn<Repeated<ContextReference>>()
    private var mediaSequenceNumbers = RunColumn<Counting>()
    private var discontinuitySequences = RunColumn<Repeated<Int>>()

    /// An empty list.
    public init() {}

    // MARK: Reading columns

    // One field of segment `index`, read from its column without building the segment: a
    // search or a scheduler that reads times along many segments pays neither for the other
    // columns nor for retaining the segment's shared state.

    /// The ``MediaSegment/duration`` of segment `index`.
    @inline(__always)
    public func duration(at index: Int) -> MediaTime {
        rows[index].duration.time ?? unpackedDurations[index] ?? .invalid
    }

    /// The ``MediaSegment/startTime`` of segment `index`.
    @inline(__always)
    public func startTime(at index: Int) -> MediaTime {
        rows[index].startTime.time ?? unpackedStartTimes[index] ?? .invalid
    }

    /// The ``MediaSegment/isGap`` of segment `index`.
    @inline(__always)
    public func isGap(at index: Int) -> Bool {
        flags[index].contains(.gap)
    }

    /// The ``MediaSegment/mediaSequenceNumber`` of segment `index`.
    @inline(__always)
    public func mediaSequenceNumber(at index: Int) -> Int {
        mediaSequenceNumbers[index].value
    }

    @inline(__always)
    func context(at index: Int) -> SegmentContext {
        contexts[index].value.context
    }

    /// Calls `body` with each run of segments under the same state (keys, map, bitrate) and
    /// that state, in order.
    func forEachContextRun(_ body: (Range<Int>, SegmentContext) -> Void) {
        let starts = contexts.starts
        for run in starts.indices {
            let end = run + 1 < starts.count ? starts[run + 1] : rows.count
            body(starts[run]..<end, contexts.values[run].value.context)
        }
    }

    // MARK: Writing columns

    /// Appends a segment read by the parser, straight into the columns, with the state of the
    /// segment before it (``startRuns(context:mediaSequenceNumber:discontinuitySequence:)``
    /// changes that state first).
    mutating func appendParsed(duration: MediaTime, startTime: MediaTime, uri: TextSpan, flags: SegmentFlags,
                               programDateTime: DateTime?, byteRange: ByteRange?, title: TextSpan,
                               extras: SegmentExtras?) {
        let index = rows.count
        let row = Row(duration: PackedTime(duration), startTime: PackedTime(startTime), uri: uri)
        rows.append(row)
        // Columns that start now get the capacity the rows have.
        let capacity = rows.capacity
        if row.duration == .elsewhere { unpackedDurations.append(duration, at: index, capacity: capacity) }
        if row.startTime == .elsewhere { unpackedStartTimes.append(startTime, at: index, capacity: capacity) }
        self.flags.append(flags, at: index, capacity: capacity)
        programDateTimes.append(programDateTime, at: index, capacity: capacity)
        byteRanges.append(byteRange, at: index, capacity: capacity)
        titles.append(title, at: index, capacity: capacity)
        if extras != nil || self.extras.isMaterialized { self.extras.append(extras, at: index, capacity: capacity) }
    }

    /// Whether ``appendPlain(duration:startTime:uri:)`` may append: no segment has flags, a
    /// date, a byte range, a title or extras, so that a new segment without them is a row.
    var acceptsPlainRows: Bool {
        !flags.isMaterialized && !programDateTimes.isMaterialized && !byteRanges.isMaterialized
            && !titles.isMaterialized && !extras.isMaterialized
    }

    /// Appends a segment that has nothing but a duration, a start and a URI, both times
    /// packed, when ``acceptsPlainRows``.
    @inline(__always)
    mutating func appendPlain(duration: PackedTime, startTime: PackedTime, uri: TextSpan) {
        assert(duration != .elsewhere && startTime != .elsewhere && acceptsPlainRows)
        rows.append(Row(duration: duration, startTime: startTime, uri: uri))
    }

    /// Sets the state in force from the next appended segment on: the parser calls it before
    /// the first segment and before a segment whose context or sequence numbers do not
    /// continue those of the segment before it.
    mutating func startRuns(context: SegmentContext, mediaSequenceNumber: Int, discontinuitySequence: Int) {
        let index = rows.count
        contexts.append(Repeated(value: ContextReference(context: context)), at: index)
        mediaSequenceNumbers.append(Counting(value: mediaSequenceNumber), at: index)
        discontinuitySequences.append(Repeated(value: discontinuitySequence), at: index)
    }

    /// Stores `segment` at `index`, one column at a time.
    private mutating func set(_ segment: MediaSegment, at index: Int) {
        let count = rows.count
        rows[index] = Row(duration: PackedTime(segment.duration), startTime: PackedTime(segment.startTime),
                          uri: segment.uriSpan)
        unpackedDurations.set(rows[index].duration == .elsewhere ? segment.duration : nil, at: index, count: count)
        unpackedStartTimes.set(rows[index].startTime == .elsewhere ? segment.startTime : nil, at: index, count: count)
        flags.set(segment.flags, at: index, count: count)
        programDateTimes.set(segment.programDateTime, at: index, count: count)
        byteRanges.set(segment.byteRange, at: index, count: count)
        titles.set(segment.titleSpan, at: index, count: count)
        extras.set(segment.extras, at: index, count: count)
        setRun(Repeated(value: ContextReference(context: segment.context)), at: index, in: &contexts)
        setRun(Counting(value: segment.mediaSequenceNumber), at: index, in: &mediaSequenceNumbers)
        setRun(Repeated(value: segment.discontinuitySequence), at: index, in: &discontinuitySequences)
        assert(checkInvariants())
    }

    private func setRun<Value>(_ value: Value, at index: Int, in column: inout RunColumn<Value>) {
        if column[index] != value {
            column.replaceSubrange(index..<index + 1, with: CollectionOfOne(value), count: rows.count)
        }
    }

    private mutating func setStartTime(_ time: MediaTime, at index: Int) {
        rows[index].startTime = PackedTime(time)
        unpackedStartTimes.set(rows[index].startTime == .elsewhere ? time : nil, at: index, count: rows.count)
    }

    // MARK: Timeline

    /// Recomputes what the segments derive from their order; see
    /// ``MediaPlaylist/recomputeTimeline()``.
    mutating func recomputeTimeline(mediaSequence: Int, discontinuitySequence: Int) {
        mediaSequenceNumbers.removeAll()
        discontinuitySequences.removeAll()
        var start = MediaTime.zero
        var discontinuity = discontinuitySequence
        var lastDated: (date: DateTime, start: MediaTime)?
        var firstExplicit: Int?
        for index in rows.indices {
            let flags = self.flags[index]
            if flags.contains(.discontinuity) { discontinuity += 1 }
            mediaSequenceNumbers.append(Counting(value: mediaSequence + index), at: index)
            discontinuitySequences.append(Repeated(value: discontinuity), at: index)
            setStartTime(start, at: index)
            if flags.contains(.explicitProgramDateTime) {
                if firstExplicit == nil { firstExplicit = index }
                if let date = programDateTimes[index] { lastDated = (date, start) }
            }
            if !flags.contains(.explicitProgramDateTime) || programDateTimes[index] == nil {
                programDateTimes.set(lastDated.map { $0.date + (start - $0.start) }, at: index, count: rows.count)
            }
            start += duration(at: index)
        }
        if let firstExplicit { extrapolateDatesBackward(from: firstExplicit) }
    }

    /// Gives the segments before `first`, the first dated one, a date counted back from it.
    mutating func extrapolateDatesBackward(from first: Int) {
        guard let date = programDateTimes[first] else { return }
        let anchor = startTime(at: first)
        for index in 0..<first {
            programDateTimes.set(date + (startTime(at: index) - anchor), at: index, count: rows.count)
        }
    }

    /// Whether the storage invariants in the type's documentation hold.
    public func checkInvariants() -> Bool {
        let count = rows.count
        guard unpackedDurations.isValid(count: count), unpackedStartTimes.isValid(count: count),
              flags.isValid(count: count), programDateTimes.isValid(count: count), byteRanges.isValid(count: count),
              titles.isValid(count: count), extras.isValid(count: count), contexts.isValid(count: count),
              mediaSequenceNumbers.isValid(count: count), discontinuitySequences.isValid(count: count) else { return false }
        return rows.indices.allSatisfy { index in
            (rows[index].duration != .elsewhere || unpackedDurations[index] != nil)
                && (rows[index].startTime != .elsewhere || unpackedStartTimes[index] != nil)
        }
    }

    /// Whether both lists share every column's storage: then they are equal without looking
    /// at a segment (an unedited copy of a parsed list).
    private func sharesStorage(with other: MediaSegmentList) -> Bool {
        func same<Element>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
            lhs.withUnsafeBufferPointer { left in
                rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress && left.count == right.count }
            }
        }
        return same(rows, other.rows) && same(unpackedDurations.values, other.unpackedDurations.values)
            && same(unpackedStartTimes.values, other.unpackedStartTimes.values) && same(flags.values, other.flags.values)
            && same(programDateTimes.values, other.programDateTimes.values)
            && same(byteRanges.values, other.byteRanges.values) && same(titles.values, other.titles.values)
            && same(extras.values, other.extras.values)
            && same(contexts.starts, other.contexts.starts) && same(contexts.values, other.contexts.values)
            && same(mediaSequenceNumbers.starts, other.mediaSequenceNumbers.starts)
            && same(mediaSequenceNumbers.values, other.mediaSequenceNumbers.values)
            && same(discontinuitySequences.starts, other.discontinuitySequences.starts)
            && same(discontinuitySequences.values, other.discontinuitySequences.values)
    }
}

/// A shared context compared by identity, so that a run continues only under the same one.
struct ContextReference: Equatable {
    let context: SegmentContext

    static func == (lhs: ContextReference, rhs: ContextReference) -> Bool { lhs.context === rhs.context }
}

extension MediaSegmentList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows.count }

    public subscript(position: Int) -> MediaSegment {
        get {
            let row = rows[position]
            return MediaSegment(
                duration: row.duration.time ?? unpackedDurations[position] ?? .invalid, flags: flags[position],
                startTime: row.startTime.time ?? unpackedStartTimes[position] ?? .invalid,
                programDateTime: programDateTimes[position],
                mediaSequenceNumber: mediaSequenceNumbers[position].value,
                discontinuitySequence: discontinuitySequences[position].value, byteRange: byteRanges[position],
                context: context(at: position), extras: extras[position], uriSpan: row.uri, titleSpan: titles[position])
        }
        set { set(newValue, at: position) }
    }

    public mutating func replaceSubrange<Segments: Collection<MediaSegment>>(_ range: Range<Int>, with newSegments: Segments) {
        let count = rows.count
        let segments = Array(newSegments)
        let durations = segments.map(\.duration)
        let startTimes = segments.map(\.startTime)
        let newRows = segments.map { Row(duration: PackedTime($0.duration), startTime: PackedTime($0.startTime), uri: $0.uriSpan) }
        rows.replaceSubrange(range, with: newRows)
        unpackedDurations.replaceSubrange(range, with: zip(newRows, durations).map { $0.duration == .elsewhere ? $1 : nil },
                                          count: count)
        unpackedStartTimes.replaceSubrange(range, with: zip(newRows, startTimes).map { $0.startTime == .elsewhere ? $1 : nil },
                                           count: count)
        flags.replaceSubrange(range, with: segments.map(\.flags), count: count)
        programDateTimes.replaceSubrange(range, with: segments.map(\.programDateTime), count: count)
        byteRanges.replaceSubrange(range, with: segments.map(\.byteRange), count: count)
        titles.replaceSubrange(range, with: segments.map(\.titleSpan), count: count)
        extras.replaceSubrange(range, with: segments.map(\.extras), count: count)
        contexts.replaceSubrange(range, with: segments.map { Repeated(value: ContextReference(context: $0.context)) },
                                 count: count)
        mediaSequenceNumbers.replaceSubrange(range, with: segments.map { Counting(value: $0.mediaSequenceNumber) },
                                             count: count)
        discontinuitySequences.replaceSubrange(range, with: segments.map { Repeated(value: $0.discontinuitySequence) },
                                               count: count)
        assert(checkInvariants())
    }

    public mutating func reserveCapacity(_ capacity: Int) {
        rows.reserveCapacity(capacity)
        flags.reserveCapacity(capacity)
        programDateTimes.reserveCapacity(capacity)
        byteRanges.reserveCapacity(capacity)
    }
}

extension MediaSegmentList: ExpressibleByArrayLiteral {
    public init(arrayLiteral segments: MediaSegment...) {
        self.init(segments)
    }
}

extension MediaSegmentList: Hashable {
    public static func == (lhs: MediaSegmentList, rhs: MediaSegmentList) -> Bool {
        lhs.count == rhs.count && (lhs.sharesStorage(with: rhs) || lhs.elementsEqual(rhs))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for segment in self { hasher.combine(segment) }
    }
}

extension MediaSegmentList: CustomStringConvertible {
    /// The segments as an array would print them.
    public var description: String { Array(self).description }
}
