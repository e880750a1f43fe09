import Foundation
import Testing
import TestSupport
import Vips

/// N runs of the same batch, each with its own --shard, write together exactly what one run
/// writes: every photo once, byte for byte the same results; a shard killed and run again
/// completes the set; the reports merge into one run's summary.
@Suite(.serialized) struct ShardedBatchTests {
    let fm = FileManager.default

    /// 14 small photos in a folder and a sub-folder.
    func photos() throws -> String {
        let folder = try TestAssets.temporaryFolder("shard-in")
        try fm.createDirectory(atPath: folder + "/trip", withIntermediateDirectories: true)
        let sources = [TestAssets.graceHopper, TestAssets.astronaut]
        for i in 0..<14 {
            let image = try VipsImage.load(path: sources[i % 2]).resize(scale: 0.5)
            try image.save(path: folder + (i < 9 ? "" : "/trip") + "/photo \(i).jpg")
        }
        return folder
    }

    /// The results in `folder` (not SketchEase's hidden record, not the reports): name → bytes.
    func results(_ folder: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for path in try fm.subpathsOfDirectory(atPath: folder) where path.hasSuffix(".png") && !path.contains(".sketchease") {
            found[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
        }
        return found
    }

    func launch(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(CLIRunner.executable, arguments,
                         environment: ProcessInfo.processInfo.environment.merging(["SKETCHEASE_MODEL": TestAssets.model]) { $1 },
                         output: .null, error: .null)
    }

    @Test func concurrentShardsEqualOneRun() throws {
        let inputs = try photos()
        let single = try TestAssets.temporaryFolder("shard-one")
        let one = try CLIRunner.run(["batch", inputs, "-r", "--out", single, "--jobs", "1", "--report", single + "/report.json"])
        #expect(one.status == 0, "\(one.stderr)")
        let expected = try results(single)
        #expect(expected.count == 14)
        for count in [1, 3, 7] {
            let out = try TestAssets.temporaryFolder("shard-\(count)")
            let runs = try (1...count).map { k in
                try launch(["batch", inputs, "-r", "--out", out, "--jobs", "1", "--shard", "\(k)/\(count)",
                            "--report", out + "/report-\(k).json"])
            }
            for run in runs { #expect(run.wait() == 0) }
            #expect(try results(out) == expected, "\(count) shards")
            let reports = (1...count).map { out + "/report-\($0).json" }
            let merged = try CLIRunner.run(["report-merge"] + reports + ["--out", out + "/all.json"])
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout.hasPrefix("14 written (\(count) report"), "\(merged.stdout)")
            // Every photo in exactly one shard's report.
            var seen: [String] = []
            for report in reports {
                let text = try String(contentsOfFile: report, encoding: .utf8)
                seen += text.components(separatedBy: "\"relative_path\" : \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            }
            #expect(seen.count == 14 && Set(seen).count == 14, "\(seen)")
        }
    }

    @Test func aKilledShardRunAgainCompletesTheSet() throws {
        let inputs = try photos()
        let out = try TestAssets.temporaryFolder("shard-kill")
        let first = try launch(["batch", inputs, "-r", "--out", out, "--jobs", "1", "--shard", "1/2"])
        let second = try launch(["batch", inputs, "-r", "--out", out, "--jobs", "1", "--shard", "2/2"])
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (try results(out)).count < 3 { usleep(20_000) }
        first.signal(SIGKILL)
        first.wait()
        second.wait()
        #expect(try results(out).count < 14, "the kill landed before the end")
        let again = try CLIRunner.run(["batch", inputs, "-r", "--out", out, "--jobs", "1", "--shard", "1/2"])
        #expect(again.status == 0, "\(again.stderr)")
        let single = try TestAssets.temporaryFolder("shard-kill-one")
        #expect(try CLIRunner.run(["batch", inputs, "-r", "--out", single]).status == 0)
        #expect(try results(out) == results(single))
    }

    @Test func aMissingShardReportIsNoticed() throws {
        let inputs = try photos()
        let out = try TestAssets.temporaryFolder("shard-missing")
        for k in [1, 3] {
            #expect(try CLIRunner.run(["batch", inputs, "-r", "--out", out, "--shard", "\(k)/3", "--report", out + "/r\(k).json"]).status == 0)
        }
        let merged = try CLIRunner.run(["report-merge", out + "/r1.json", out + "/r3.json"])
        #expect(merged.status == 1)
        #expect(merged.stderr.contains("no report from shard 2/3"), "\(merged.stderr)")
    }

    @Test func shardArgumentsOutOfRangeAreOneClearError() throws {
        let inputs = try photos(), out = try TestAssets.temporaryFolder("shard-bad")
        for (value, message) in [("0/3", "shard 0 of 3 does not exist"), ("4/3", "shard 4 of 3 does not exist"),
                                 ("two/3", "expected K/N, auto or auto/N (got 'two/3')"), ("auto", "--shard auto needs")] {
            let result = try CLIRunner.run(["batch", inputs, "--out", out, "--shard", value])
            #expect(result.status == 64, "\(value)")
            #expect(result.stderr.hasPrefix("Error: --shard: \(message)"), "\(value): \(result.stderr)")
        }
        #expect(try results(out).isEmpty)
    }

    /// GNU parallel standing in for a scheduler: three shards as three jobs, then one summary.
    @Test func gnuParallelRunsTheShards() throws {
        let inputs = try photos(), out = try TestAssets.temporaryFolder("shard-parallel")
        let bin = CLIRunner.executable
        let command = "parallel --halt now,fail=1 '\(bin)' batch '\(inputs)' -r --out '\(out)' --jobs 1 --shard {}/3 "
            + "--report '\(out)/r{}.json' ::: 1 2 3 && '\(bin)' report-merge '\(out)'/r*.json"
        let shell = try ChildProcess("/bin/sh", ["-c", command],
                                     environment: ProcessInfo.processInfo.environment.merging(["SKETCHEASE_MODEL": TestAssets.model]) { $1 },
                                     error: .null)
        let (status, data, _) = shell.outputs()
        let output = String(decoding: data, as: UTF8.self)
        #expect(status == 0, "\(output)")
        #expect(output.hasPrefix("14 written (3 reports, shards 1/3, 2/3, 3/3)"), "\(output)")
        #expect(try results(out).count == 14)
    }
}
