import Foundation
import Testing
import TestSupport
import Vips

@Suite struct InterruptedBatchTests {
    /// kill -9 in the middle of a batch, then the same command again: finished photos are
    /// skipped, the rest completed, and the results equal an uninterrupted run's, byte for byte.
    @Test func killedBatchResumesToTheSameResult() throws {
        let inputs = try TestAssets.temporaryFolder("kill-in")
        for i in 0..<12 {
            let source = i.isMultiple(of: 2) ? TestAssets.graceHopper : TestAssets.astronaut
            try FileManager.default.copyItem(atPath: source, toPath: inputs + "/photo \(i) été." + (source as NSString).pathExtension)
        }
        let interrupted = try TestAssets.temporaryFolder("kill-out")
        let process = try ChildProcess(CLIRunner.executable, ["batch", inputs, "--out", interrupted],
                                       environment: ProcessInfo.processInfo.environment.merging(["SKETCHEASE_MODEL": TestAssets.model]) { $1 },
                                       output: .null, error: .null)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, visiblePNGs(interrupted).count < 2 { usleep(5_000) }
        process.signal(SIGKILL)
        process.wait()
        let done = visiblePNGs(interrupted)
        #expect(done.count >= 2 && done.count < 12, "kill should land mid-batch, \(done.count) finished")
        for name in done { _ = try VipsImage.load(path: interrupted + "/" + name).pixels() } // complete files only

        let resumed = try CLIRunner.run(["batch", inputs, "--out", interrupted])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("\(12 - done.count) written, \(done.count) skipped"))
        let clean = try TestAssets.temporaryFolder("kill-clean")
        #expect(try CLIRunner.run(["batch", inputs, "--out", clean]).status == 0)
        let everything = try FileManager.default.contentsOfDirectory(atPath: interrupted).filter { $0 != ".sketchease" }.sorted()
        #expect(everything == visiblePNGs(clean), "no temporary files may remain")
        for name in everything {
            let a = try Data(contentsOf: URL(fileURLWithPath: interrupted + "/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: clean + "/" + name))
            #expect(a == b, "\(name) differs from the uninterrupted run")
        }
    }

    func visiblePNGs(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") && $0.hasSuffix(".png") }.sorted()
    }
}
