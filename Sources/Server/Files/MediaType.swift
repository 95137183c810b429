/// The `Content-Type` of a served file, by its extension (case-insensitive).
///
/// Text types carry `charset=utf-8`. The HLS types are those of RFC 8216 and of the test
/// origin: `.m3u8` `application/vnd.apple.mpegurl`, `.m3u` `audio/x-mpegurl`, `.ts`
/// `video/mp2t`, `.m4s`/`.mp4` `video/mp4`. Anything unknown is
/// `application/octet-stream`, which a browser will not run or render.
enum MediaType {
    static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return fallback }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? fallback
    }

    static let fallback = "application/octet-stream"

    static let byExtension: [String: String] = [
        // The dashboard.
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "map": "application/json; charset=utf-8",
        "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "woff": "font/woff",
        // Media.
        "m3u8": "application/vnd.apple.mpegurl",
        "m3u": "audio/x-mpegurl",
        "ts": "video/mp2t",
        "m4s": "video/mp4",
        "mp4": "video/mp4",
        "m4v": "video/mp4",
        "m4a": "audio/mp4",
        "aac": "audio/aac",
        "mp3": "audio/mpeg",
        "vtt": "text/vtt; charset=utf-8",
        "webm": "video/webm",
    ]
}
