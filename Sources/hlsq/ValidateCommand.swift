import ArgumentParser
import Foundation
import Playlist

/// `hlsq validate`: checks a playlist against RFC 8216bis and prints what is wrong.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a playlist and print its diagnostics.",
        discussion: """
            Prints one line per diagnostic, FILE:LINE:COL: severity: rule: sentence. Exits with 0 when \
            the playlist is valid, 1 when it is not, 2 when it cannot be read or the arguments are wrong.
            Without --strict, rules that players tolerate are warnings; with it, every rule is an error.
            """
    )

    @Argument(help: "A playlist file, an http(s) URL, or - for standard input.")
    var input: PlaylistInput

    @Flag(help: "Reject everything the RFC forbids, including what players tolerate.")
    var strict = false

    @Flag(help: "Print a JSON document instead of lines.")
    var json = false

    func run() async throws {
        let bytes: [UInt8]
        do {
            bytes = try await input.read()
        } catch {
            printError("hlsq validate: \(error)")
            throw ExitCode(2)
        }
        let result = Playlist.parse(bytes: bytes, options: ParseOptions(mode: strict ? .strict : .lenient,
                                                                        baseURL: input.baseURL))
        if json {
            let report = ValidationReport(source: input.displayName, mode: strict ? "strict" : "lenient", result: result)
            print(try encodeJSON(report))
        } else {
            for diagnostic in result.diagnostics {
                print("\(input.displayName):\(diagnostic)")
            }
            let errors = result.diagnostics.count { $0.severity == .error }
            let warnings = result.diagnostics.count - errors
            print("\(input.displayName): \(result.isValid ? "valid" : "invalid") \(result.playlist.kindName) playlist, "
                + "\(errors) error(s), \(warnings) warning(s)")
        }
        if !result.isValid { throw ExitCode(1) }
    }
}

/// The JSON document of `hlsq validate --json`.
struct ValidationReport: Encodable {
    let source: String
    let mode: String
    let kind: String
    let valid: Bool
    let errors: Int
    let warnings: Int
    let diagnostics: [DiagnosticDocument]

    init(source: String, mode: String, result: ParseResult) {
        self.source = source
        self.mode = mode
        kind = result.playlist.kindName
        valid = result.isValid
        errors = result.diagnostics.count { $0.severity == .error }
        warnings = result.diagnostics.count - errors
        diagnostics = result.diagnostics.map(DiagnosticDocument.init)
    }
}

func encodeJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
