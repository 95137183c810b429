import Foundation

/// The folders that file items may come from (`--media-root`): a `file:` URL or an absolute
/// path is accepted only when it lies inside one of them.
///
/// A path is made absolute and normal first (`.` and `..` resolved, percent-escapes of a
/// `file:` URL decoded), then resolved through symbolic links when it exists, and must then
/// lie inside the real path of a root. A path that does not exist yet is judged by its
/// normal form; a link created later cannot widen what was accepted, because the loader
/// opens exactly the accepted path. With no roots, no file item is accepted.
struct MediaRoots: Sendable {
    let roots: [ContainedPath]

    init(folders: [String]) {
        roots = folders.compactMap { ContainedPath(root: $0) }
    }

    /// Whether `url` names a local file: `file:` or an absolute path.
    static func isFileItem(_ url: String) -> Bool {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("/") || trimmed.lowercased().hasPrefix("file:")
    }

    /// nil when `url` is not a file item or is inside a root; otherwise why it is refused.
    func refusal(for url: String) -> String? {
        guard Self.isFileItem(url) else { return nil }
        guard !roots.isEmpty else {
            return "file items are refused: the server was started without --media-root"
        }
        guard let path = Self.localPath(of: url) else {
            return "\"\(url.prefix(200))\" is not a local file URL (file:///path)"
        }
        let normal = Self.normalized(path)
        let resolved = ContainedPath.realPath(normal) ?? normal
        guard roots.contains(where: { $0.contains(resolved) }) else {
            let list = roots.map(\.root).joined(separator: ", ")
            return "\(path) is outside the media roots (\(list))"
        }
        return nil
    }

    /// An absolute path with `.`, `..` and repeated slashes resolved lexically (`..` at the
    /// top stays at `/`).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The path of a `file:` URL (host empty or `localhost`) or an absolute path.
    static func localPath(of url: String) -> String? {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("/") { return trimmed }
        guard let components = URLComponents(string: trimmed), components.scheme?.lowercased() == "file",
              components.host.map({ $0.isEmpty || $0.lowercased() == "localhost" }) ?? true
        else { return nil }
        let path = components.path
        return path.hasPrefix("/") ? path : nil
    }
}
