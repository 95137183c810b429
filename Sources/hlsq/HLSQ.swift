import ArgumentParser

/// The hlsq command line: a headless queue player for HLS and media playlists.
@main
struct HLSQ: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hlsq",
        abstract: "A headless queue player for HLS and media playlists.",
        version: "0.1.0",
        subcommands: [BackupCommand.self]
    )
}
