import Glibc

/// A file's bytes and the entity tag that identifies that version, read in one go.
///
/// The tag is made from the inode, size and modification time (to the nanosecond) of the
/// open descriptor, so it changes whenever the file is replaced or rewritten, and the bytes
/// and the tag always describe the same version. The files served are small (the dashboard
/// and the sample media), so a whole read per request is simpler than a cache and never
/// stale.
struct FileSnapshot: Sendable {
    let bytes: [UInt8]
    /// A strong entity tag, quotes included.
    let entityTag: String

    /// Reads the regular file at `path`; nil when it cannot be opened or read.
    static func read(_ path: String) -> FileSnapshot? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.read(descriptor, base + filled, size - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        // A file that shrank while being read is served as far as it went.
        if filled < size { bytes.removeLast(size - filled) }
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        let tag = "\"\(String(status.st_ino, radix: 16))-\(String(filled, radix: 16))-\(String(modified, radix: 16))\""
        return FileSnapshot(bytes: bytes, entityTag: tag)
    }
}
