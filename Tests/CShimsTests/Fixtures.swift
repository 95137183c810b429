import Foundation

/// Paths to the committed sample content.
enum Fixtures {
    /// The repository's `playlists/` folder, found from this file's location.
    static let playlists = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("playlists")

    static func path(_ relative: String) -> String {
        playlists.appendingPathComponent(relative).path
    }
}
