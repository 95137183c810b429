// libFuzzer entry point for the Playlist parser and writer, built by `scripts/fuzz-playlist`
// outside SwiftPM. Any input must parse without crashing or hanging; the model must keep its
// invariants, and its segments stored again one by one must equal the parsed ones; writing it,
// in both styles, and parsing the canonical text again must not crash.
import Playlist

@_cdecl("LLVMFuzzerTestOneInput")
public func playlistFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for mode in [ValidationMode.lenient, .strict] {
        let options = ParseOptions(mode: mode, baseURL: "https://example.com/a/b/index.m3u8?token=x",
                                   importedVariables: ["token": "t"])
        let result = Playlist.parse(bytes: bytes, options: options)
        for diagnostic in result.diagnostics {
            precondition(diagnostic.line >= 1 && diagnostic.column >= 1, "diagnostic without a position: \(diagnostic)")
        }
        precondition(PlaylistWriter.bytes(of: result.playlist) == bytes, "an unedited playlist was not written back verbatim")
        let canonical = PlaylistWriter.bytes(of: result.playlist, style: .canonical)
        let reparsed = Playlist.parse(bytes: canonical, options: options)
        switch result.playlist {
        case .media(let playlist):
            precondition(playlist.checkInvariants(), "the media playlist breaks its invariants")
            let stored = MediaSegmentList(Array(playlist.segments))
            precondition(stored.checkInvariants() && stored == playlist.segments, "segments stored again differ")
            for segment in playlist.segments.prefix(4) {
                _ = segment.url
                _ = segment.keys.map(\.url)
                _ = segment.map?.url
            }
            _ = playlist.adMarkers
        case .multivariant(let playlist):
            _ = playlist.variants.map(\.url)
            _ = playlist.renditions.map(\.url)
        case .m3u(let list):
            _ = list.entries.map(\.url)
        }
        _ = PlaylistWriter.bytes(of: reparsed.playlist, style: .canonical)
    }
    return 0
}
