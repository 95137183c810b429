import ArgumentParser
import Foundation
import Loader

/// Where `hlsq inspect` and `hlsq validate` read a playlist from: a file, standard input
/// (`-`), or an http(s) URL.
struct PlaylistInput: ExpressibleByArgument {
    enum Location {
        case file(String)
        case standardInput
        case url(String)
    }

    let location: Location

    init(argument: String) {
        if argument == "-" {
            location = .standardInput
        } else if let scheme = argument.split(separator: ":", maxSplits: 1).first?.lowercased(),
                  scheme == "http" || scheme == "https", argument.contains("://") {
            location = .url(argument)
        } else {
            location = .file(argument)
        }
    }

    /// The name diagnostics are printed with: the path, the URL, or `<stdin>`.
    var displayName: String {
        switch location {
        case .file(let path): path
        case .standardInput: "<stdin>"
        case .url(let url): url
        }
    }

    /// The URL or path relative URIs resolve against; none for standard input.
    var baseURL: String? {
        switch location {
        case .file(let path): path
        case .standardInput: nil
        case .url(let url): url
        }
    }

    /// The playlist's bytes.
    func read() async throws(InputError) -> [UInt8] {
        switch location {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw InputError("cannot read \(path): no such file, or not readable")
            }
            return Array(data)
        case .standardInput:
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        case .url(let url):
            return try await Self.fetch(url)
        }
    }

    /// Downloads a playlist over http(s) with the Loader's libcurl client, retrying
    /// timeouts, connection failures and 5xx answers.
    static func fetch(_ url: String) async throws(InputError) -> [UInt8] {
        do {
            let client = try HTTPClient()
            return try await client.fetch(HTTPRequest(url: url), retry: .standard).body
        } catch {
            throw InputError("cannot fetch \(url): \(error)")
        }
    }
}

/// A playlist that cannot be read: the commands exit with status 2.
struct InputError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Prints to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
