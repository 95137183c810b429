/// One finding about a playlist: where it is, which rule it breaks, how bad it is, and a plain
/// sentence that says what is wrong.
///
/// Lines and columns count from 1; a column points at the first byte of the offending text
/// (in UTF-8 bytes). A diagnostic about the playlist as a whole, such as a missing required
/// tag, points at line 1 column 1.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The playlist breaks a rule; strict validation rejects it.
        case error
        /// The playlist breaks a rule that players tolerate; lenient validation accepts it.
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int
    /// The rule broken; its raw value is the stable id printed.
    public var rule: ValidationRule
    /// Error or warning, as decided by the validation mode.
    public var severity: Severity
    /// A plain sentence saying what is wrong.
    public var message: String

    public init(line: Int, column: Int, rule: ValidationRule, severity: Severity, message: String) {
        self.line = line
        self.column = column
        self.rule = rule
        self.severity = severity
        self.message = message
    }

    /// `LINE:COL: severity: rule: sentence`, the form compilers use; prefix a file name to it.
    public var description: String {
        "\(line):\(column): \(severity.rawValue): \(rule.rawValue): \(message)"
    }
}

/// How hard validation is.
public enum ValidationMode: String, Sendable, Hashable {
    /// Every rule the RFC states is an error: a playlist with any diagnostic of severity
    /// ``Diagnostic/Severity/error`` is rejected.
    case strict
    /// Rules that players commonly tolerate are warnings; the others stay errors. A model is
    /// always returned.
    case lenient
}

/// The rules hlsq checks. The raw value is the stable id printed in diagnostics.
///
/// Each rule is either *fundamental* (the playlist cannot be read as intended, so it is an
/// error in both modes) or *tolerated* (players commonly cope, so lenient mode reports it as
/// a warning and strict mode as an error).
public enum ValidationRule: String, Sendable, Hashable, CaseIterable, Codable {
    // Structure
    case extm3uFirst = "extm3u-first"
    case invalidUTF8 = "invalid-utf8"
    case byteOrderMark = "byte-order-mark"
    case mixedPlaylistKinds = "mixed-playlist-kinds"
    case missingRequiredTag = "missing-required-tag"
    case duplicateTag = "duplicate-tag"
    case invalidTagValue = "invalid-tag-value"
    case missingURI = "missing-uri"
    // Attribute lists
    case malformedAttributeList = "malformed-attribute-list"
    case duplicateAttribute = "duplicate-attribute"
    case missingAttribute = "missing-attribute"
    case invalidAttributeValue = "invalid-attribute-value"
    case unknownEnumeratedValue = "unknown-enumerated-value"
    // Media playlists
    case segmentExceedsTargetDuration = "segment-exceeds-target-duration"
    case sequenceTagAfterSegment = "sequence-tag-after-segment"
    case byteRangeWithoutOffset = "byterange-without-offset"
    case keyNoneWithAttributes = "key-none-with-attributes"
    case keyMissingURI = "key-missing-uri"
    case partWithoutPartInf = "part-without-part-inf"
    case dateRangeMissingID = "daterange-missing-id"
    case dateRangeMissingStartDate = "daterange-missing-start-date"
    case dateRangeEndBeforeStart = "daterange-end-before-start"
    // Multivariant playlists
    case streamInfMissingBandwidth = "stream-inf-missing-bandwidth"
    case streamInfMissingURI = "stream-inf-missing-uri"
    case undefinedGroup = "undefined-group"
    case closedCaptionsWithURI = "closed-captions-with-uri"
    case closedCaptionsMissingInstreamID = "closed-captions-missing-instream-id"
    case defaultWithoutAutoselect = "default-without-autoselect"
    // Variables and versions
    case undefinedVariable = "undefined-variable"
    case duplicateVariable = "duplicate-variable"
    case versionTooLow = "version-too-low"

    /// Whether lenient mode reports the rule as a warning instead of an error.
    public var isToleratedInLenientMode: Bool {
        switch self {
        case .byteOrderMark, .duplicateTag, .unknownEnumeratedValue,
             .segmentExceedsTargetDuration, .defaultWithoutAutoselect, .versionTooLow,
             .sequenceTagAfterSegment:
            return true
        default:
            return false
        }
    }

    /// The severity of a violation under `mode`.
    public func severity(in mode: ValidationMode) -> Diagnostic.Severity {
        mode == .lenient && isToleratedInLenientMode ? .warning : .error
    }
}

/// Thrown by strict parsing: the playlist breaks at least one rule.
public struct PlaylistRejection: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic found, errors and warnings, in line order.
    public let diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        let errors = diagnostics.filter { $0.severity == .error }
        return "the playlist breaks \(errors.count) rule(s); first: \(errors.first?.description ?? "none")"
    }
}
