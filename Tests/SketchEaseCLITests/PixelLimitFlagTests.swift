import Foundation
import Testing
import TestSupport

/// `--max-pixels` guards every command that reads photos, with the same one-line error.
@Suite struct PixelLimitFlagTests {
    static let commands: [[String]] = [["batch", "--out", "OUT/batch"], ["edit", "--out", "OUT/edit"], ["report"], ["detect"],
                                       ["gallery", "--out", "OUT/sheet.png"]]

    @Test(arguments: commands)
    func aPhotoAboveTheLimitIsOneErrorLineAndAFailedExit(command: [String]) throws {
        let out = try TestAssets.temporaryFolder("pixel-limit")
        let arguments = command.map { $0.replacingOccurrences(of: "OUT", with: out) }
            + ["--max-pixels", "1000", TestAssets.graceHopper]
        let result = try CLIRunner.run(arguments, stdin: "quit\n")
        #expect(result.status != 0)
        #expect(result.stderr.contains("error: \(TestAssets.graceHopper): image too large (307200 pixels, limit 1000; see --max-pixels)"),
                "\(result.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.isEmpty)
    }

    @Test func aNegativeLimitIsAUsageError() throws {
        let result = try CLIRunner.run(["report", "--max-pixels=-5", TestAssets.graceHopper])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--max-pixels must be 0 or more"))
    }
}
