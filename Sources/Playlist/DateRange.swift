import MediaTime

/// `EXT-X-DATERANGE`: a range of time with attributes (ad breaks, chapters, interstitials).
public struct DateRange: Sendable, Hashable {
    public var id: String
    public var classValue: String?
    public var startDate: DateTime
    /// `CUE`: `PRE`, `POST`, `ONCE`.
    public var cue: [String]
    public var endDate: DateTime?
    public var duration: MediaTime?
    public var plannedDuration: MediaTime?
    /// The `SCTE35-CMD`, `SCTE35-OUT`, `SCTE35-IN` hexadecimal sequences as written (`0x…`).
    public var scte35Command: String?
    public var scte35Out: String?
    public var scte35In: String?
    public var endOnNext: Bool
    /// The `X-` client attributes, in order, values as written.
    public var clientAttributes: [Attribute]
    public var otherAttributes: [Attribute]
    /// How many segments precede the tag in the playlist; the writer puts it back there.
    public var segmentIndex: Int
    public var position: SourcePosition

    public init(id: String, startDate: DateTime, segmentIndex: Int = 0) {
        self.id = id
        classValue = nil
        self.startDate = startDate
        cue = []
        endOnNext = false
        clientAttributes = []
        otherAttributes = []
        self.segmentIndex = segmentIndex
        position = .none
    }

    /// The end: `END-DATE`, else `START-DATE + DURATION`, else nil.
    public var effectiveEndDate: DateTime? {
        endDate ?? duration.map { startDate + $0 }
    }
}
