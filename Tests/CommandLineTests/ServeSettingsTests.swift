import Foundation
import Testing

/// `hlsq serve` refuses a bad setting before it opens anything: exit status 2 and a message
/// that names the setting, whether it came from an option or from the environment.
@Suite struct ServeSettingsTests {
    @Test(arguments: [
        (["--durability", "sometimes"], [:], "durability"),
        ([], ["HLSQ_DURABILITY": "fsync"], "durability"),
        (["--preload", "-3"], [:], "preload"),
        ([], ["HLSQ_PRELOAD": "many"], "preload"),
        ([], ["HLSQ_RESUME_PLAYBACK": "yes"], "HLSQ_RESUME_PLAYBACK"),
        (["--port", "70000"], [:], "port"),
    ])
    func aBadSettingExitsTwoAndNamesIt(arguments: [String], environment: [String: String], named setting: String) throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("hlsq-settings-\(UUID().uuidString).sqlite")
        let run = try HLSQProcess.run(arguments: ["serve", "--port", "0", "--db", database.path] + arguments, environment: environment)
        #expect(run.status == 2)
        #expect(run.errors.contains(setting), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }
}
