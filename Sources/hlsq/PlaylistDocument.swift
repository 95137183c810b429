import MediaTime
import Playlist

// The JSON document of `hlsq inspect --json`. Times are seconds as numbers; exact values
// are rounded to doubles only here, at the edge.

struct PlaylistDocument: Encodable {
    let source: String
    let kind: String
    let version: Int?
    let targetDuration: Int?
    let mediaSequence: Int?
    let discontinuitySequence: Int?
    let playlistType: String?
    let endList: Bool?
    let iFramesOnly: Bool?
    let duration: Double?
    let serverControl: ServerControlDocument?
    let partTarget: Double?
    let segments: [SegmentDocument]?
    let dateRanges: [DateRangeDocument]?
    let variants: [VariantDocument]?
    let iFrameVariants: [VariantDocument]?
    let renditions: [RenditionDocument]?
    let entries: [EntryDocument]?
    let diagnostics: [DiagnosticDocument]

    init(source: String, result: ParseResult) {
        self.source = source
        kind = result.playlist.kindName
        diagnostics = result.diagnostics.map(DiagnosticDocument.init)
        let media = result.playlist.media
        let multivariant = result.playlist.multivariant
        version = media?.version ?? multivariant?.version
        targetDuration = media?.targetDuration
        mediaSequence = media?.mediaSequence
        discontinuitySequence = media?.discontinuitySequence
        playlistType = media?.playlistType?.text
        endList = media?.hasEndList
        iFramesOnly = media?.isIFramesOnly
        duration = media?.duration.seconds
        serverControl = media?.serverControl.map(ServerControlDocument.init)
        partTarget = media?.partInformation?.partTarget.seconds
        segments = media?.segments.map(SegmentDocument.init)
        dateRanges = media?.dateRanges.map(DateRangeDocument.init)
        variants = multivariant?.variants.map(VariantDocument.init)
        iFrameVariants = multivariant?.iFrameVariants.map(VariantDocument.init)
        renditions = multivariant?.renditions.map(RenditionDocument.init)
        entries = result.playlist.m3u?.entries.map(EntryDocument.init)
    }
}

struct DiagnosticDocument: Encodable {
    let line: Int
    let column: Int
    let severity: String
    let rule: String
    let message: String

    init(_ diagnostic: Diagnostic) {
        line = diagnostic.line
        column = diagnostic.column
        severity = diagnostic.severity.rawValue
        rule = diagnostic.rule.rawValue
        message = diagnostic.message
    }
}

struct ServerControlDocument: Encodable {
    let canSkipUntil: Double?
    let canSkipDateRanges: Bool
    let holdBack: Double?
    let partHoldBack: Double?
    let canBlockReload: Bool

    init(_ control: ServerControl) {
        canSkipUntil = control.canSkipUntil?.seconds
        canSkipDateRanges = control.canSkipDateRanges
        holdBack = control.holdBack?.seconds
        partHoldBack = control.partHoldBack?.seconds
        canBlockReload = control.canBlockReload
    }
}

struct SegmentDocument: Encodable {
    let mediaSequence: Int
    let discontinuitySequence: Int
    let start: Double?
    let duration: Double?
    let uri: String
    let url: String
    let title: String?
    let byteRange: String?
    let programDateTime: String?
    let discontinuity: Bool
    let gap: Bool
    let bitrate: Int?
    let keys: [String]?
    let map: String?
    let parts: Int?

    init(_ segment: MediaSegment) {
        mediaSequence = segment.mediaSequenceNumber
        discontinuitySequence = segment.discontinuitySequence
        start = segment.startTime.seconds
        duration = segment.duration.seconds
        uri = segment.uri
        url = segment.url
        title = segment.title.isEmpty ? nil : segment.title
        byteRange = segment.byteRange?.description
        programDateTime = segment.programDateTime?.iso8601
        discontinuity = segment.isDiscontinuity
        gap = segment.isGap
        bitrate = segment.bitrate
        keys = segment.keys.isEmpty ? nil : segment.keys.map { "\($0.method.text) \($0.url ?? "")" }
        map = segment.map?.url
        parts = segment.parts.isEmpty ? nil : segment.parts.count
    }
}

struct DateRangeDocument: Encodable {
    let id: String
    let classValue: String?
    let startDate: String
    let endDate: String?
    let duration: Double?
    let plannedDuration: Double?
    let scte35Out: String?
    let scte35In: String?
    let clientAttributes: [String: String]

    init(_ range: DateRange) {
        id = range.id
        classValue = range.classValue
        startDate = range.startDate.iso8601
        endDate = range.endDate?.iso8601
        duration = range.duration?.seconds
        plannedDuration = range.plannedDuration?.seconds
        scte35Out = range.scte35Out
        scte35In = range.scte35In
        clientAttributes = Dictionary(range.clientAttributes.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    enum CodingKeys: String, CodingKey {
        case id, startDate, endDate, duration, plannedDuration, scte35Out, scte35In, clientAttributes
        case classValue = "class"
    }
}

struct VariantDocument: Encodable {
    let uri: String
    let url: String
    let bandwidth: Int
    let averageBandwidth: Int?
    let codecs: [String]
    let resolution: String?
    var frameRate: Double?
    var audio: String?
    let video: String?
    var subtitles: String?
    var closedCaptions: String?

    init(_ variant: Variant) {
        self.init(uri: variant.uri, url: variant.url, stream: variant.stream)
        frameRate = variant.frameRate
        audio = variant.audioGroup
        subtitles = variant.subtitlesGroup
        switch variant.closedCaptions {
        case .group(let group): closedCaptions = group
        case .none?: closedCaptions = "NONE"
        case nil: closedCaptions = nil
        }
    }

    init(_ variant: IFrameVariant) {
        self.init(uri: variant.uri, url: variant.url, stream: variant.stream)
    }

    private init(uri: String, url: String, stream: StreamAttributes) {
        self.uri = uri
        self.url = url
        bandwidth = stream.bandwidth
        averageBandwidth = stream.averageBandwidth
        codecs = stream.codecs
        resolution = stream.resolution?.description
        video = stream.videoGroup
        frameRate = nil
        audio = nil
        subtitles = nil
        closedCaptions = nil
    }
}

struct RenditionDocument: Encodable {
    let type: String
    let groupID: String
    let name: String
    let language: String?
    let isDefault: Bool
    let autoselect: Bool
    let forced: Bool
    let channels: String?
    let instreamID: String?
    let uri: String?
    let url: String?

    init(_ rendition: Rendition) {
        type = rendition.type.text
        groupID = rendition.groupID
        name = rendition.name
        language = rendition.language
        isDefault = rendition.isDefault
        autoselect = rendition.isAutoselect
        forced = rendition.isForced
        channels = rendition.channels
        instreamID = rendition.instreamID
        uri = rendition.uri
        url = rendition.url
    }

    enum CodingKeys: String, CodingKey {
        case type, groupID = "groupId", name, language, autoselect, forced, channels, instreamID = "instreamId", uri, url
        case isDefault = "default"
    }
}

struct EntryDocument: Encodable {
    let uri: String
    let url: String
    let title: String?
    let duration: Double?
    let group: String?
    let attributes: [String: String]

    init(_ entry: M3UEntry) {
        uri = entry.uri
        url = entry.url
        title = entry.title
        duration = entry.duration?.seconds
        group = entry.groupTitle
        attributes = Dictionary(entry.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
