import Foundation
import MediaTime
import Playlist
import Testing

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The bytes of a fixture under `Tests/PlaylistTests/Fixtures`.
func fixtureBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixturesDirectory.appendingPathComponent(path)))
}

/// Every fixture file, as paths relative to the fixtures folder, and every playlist of the
/// sample content in `playlists/`, as paths relative to the repository.
func allFixturePaths() -> [String] {
    var paths: [String] = []
    for folder in ["rfc8216bis", "extra", "regressions"] {
        let directory = fixturesDirectory.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        paths += names.sorted().map { "\(folder)/\($0)" }
    }
    return paths
}

func samplePlaylistPaths() -> [String] {
    let root = repositoryRoot.appendingPathComponent("playlists")
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    var paths: [String] = []
    while let path = enumerator?.nextObject() as? String {
        if path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") { paths.append("playlists/" + path) }
    }
    return paths.sorted()
}

/// `text` parsed as a media playlist; records an issue when it is another kind.
func media(_ text: String, _ options: ParseOptions = ParseOptions(), sourceLocation: SourceLocation = #_sourceLocation)
    throws -> (MediaPlaylist, [Diagnostic]) {
    let result = Playlist.parse(text, options: options)
    let playlist = try #require(result.playlist.media, "parsed as \(result.playlist.kindName)", sourceLocation: sourceLocation)
    return (playlist, result.diagnostics)
}

func multivariant(_ text: String, _ options: ParseOptions = ParseOptions(), sourceLocation: SourceLocation = #_sourceLocation)
    throws -> (MultivariantPlaylist, [Diagnostic]) {
    let result = Playlist.parse(text, options: options)
    let playlist = try #require(result.playlist.multivariant, "parsed as \(result.playlist.kindName)", sourceLocation: sourceLocation)
    return (playlist, result.diagnostics)
}

func time(_ text: String) -> MediaTime {
    MediaTime(decimalSeconds: text)!
}
