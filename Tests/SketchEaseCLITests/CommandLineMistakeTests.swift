import Foundation
import Testing
import TestSupport

/// Mistakes on the command line get the subcommand's usage, a did-you-mean where one fits, and
/// the value that was wrong.
@Suite struct CommandLineMistakeTests {
    func run(_ arguments: [String]) throws -> CLIRunner.Result { try CLIRunner.run(arguments) }

    @Test func valueErrorsNameTheValueAndShowTheSubcommandsUsage() throws {
        let out = try TestAssets.temporaryFolder("mistakes")
        let cases: [([String], String)] = [
            (["batch", TestAssets.group, "--out", out, "-p", "darkness=abc"], "invalid parameter darkness=abc"),
            (["batch", TestAssets.group, "--out", out, "-j", "-3"], "--jobs must be at least 1 (got -3)"),
            (["batch", TestAssets.group, "--out", out, "--feather", "-1"], "--feather must be 0...1 (got -1.0)"),
            (["batch", TestAssets.group, "--out", out, "--format", "gif"], "--format must be png, jpeg or webp (got 'gif')"),
            (["edit", TestAssets.group, "--out", out, "-f", "pencl"], "did you mean 'pencil'?"),
            (["batch", TestAssets.group], "missing --out DIR"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Usage: sketchease \(arguments[0]) "), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "nothing is done on a usage error")
    }

    @Test func aMisspeltOptionIsNamedWithItsLikelyMeaning() throws {
        let output = try run(["batch", TestAssets.group, "--output", "x"])
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("Error: Unknown option '--output'. Did you mean '--out'?\nUsage: sketchease batch "))
        let json = try run(["detect", "--jsn", TestAssets.group])
        #expect(json.stderr.hasPrefix("Error: Unknown option '--jsn'. Did you mean '--json'?"))
        // A negative number after an option is its value, not an option.
        #expect(try run(["batch", TestAssets.group, "--out", try TestAssets.temporaryFolder("neg"), "--threshold", "-0.5"]).stderr
            .contains("--threshold must be between 0 and 1 (got -0.5)"))
    }

    @Test func applyOnAPhotoSaysWhatApplyTakes() throws {
        let result = try run(["apply", TestAssets.graceHopper])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(TestAssets.graceHopper): this is a photo; apply takes a session "
            + "(OUT/.sketchease/NAME.sketchease.json), a plan, or an output folder\n")
    }

    @Test func everyCommandIsInTheHelp() throws {
        let help = try run(["--help"]).stdout
        for command in ["batch", "edit", "apply", "detect", "report", "filters", "gallery"] {
            #expect(help.contains("  \(command) "), "\(command) missing from --help")
        }
    }
}
