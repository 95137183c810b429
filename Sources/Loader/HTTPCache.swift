import Foundation
import Synchronization

/// An on-disk cache of HTTP answers, bounded in size, evicting the least recently used.
///
/// It holds immutable resources (media files and segments, never a live playlist), so an
/// item that loops does not download again. An entry is keyed by URL and byte range: the
/// same URL fetched whole and fetched as `100@0` are two entries. Only complete 2xx
/// answers of `http` and `https` URLs are kept.
///
/// On disk, the folder holds per entry a `<hash>.body` file and a `<hash>.json` file with
/// the key, the status, the headers and the lengths. The index lives in memory and is
/// rebuilt from the JSON files when a cache opens the folder again; a body file's
/// modification date is its last access, so the LRU order survives restarts.
///
/// Invariants, checked by ``checkInvariants()``: the sum of the entries' sizes equals
/// ``totalBytes``, which is at most ``maximumBytes`` after every store; no two entries
/// share a file name.
///
/// All methods are safe from any thread: the index is behind a mutex, and a body file is
/// only created by an atomic rename, so a reader sees a whole file or none.
public final class HTTPCache: Sendable {
    public let directory: URL
    public let maximumBytes: Int64

    /// One cached answer.
    struct Entry: Sendable, Codable {
        var key: String
        var fileName: String
        var statusCode: Int?
        var headers: [String: String]
        var bodyBytes: Int64
        var completeLength: Int64?

        var head: HTTPResponseHead {
            HTTPResponseHead(
                statusCode: statusCode,
                headers: headers.sorted { $0.key < $1.key }.map { HTTPHeaderField(name: $0.key, value: $0.value) },
                expectedBodyBytes: bodyBytes,
                completeLength: completeLength
            )
        }

        func metrics(for request: HTTPRequest, bodyBytes: Int64, totalTime: Duration) -> HTTPTransferMetrics {
            HTTPTransferMetrics(
                url: request.url, effectiveURL: request.url, statusCode: statusCode,
                bodyBytes: bodyBytes, wireBytes: 0, timeToFirstByte: nil, totalTime: totalTime,
                serverAddress: nil, redirectCount: 0, isCacheHit: true
            )
        }
    }

    private struct Index {
        var entries: [String: Entry] = [:]
        /// Last access per key, and a counter that orders accesses within one clock tick.
        var lastAccess: [String: (date: Date, order: UInt64)] = [:]
        var accessCounter: UInt64 = 0
        var totalBytes: Int64 = 0

        mutating func touch(_ key: String, at date: Date) {
            accessCounter += 1
            lastAccess[key] = (date, accessCounter)
        }
    }

    private let index = Mutex(Index())

    /// Opens (creating it if needed) the cache in `directory`, keeping at most `maximumBytes`
    /// of bodies. Entries left by an earlier run are kept, oldest evicted first if the
    /// limit is now lower.
    public init(directory: URL, maximumBytes: Int64) throws {
        self.directory = directory
        self.maximumBytes = max(0, maximumBytes)
        let files = FileManager.default
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        var loaded = Index()
        let names = try files.contentsOfDirectory(atPath: directory.path)
        for name in names where name.hasPrefix("tmp-") {
            try? files.removeItem(at: directory.appendingPathComponent(name))
        }
        for name in names where name.hasSuffix(".json") {
            let metadata = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: metadata),
                  let entry = try? JSONDecoder().decode(Entry.self, from: data),
                  let attributes = try? files.attributesOfItem(atPath: bodyURL(entry.fileName).path),
                  let size = attributes[.size] as? NSNumber, size.int64Value == entry.bodyBytes
            else {
                try? files.removeItem(at: metadata)
                continue
            }
            loaded.entries[entry.key] = entry
            loaded.touch(entry.key, at: attributes[.modificationDate] as? Date ?? .distantPast)
            loaded.totalBytes += entry.bodyBytes
        }
        index.withLock { $0 = loaded }
        evict()
    }

    /// The bytes of all bodies held.
    public var totalBytes: Int64 {
        index.withLock { $0.totalBytes }
    }

    /// How many answers are held.
    public var count: Int {
        index.withLock { $0.entries.count }
    }

    /// Whether an answer for `request` is held (without counting as an access).
    public func contains(_ request: HTTPRequest) -> Bool {
        guard let key = Self.key(for: request) else { return false }
        return index.withLock { $0.entries[key] != nil }
    }

    /// The path of the cached body of `request`, counting as an access; nil on a miss.
    /// Useful to hand a cached media file to a reader that wants a path (libavformat).
    public func cachedFile(for request: HTTPRequest) -> URL? {
        entry(for: request).map { bodyURL($0.fileName) }
    }

    /// Forgets every entry and deletes its files.
    public func removeAll() {
        index.withLock { index in
            for entry in index.entries.values { deleteFiles(of: entry) }
            index = Index()
        }
    }

    /// Checks the invariants listed in the type's notes.
    public func checkInvariants() -> Bool {
        index.withLock { index in
            let sum = index.entries.values.reduce(0) { $0 + $1.bodyBytes }
            let names = Set(index.entries.values.map(\.fileName))
            return sum == index.totalBytes && index.totalBytes <= maximumBytes
                && names.count == index.entries.count && Set(index.lastAccess.keys) == Set(index.entries.keys)
        }
    }

    // MARK: - For the client

    /// The entry for `request`, marked as just used; nil on a miss or when the request may
    /// not be cached.
    func entry(for request: HTTPRequest) -> Entry? {
        guard let key = Self.key(for: request) else { return nil }
        let now = Date()
        guard let found = index.withLock({ index -> Entry? in
            guard let entry = index.entries[key] else { return nil }
            index.touch(key, at: now)
            return entry
        }) else { return nil }
        // Persist the access for the next run's LRU order; a failure only costs that order.
        try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: bodyURL(found.fileName).path)
        return found
    }

    /// The whole body of `entry`, or nil when its file is gone (evicted meanwhile).
    func body(of entry: Entry) -> [UInt8]? {
        guard let data = try? Data(contentsOf: bodyURL(entry.fileName)) else { return nil }
        return Array(data)
    }

    func openBody(of entry: Entry) -> FileHandle? {
        try? FileHandle(forReadingFrom: bodyURL(entry.fileName))
    }

    /// Keeps a complete answer for `request`.
    func store(_ body: [UInt8], head: HTTPResponseHead, for request: HTTPRequest) {
        guard let writer = makeWriter(for: request) else { return }
        writer.head = head
        writer.append(body)
        writer.commit()
    }

    /// A writer that fills a temporary file as a stream delivers the body; nil when the
    /// request may not be cached.
    func makeWriter(for request: HTTPRequest) -> Writer? {
        guard let key = Self.key(for: request) else { return nil }
        return Writer(cache: self, key: key)
    }

    /// Fills one entry's body file while its answer arrives; ``commit()`` adds it to the
    /// cache, anything else (including deinit) deletes the file. Used by one task at a time.
    final class Writer {
        let cache: HTTPCache
        let key: String
        var head: HTTPResponseHead?
        private var file: FileHandle?
        private let temporary: URL
        private var written: Int64 = 0

        fileprivate init?(cache: HTTPCache, key: String) {
            self.cache = cache
            self.key = key
            temporary = cache.directory.appendingPathComponent("tmp-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
                  let file = try? FileHandle(forWritingTo: temporary) else { return nil }
            self.file = file
        }

        deinit {
            discard()
        }

        func append(_ bytes: [UInt8]) {
            guard let file else { return }
            written += Int64(bytes.count)
            if written > cache.maximumBytes || (try? file.write(contentsOf: bytes)) == nil {
                // Too big to keep, or the disk refused: this answer goes uncached.
                discard()
            }
        }

        func commit() {
            guard let file, let head, (head.statusCode.map { (200..<300).contains($0) } ?? true) else {
                discard()
                return
            }
            try? file.close()
            self.file = nil
            cache.insert(key: key, head: head, bodyBytes: written, from: temporary)
        }

        func discard() {
            guard let file else { return }
            try? file.close()
            self.file = nil
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    // MARK: - Storage

    /// `url` for a whole resource, `url bytes=first-last` for a range; nil for URLs that
    /// are not http or https.
    static func key(for request: HTTPRequest) -> String? {
        let lowered = request.url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
        return request.url + (request.byteRange.map { " bytes=\($0.httpValue)" } ?? "")
    }

    /// A file name for `key`: its 64-bit FNV-1a hash in hexadecimal.
    static func fileName(for key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func bodyURL(_ fileName: String) -> URL {
        directory.appendingPathComponent(fileName + ".body")
    }

    private func metadataURL(_ fileName: String) -> URL {
        directory.appendingPathComponent(fileName + ".json")
    }

    private func insert(key: String, head: HTTPResponseHead, bodyBytes: Int64, from temporary: URL) {
        let fileName = Self.fileName(for: key)
        var headers: [String: String] = [:]
        for field in head.headers where ["content-type", "content-range", "last-modified", "etag"].contains(field.name.lowercased()) {
            headers[field.name.lowercased()] = field.value
        }
        let entry = Entry(
            key: key, fileName: fileName, statusCode: head.statusCode, headers: headers,
            bodyBytes: bodyBytes, completeLength: head.completeLength
        )
        guard bodyBytes <= maximumBytes, let metadata = try? JSONEncoder().encode(entry) else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let now = Date()
        index.withLock { index in
            // Another key with the same hash, or an older copy of this one, gives way; its
            // files are replaced below.
            let clashing = index.entries.values.filter { $0.fileName == fileName }
            for old in clashing {
                index.entries[old.key] = nil
                index.lastAccess[old.key] = nil
                index.totalBytes -= old.bodyBytes
            }
            // The rename happens under the lock so that no reader finds the index and the
            // files disagreeing.
            do {
                try metadata.write(to: metadataURL(fileName), options: .atomic)
                if FileManager.default.fileExists(atPath: bodyURL(fileName).path) {
                    try FileManager.default.removeItem(at: bodyURL(fileName))
                }
                try FileManager.default.moveItem(at: temporary, to: bodyURL(fileName))
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                return
            }
            index.entries[key] = entry
            index.touch(key, at: now)
            index.totalBytes += bodyBytes
        }
        evict()
        assert(checkInvariants())
    }

    /// Removes least recently used entries until the total fits the limit. Files are
    /// deleted under the lock, so that a concurrent store of the same key is not undone.
    private func evict() {
        index.withLock { index in
            guard index.totalBytes > maximumBytes else { return }
            let order = index.lastAccess.sorted { ($0.value.date, $0.value.order) < ($1.value.date, $1.value.order) }
            for (key, _) in order where index.totalBytes > maximumBytes {
                guard let entry = index.entries.removeValue(forKey: key) else { continue }
                index.lastAccess[key] = nil
                index.totalBytes -= entry.bodyBytes
                deleteFiles(of: entry)
            }
        }
    }

    private func deleteFiles(of entry: Entry) {
        try? FileManager.default.removeItem(at: bodyURL(entry.fileName))
        try? FileManager.default.removeItem(at: metadataURL(entry.fileName))
    }
}
