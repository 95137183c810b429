import CAVFormat
import CShims
import Glibc
import Testing

/// libavformat opens the sample MP4 and a TS segment and reports their duration and streams.
@Suite struct AVFormatBindingTests {
    struct Probe {
        var duration: Double
        var streams: [AVMediaType]
        var codecs: [String]
        var title: String?
        var chapterTitles: [String]
    }

    /// Opens `path`, reads its stream information, and returns what it found, or the
    /// libavformat error code.
    static func probe(_ path: String) -> Result<Probe, AVFormatError> {
        var context: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&context, path, nil, nil)
        guard opened == 0, let format = context else { return .failure(AVFormatError(code: opened)) }
        defer { avformat_close_input(&context) }
        let found = avformat_find_stream_info(format, nil)
        guard found >= 0 else { return .failure(AVFormatError(code: found)) }
        let streams = (0..<Int(format.pointee.nb_streams)).map { format.pointee.streams[$0]!.pointee }
        let chapters = (0..<Int(format.pointee.nb_chapters)).map { format.pointee.chapters[$0]!.pointee }
        return .success(Probe(
            duration: Double(format.pointee.duration) / Double(AV_TIME_BASE),
            streams: streams.map { $0.codecpar.pointee.codec_type },
            codecs: streams.map { String(cString: avcodec_get_name($0.codecpar.pointee.codec_id)) },
            title: metadata("title", in: format.pointee.metadata),
            chapterTitles: chapters.compactMap { metadata("title", in: $0.metadata) }
        ))
    }

    static func metadata(_ key: String, in dictionary: OpaquePointer?) -> String? {
        av_dict_get(dictionary, key, nil, 0).map { String(cString: $0.pointee.value) }
    }

    struct AVFormatError: Error, Equatable {
        var code: Int32
    }

    @Test func probesTheSampleMP4() throws {
        let probe = try Self.probe(Fixtures.path("chapters.mp4")).get()
        #expect(abs(probe.duration - 12) < 0.05)
        #expect(probe.streams.prefix(2) == [AVMEDIA_TYPE_VIDEO, AVMEDIA_TYPE_AUDIO])
        #expect(probe.codecs.prefix(2) == ["h264", "aac"])
        #expect(probe.title == "hlsq sample")
        #expect(probe.chapterTitles == ["Opening", "Middle", "Closing"])
    }

    @Test func probesATransportStreamSegment() throws {
        let probe = try Self.probe(Fixtures.path("vod-ts/segment0.ts")).get()
        #expect(abs(probe.duration - 2) < 0.1)
        #expect(Set(probe.streams.map(\.rawValue)) == [AVMEDIA_TYPE_VIDEO.rawValue, AVMEDIA_TYPE_AUDIO.rawValue])
        #expect(Set(probe.codecs) == ["h264", "aac"])
    }

    @Test func reportsErrorCodes() throws {
        #expect(Self.probe("/nonexistent/hlsq.mp4").failure == AVFormatError(code: hlsq_averror(ENOENT)))
        #expect(hlsq_averror(ENOENT) == -ENOENT)
        #expect(Self.probe(Fixtures.path("mixed.m3u")).failure == AVFormatError(code: hlsq_averror_invaliddata))
        var message = [CChar](repeating: 0, count: 128)
        #expect(av_strerror(hlsq_averror_eof, &message, message.count) == 0)
        #expect(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "End of file")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
