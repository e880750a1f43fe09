import Foundation
import Testing
import TestSupport

/// A batch watched in a real terminal: the progress bar stays on one line at any width, and
/// Ctrl-C stops it cleanly, saying what was done and that running it again finishes the job.
@Suite(.serialized) struct BatchTerminalTests {
    func photos(_ count: Int) throws -> String {
        let folder = try TestAssets.temporaryFolder("tty-in")
        for i in 0..<count {
            try FileManager.default.copyItem(atPath: TestAssets.group, toPath: folder + "/photo \(i).jpg")
        }
        return folder
    }

    @Test func theBarFitsA60ColumnTerminalAndTheSummaryGivesTheRate() throws {
        let inputs = try photos(6), out = try TestAssets.temporaryFolder("tty-out")
        let session = try TerminalSession("\(CLIRunner.executable) batch '\(inputs)' --out '\(out)' --jobs 1; echo \"exit $?\"; sleep 30",
                                          columns: 60, environment: ["SKETCHEASE_MODEL": TestAssets.model])
        var longest = 0
        var screen = ""
        let deadline = Date().addingTimeInterval(120)
        while !screen.contains("exit "), Date() < deadline {
            screen = try session.screen()
            longest = max(longest, screen.split(separator: Character("\n")).map(\.count).max() ?? 0)
            usleep(50_000)
        }
        #expect(screen.contains("exit 0"), "\(screen)")
        #expect(longest <= 60)
        #expect(screen.contains("6 written; 6 photos in") && screen.contains("photos/s)"), "\(screen)")
    }

    @Test func ctrlCStopsAfterThePhotosInFlightAndSaysHowToFinish() throws {
        let inputs = try photos(40), out = try TestAssets.temporaryFolder("tty-stop")
        let session = try TerminalSession("\(CLIRunner.executable) batch '\(inputs)' --out '\(out)' --jobs 1; echo \"exit $?\"; sleep 30",
                                          columns: 100, environment: ["SKETCHEASE_MODEL": TestAssets.model])
        try session.wait(for: "/40", timeout: 60)
        try session.send("C-c")
        let screen = try session.wait(for: "exit ", timeout: 60)
        #expect(screen.contains("stopping after the photos in flight"), "\(screen)")
        #expect(screen.contains("not started") && screen.contains("interrupted:")
                && screen.contains("run the same command again to do the rest"), "\(screen)")
        #expect(screen.contains("exit 130"), "\(screen)")
        let finished = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.count
        #expect(finished > 0 && finished < 40)
        // Running it again does the rest.
        let again = try CLIRunner.run(["batch", inputs, "--out", out])
        #expect(again.status == 0 && again.stderr.contains("\(40 - finished) written, \(finished) skipped"), "\(again.stderr)")
    }
}
