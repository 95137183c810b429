/// The tags hlsq interprets, by the name after `#`.
enum Tag: UInt8, CaseIterable {
    // Basic and either kind
    case extm3u, version, independentSegments, start, define
    // Media playlist
    case targetDuration, mediaSequence, discontinuitySequence, endList, playlistType, iFramesOnly
    case partInf, serverControl
    // Segments and media metadata
    case extinf, byteRange, discontinuity, key, map, programDateTime, gap, bitrate, part
    case dateRange, skip, preloadHint, renditionReport
    // Multivariant playlist
    case media, streamInf, iFrameStreamInf, sessionData, sessionKey, contentSteering
    // Extended M3U
    case extgrp, playlist

    var name: String {
        switch self {
        case .extm3u: "EXTM3U"
        case .version: "EXT-X-VERSION"
        case .independentSegments: "EXT-X-INDEPENDENT-SEGMENTS"
        case .start: "EXT-X-START"
        case .define: "EXT-X-DEFINE"
        case .targetDuration: "EXT-X-TARGETDURATION"
        case .mediaSequence: "EXT-X-MEDIA-SEQUENCE"
        case .discontinuitySequence: "EXT-X-DISCONTINUITY-SEQUENCE"
        case .endList: "EXT-X-ENDLIST"
        case .playlistType: "EXT-X-PLAYLIST-TYPE"
        case .iFramesOnly: "EXT-X-I-FRAMES-ONLY"
        case .partInf: "EXT-X-PART-INF"
        case .serverControl: "EXT-X-SERVER-CONTROL"
        case .extinf: "EXTINF"
        case .byteRange: "EXT-X-BYTERANGE"
        case .discontinuity: "EXT-X-DISCONTINUITY"
        case .key: "EXT-X-KEY"
        case .map: "EXT-X-MAP"
        case .programDateTime: "EXT-X-PROGRAM-DATE-TIME"
        case .gap: "EXT-X-GAP"
        case .bitrate: "EXT-X-BITRATE"
        case .part: "EXT-X-PART"
        case .dateRange: "EXT-X-DATERANGE"
        case .skip: "EXT-X-SKIP"
        case .preloadHint: "EXT-X-PRELOAD-HINT"
        case .renditionReport: "EXT-X-RENDITION-REPORT"
        case .media: "EXT-X-MEDIA"
        case .streamInf: "EXT-X-STREAM-INF"
        case .iFrameStreamInf: "EXT-X-I-FRAME-STREAM-INF"
        case .sessionData: "EXT-X-SESSION-DATA"
        case .sessionKey: "EXT-X-SESSION-KEY"
        case .contentSteering: "EXT-X-CONTENT-STEERING"
        case .extgrp: "EXTGRP"
        case .playlist: "PLAYLIST"
        }
    }

    enum Scope {
        case common, media, multivariant, m3u
    }

    var scope: Scope {
        switch self {
        case .extm3u, .version, .independentSegments, .start, .define: .common
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering: .multivariant
        case .extgrp, .playlist: .m3u
        case .extinf: .common
        default: .media
        }
    }

    /// Whether the tag may appear at most once in a playlist.
    var isSingleton: Bool {
        switch self {
        case .version, .independentSegments, .start, .targetDuration, .mediaSequence, .discontinuitySequence,
             .endList, .playlistType, .iFramesOnly, .partInf, .serverControl, .skip, .contentSteering:
            true
        default:
            false
        }
    }

    private static let namesByLength: [[(bytes: [UInt8], tag: Tag)]] = {
        var table = Array(repeating: [(bytes: [UInt8], tag: Tag)](), count: 32)
        for tag in Tag.allCases {
            let bytes = Array(tag.name.utf8)
            table[bytes.count].append((bytes, tag))
        }
        return table
    }()

    /// The tag whose name is `line[start..<end]` (after the `#`), or nil.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Tag? {
        let length = end - start
        guard length < namesByLength.count else { return nil }
        for candidate in namesByLength[length] {
            var matches = true
            for index in 0..<length where candidate.bytes[index] != bytes[start + index] {
                matches = false
                break
            }
            if matches { return candidate.tag }
        }
        return nil
    }
}

extension ParserCore {
    /// The tag on `line` and where its value starts (after the `:`), or nil for a comment or an
    /// unknown tag.
    @inline(__always)
    func tag(of line: Line) -> (tag: Tag, valueStart: Int)? {
        var nameEnd = line.start + 1
        while nameEnd < line.end, bytes[nameEnd] != UInt8(ascii: ":") && bytes[nameEnd] != UInt8(ascii: " ") {
            nameEnd += 1
        }
        guard let tag = Tag.lookup(bytes, line.start + 1, nameEnd) else { return nil }
        return (tag, nameEnd < line.end && bytes[nameEnd] == UInt8(ascii: ":") ? nameEnd + 1 : nameEnd)
    }
}
