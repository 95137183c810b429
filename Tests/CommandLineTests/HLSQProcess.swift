import Foundation

/// Runs the real `hlsq` executable, built next to the test bundle (this target depends on
/// it), to its end.
enum HLSQProcess {
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent()
        .appendingPathComponent("hlsq")

    /// The repository, the working directory of every run.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: String..., input: String? = nil) throws -> Run {
        try run(arguments: arguments, input: input)
    }

    /// Runs `hlsq` with `arguments`, adding `environment` to this process's own.
    static func run(arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = repositoryRoot
        let output = Pipe()
        let errors = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        // Read before waiting: a child blocked on a full pipe would never exit. The outputs
        // here are small, so reading one pipe after the other is enough.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: complained, as: UTF8.self)
        )
    }
}
