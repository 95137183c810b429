import Foundation
import Testing

/// The crash test (Tests/crash/crash_test.py): concurrent clients mutate queues while the
/// real server is killed with SIGKILL twenty times; after each kill the database passes
/// `PRAGMA integrity_check` and every acknowledged mutation is there, in order.
@Suite struct CrashTests {
    @Test func acknowledgedMutationsSurviveTwentyKills() throws {
        let script = ServerProcess.repository.appendingPathComponent("Tests/crash/crash_test.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--binary", ServerProcess.executable.path, "--rounds", "20", "--clients", "4"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(text)
        #expect(process.terminationStatus == 0, "\(text)")
        // It really ran: twenty rounds, each with acknowledged mutations and a clean database.
        #expect(text.components(separatedBy: "integrity ok, ok").count - 1 == 20)
    }
}
