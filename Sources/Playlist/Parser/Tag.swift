/// The tags hlsq interprets, by the name after `#`.
enum Tag: UInt8 {
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

    /// The name after `#`.
    var name: String {
        String(describing: staticName)
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

    /// ``name`` without a `String`, for comparing bytes.
    private var staticName: StaticString {
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

    /// The tag whose name is `line[start..<end]` (after the `#`), or nil. Compares lengths
    /// first, then bytes: no allocation, no table to initialize.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Tag? {
        let length = end - start
        var raw: UInt8 = 0
        while let tag = Tag(rawValue: raw) {
            let name = tag.staticName
            if name.utf8CodeUnitCount == length {
                let pointer = name.utf8Start
                var index = 0
                while index < length && pointer[index] == bytes[start + index] { index += 1 }
                if index == length { return tag }
            }
            raw += 1
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
