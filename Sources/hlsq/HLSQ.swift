import ArgumentParser
import Foundation

/// The hlsq command line: a headless queue player for HLS and media playlists.
@main
struct HLSQ: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hlsq",
        abstract: "A headless queue player for HLS and media playlists.",
        version: "0.1.0",
        subcommands: [InspectCommand.self, ValidateCommand.self]
    )

    /// ArgumentParser's own entry point, except that usage errors exit with status 2 (the
    /// convention of `hlsq validate`: 1 means an invalid playlist) instead of 64.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
