import ArgumentParser
import Foundation
import Loader

/// The hlsq command line: a headless queue player for HLS and media playlists.
@main
struct HLSQ: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hlsq",
        abstract: "A headless queue player for HLS and media playlists.",
        version: HLSQVersion.current,
        subcommands: [ServeCommand.self, InspectCommand.self, ValidateCommand.self, ProbeCommand.self, BackupCommand.self]
    )

    /// Runs the command line like ArgumentParser's default, except that usage errors exit
    /// with status 2 instead of 64: `validate`, `probe` and `backup` use 1 for invalid input
    /// and 2 for usage and I/O errors.
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
            exit(withError: ExitCode(2))
        }
    }
}
