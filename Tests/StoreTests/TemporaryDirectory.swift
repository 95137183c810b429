import Foundation

/// A fresh directory under the system's temporary folder, deleted with its contents when
/// this instance goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The bytes of every file in the directory whose name starts with `prefix` (a database
    /// and its `-wal` and `-shm` files), by name.
    func contents(startingWith prefix: String) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasPrefix(prefix) {
            contents[name] = try Data(contentsOf: url.appendingPathComponent(name))
        }
        return contents
    }
}
