import CAVFormat
import CShims
import Glibc

/// Why libavformat could not probe a media file.
///
/// Like ``HTTPError`` it wraps a ``Code`` and carries context: the location, libavformat's
/// error code (an `AVERROR` value) and its message. ``isMediaProblem`` separates media that
/// cannot be read (invalid data, an unsupported format, no streams) from failures to reach
/// it (missing file, network), which is what `hlsq probe` turns into exit codes 1 and 2.
public struct ProbeError: Error, Sendable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable, Hashable {
            case notFound = "not found"
            case accessDenied = "access denied"
            case networkFailure = "network failure"
            case invalidData = "invalid data"
            case unsupportedFormat = "unsupported format"
            case noStreams = "no streams"
            case timedOut = "timed out"
            case cancelled = "cancelled"
            case failed = "failed"
        }

        fileprivate let value: Value

        /// No such file, or HTTP 404.
        public static let notFound = Code(value: .notFound)
        /// Permission denied, or HTTP 401 or 403.
        public static let accessDenied = Code(value: .accessDenied)
        /// The server could not be reached or failed (refused, reset, DNS, other HTTP errors).
        public static let networkFailure = Code(value: .networkFailure)
        /// The bytes are not a media file libavformat understands, or are damaged.
        public static let invalidData = Code(value: .invalidData)
        /// No demuxer, protocol or decoder for this input.
        public static let unsupportedFormat = Code(value: .unsupportedFormat)
        /// The container opened but holds no stream.
        public static let noStreams = Code(value: .noStreams)
        /// The probe took longer than its timeout.
        public static let timedOut = Code(value: .timedOut)
        /// The probing task was cancelled.
        public static let cancelled = Code(value: .cancelled)
        /// Any other libavformat failure; see ``ProbeError/averror``.
        public static let failed = Code(value: .failed)

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// The path or URL probed.
    public let location: String
    /// libavformat's error code (negative), when it reported the failure.
    public let averror: Int32?
    /// What went wrong, in a sentence (libavformat's own message when it has one).
    public let message: String

    /// An error as the probe reports it; public so that other targets' tests can build
    /// loader reports without provoking a real failure.
    public init(_ code: Code, location: String, averror: Int32? = nil, message: String) {
        self.code = code
        self.location = location
        self.averror = averror
        self.message = message
    }

    /// True when the media itself is the problem: it was read but cannot be probed.
    public var isMediaProblem: Bool {
        [.invalidData, .unsupportedFormat, .noStreams].contains(code)
    }

    public var description: String {
        "\(location): \(code): \(message)"
    }

    /// The error for libavformat's result `averror`, given whether the probe was cancelled
    /// or ran out of time (both end libavformat with `AVERROR_EXIT`).
    static func from(averror: Int32, location: String, interruption: ProbeInterruption.Reason?) -> ProbeError {
        let code: Code
        switch averror {
        case hlsq_averror_exit where interruption == .cancelled:
            code = .cancelled
        case hlsq_averror_exit where interruption == .timedOut, hlsq_averror(ETIMEDOUT):
            code = .timedOut
        case hlsq_averror(ENOENT), hlsq_averror(ENOTDIR), hlsq_averror_http_not_found:
            code = .notFound
        case hlsq_averror(EACCES), hlsq_averror(EPERM), hlsq_averror_http_forbidden, hlsq_averror_http_unauthorized:
            code = .accessDenied
        case hlsq_averror_invaliddata, hlsq_averror_eof:
            code = .invalidData
        case hlsq_averror_demuxer_not_found, hlsq_averror_protocol_not_found, hlsq_averror_decoder_not_found,
             hlsq_averror_stream_not_found:
            code = .unsupportedFormat
        case hlsq_averror(ECONNREFUSED), hlsq_averror(ECONNRESET), hlsq_averror(EHOSTUNREACH),
             hlsq_averror(ENETUNREACH), hlsq_averror(EIO), hlsq_averror(EPIPE),
             hlsq_averror_http_server_error, hlsq_averror_http_other_4xx, hlsq_averror_http_bad_request:
            code = .networkFailure
        default:
            code = .failed
        }
        let message = switch code {
        case .cancelled: "the probe was cancelled"
        case .timedOut: "the probe took too long"
        default: Self.message(for: averror)
        }
        return ProbeError(code, location: location, averror: averror, message: message)
    }

    /// libavutil's text for an error code.
    static func message(for averror: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard av_strerror(averror, &buffer, buffer.count) == 0 else { return "error \(averror)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
