import Foundation
import Testing
import TestSupport
import Vips

@Suite struct BackgroundFlagTests {
    @Test func backgroundFilterStylesEverythingOutsideTheFaces() throws {
        let out = try TestAssets.temporaryFolder("cli-background")
        let result = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "-f", "none",
                                        "--background-filter", "pixelate", "--background-param", "block=0.2"])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try VipsImage.load(path: out + "/grace_hopper.png")
        let original = try VipsImage.load(path: TestAssets.graceHopper)
        #expect(try PixelStats.meanAbsoluteDifference(written, original, x: 0, y: 0, width: 100, height: 60) > 2)
        #expect(try PixelStats.meanAbsoluteDifference(written, original, x: 235, y: 200, width: 60, height: 70) == 0)
    }

    @Test func backgroundParameterWithoutAFilterIsAUsageError() throws {
        let out = try TestAssets.temporaryFolder("cli-background-usage")
        let result = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "--background-param", "block=0.2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--background-filter"))
        let unknown = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "--background-filter", "crayon"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown filter 'crayon'"))
    }
}
