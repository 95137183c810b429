import MediaTime

/// Where a value was read from. It documents the source and never makes two models differ:
/// all positions compare equal, so a model parsed from canonical text equals the model parsed
/// from the original.
public struct SourcePosition: Sendable, Hashable {
    /// The 1-based line number, or 0 for a value built in code.
    public var line: Int

    public init(line: Int) {
        self.line = line
    }

    public static let none = SourcePosition(line: 0)

    public static func == (lhs: SourcePosition, rhs: SourcePosition) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

/// A line hlsq keeps without interpreting it: an unknown tag or a comment. Such lines are
/// written back in place.
public struct PreservedLine: Sendable, Hashable {
    /// The line without its line ending.
    public var text: String
    public var position: SourcePosition

    public init(_ text: String, position: SourcePosition = .none) {
        self.text = text
        self.position = position
    }

    /// Whether the line is a tag (`#EXT…`) rather than a comment.
    public var isTag: Bool { text.hasPrefix("#EXT") }

    /// The typed reading of a common ad marker, or nil.
    public var adMarker: AdMarker? { AdMarker(line: text) }
}

/// An ad-insertion marker of the de-facto kinds found in live playlists. They are not part of
/// the RFC, so they stay preserved lines; this is their typed reading.
public enum AdMarker: Sendable, Hashable {
    /// `#EXT-X-CUE-OUT:30` or `#EXT-X-CUE-OUT:DURATION=30`: an ad break starts.
    case cueOut(duration: MediaTime?)
    /// `#EXT-X-CUE-OUT-CONT:ElapsedTime=5,Duration=30` or `:5/30`: inside a break.
    case cueOutContinuation(elapsed: MediaTime?, duration: MediaTime?)
    /// `#EXT-X-CUE-IN`: the break ends.
    case cueIn
    /// `#EXT-OATCLS-SCTE35:<base64>`: an SCTE-35 splice message.
    case scte35(base64: String)

    /// Reads `line`, or returns nil when it is not an ad marker.
    public init?(line: String) {
        func value(after prefix: String) -> Substring? {
            line.hasPrefix(prefix) ? line.dropFirst(prefix.count) : nil
        }
        func attribute(_ name: String, in text: Substring) -> MediaTime? {
            for field in text.split(separator: ",") {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].uppercased() == name.uppercased() {
                    return MediaTime(decimalSeconds: parts[1])
                }
            }
            return nil
        }
        if line == "#EXT-X-CUE-IN" {
            self = .cueIn
        } else if line == "#EXT-X-CUE-OUT" {
            self = .cueOut(duration: nil)
        } else if let text = value(after: "#EXT-X-CUE-OUT:") {
            self = .cueOut(duration: MediaTime(decimalSeconds: text) ?? attribute("DURATION", in: text))
        } else if let text = value(after: "#EXT-X-CUE-OUT-CONT:") {
            let halves = text.split(separator: "/")
            if halves.count == 2, let elapsed = MediaTime(decimalSeconds: halves[0]) {
                self = .cueOutContinuation(elapsed: elapsed, duration: MediaTime(decimalSeconds: halves[1]))
            } else {
                self = .cueOutContinuation(elapsed: attribute("ElapsedTime", in: text),
                                           duration: attribute("Duration", in: text))
            }
        } else if let text = value(after: "#EXT-OATCLS-SCTE35:") {
            self = .scte35(base64: String(text))
        } else {
            return nil
        }
    }
}
