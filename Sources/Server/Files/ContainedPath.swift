import Glibc

/// Resolves a request's decoded path components to a regular file inside a root folder, or
/// to nothing.
///
/// The request target has already been percent-decoded once, component by component (so an
/// encoded slash stays inside its component). A component is refused when it could step
/// outside or name something hidden: empty (`//`, which would make an absolute path), `.`,
/// `..`, anything starting with a dot, or holding a slash, a backslash or a NUL. A
/// double-encoded `%252e%252e` arrives as the literal name `%2e%2e`, which is just a name
/// that does not exist. Finally the joined path is resolved with `realpath(3)` and must
/// still lie inside the root's own real path, which catches symbolic links that lead out.
/// Only regular files resolve.
public struct ContainedPath: Sendable {
    /// The root's real path, without a trailing slash.
    public let root: String

    /// A root folder; nil when it does not exist or is not a folder.
    public init?(root: String) {
        guard let resolved = Self.realPath(root), Self.isDirectory(resolved) else { return nil }
        self.root = resolved
    }

    /// The real path of the regular file the components name, or nil.
    public func resolve(_ components: some Collection<String>) -> String? {
        guard !components.isEmpty, components.allSatisfy(Self.isSafeComponent) else { return nil }
        let joined = root + "/" + components.joined(separator: "/")
        guard let resolved = Self.realPath(joined), contains(resolved), Self.isRegularFile(resolved) else { return nil }
        return resolved
    }

    /// Whether an absolute, already resolved path lies inside the root.
    public func contains(_ resolvedPath: String) -> Bool {
        root == "/" ? resolvedPath.hasPrefix("/") : resolvedPath.hasPrefix(root + "/")
    }

    static func isSafeComponent(_ component: String) -> Bool {
        guard let first = component.utf8.first, first != UInt8(ascii: ".") else { return false }
        return !component.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }
    }

    /// `realpath(3)`: the absolute path with every symbolic link, `.` and `..` resolved;
    /// nil when some part does not exist.
    static func realPath(_ path: String) -> String? {
        guard !path.utf8.contains(0), let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
