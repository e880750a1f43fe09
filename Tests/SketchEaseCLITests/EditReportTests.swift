import Foundation
import Testing
import TestSupport

@Suite struct EditReportTests {
    /// Opening a photo flags faces with problems; `report` gives the whole face report.
    @Test func editShowsWarningsOnOpenAndTheFullReportOnRequest() throws {
        let out = try TestAssets.temporaryFolder("edit-report")
        let result = try CLIRunner.run(["edit", TestAssets.group, "--out", out], stdin: "report\nquit!\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // Face 3 is the small mirrored astronaut (55 px): flagged as soon as the photo opens,
        // before any command is typed.
        let flagged = try #require(lines.firstIndex { $0.contains("face 3: too small") })
        let firstReport = try #require(lines.firstIndex { $0.hasPrefix("face 1:") })
        #expect(flagged < firstReport)
        #expect(lines.contains { $0.hasPrefix("face 2:") })
        #expect(lines.filter { $0.contains("skin tone #") }.count == 3)
        #expect(lines.contains("  good: size, framing, lighting, sharpness and tilt all fine"))
    }
}
