import Loader

/// Fetches a playlist that a client imports by URL, with the loader's HTTP client.
///
/// Kept in a file of its own because the Loader's request and response types share their
/// names with the HTTP server's.
enum PlaylistFetch {
    /// A fetched playlist: its bytes and the URL it finally came from (after redirects),
    /// against which its entries resolve.
    struct Fetched: Sendable {
        let bytes: [UInt8]
        let url: String
    }

    /// The most a playlist may weigh: an IPTV list of tens of thousands of channels fits.
    static let maximumBytes: Int64 = 16 << 20

    /// The playlist at `url`, or a message saying why it could not be fetched.
    static func fetch(_ url: String, client: HTTPClient) async -> Result<Fetched, PlaylistFetchError> {
        var request = HTTPRequest(url: url)
        request.limits = HTTPLimits(
            connectTimeout: .seconds(10), firstByteTimeout: .seconds(15), stallTimeout: .seconds(15),
            totalTimeout: .seconds(30), maximumBodyBytes: maximumBytes)
        do {
            let response = try await client.fetch(request)
            return .success(Fetched(bytes: response.body, url: response.metrics.effectiveURL))
        } catch {
            return .failure(PlaylistFetchError(message: "the playlist \(url) could not be fetched: \(error)"))
        }
    }
}

/// Why an imported URL could not be fetched.
struct PlaylistFetchError: Error {
    let message: String
}
