import Foundation
import Loader
import OriginSupport
import Testing

/// The origin most tests share. Tests that change its global state (rules) start their own.
/// Shared tests tell their requests apart with a unique `tag` query parameter, which the
/// origin ignores when serving.
enum Shared {
    static let origin: TestOrigin = {
        do {
            return try TestOrigin()
        } catch {
            fatalError("the test origin did not start: \(error)")
        }
    }()

    static let client: HTTPClient = {
        do {
            return try HTTPClient()
        } catch {
            fatalError("no HTTP client: \(error)")
        }
    }()
}

/// A query parameter unique to one test, so that its requests can be found in the log.
func uniqueTag() -> String {
    "tag=" + UUID().uuidString
}

/// The bytes of a file under `playlists/`.
func sampleBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: TestOrigin.playlists.appendingPathComponent(path)))
}

/// A fresh empty folder under the temporary directory.
func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-loader-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Runs `body` and returns the HTTPError it throws, or records an issue when it succeeds.
func httpError<T>(_ body: () async throws(HTTPError) -> T, sourceLocation: SourceLocation = #_sourceLocation) async -> HTTPError? {
    do {
        _ = try await body()
        Issue.record("expected an HTTPError", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
