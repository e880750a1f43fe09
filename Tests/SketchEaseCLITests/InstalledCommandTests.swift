import Foundation
import Testing
import TestSupport

/// The command as `make install` lays it out (PREFIX/bin/sketchease, the model in
/// PREFIX/share/sketchease/), run by name through PATH from another folder: argv[0] is then
/// just "sketchease".
@Suite struct InstalledCommandTests {
    struct Entry: Decodable {
        var detector: String
        var fallback: Bool
        var faces: [Face]
    }

    struct Face: Decodable {
        var box: [Double]
        var score: Double?
        var landmarks: [String: [Double]]
    }

    /// Installs into a fresh prefix (with or without the model) and runs `sketchease ARGS` from
    /// an empty folder, found through PATH, with no SKETCHEASE_MODEL.
    func runInstalled(_ arguments: [String], withModel: Bool) throws -> CLIRunner.Result {
        let prefix = try TestAssets.temporaryFolder("prefix")
        let fm = FileManager.default
        try fm.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try fm.copyItem(atPath: CLIRunner.executable, toPath: prefix + "/bin/sketchease")
        if withModel {
            try fm.createDirectory(atPath: prefix + "/share/sketchease", withIntermediateDirectories: true)
            try fm.copyItem(atPath: TestAssets.model, toPath: prefix + "/share/sketchease/centerface.onnx")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["SKETCHEASE_MODEL"] = nil
        environment["PATH"] = prefix + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try CLIRunner.run(arguments, environment: environment, replacingEnvironment: true,
                                 executable: "/usr/bin/env", prefixArguments: ["sketchease"],
                                 in: try TestAssets.temporaryFolder("elsewhere"))
    }

    @Test func theInstalledModelIsFoundFromAnotherFolder() throws {
        let result = try runInstalled(["detect", "--json", TestAssets.group], withModel: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("CenterFace unavailable"), "\(result.stderr)")
        let entry = try #require(try JSONDecoder().decode([Entry].self, from: Data(result.stdout.utf8)).first)
        #expect(entry.detector == "centerface" && !entry.fallback)
        #expect(entry.faces.count == 3)
        #expect(entry.faces.allSatisfy { ($0.score ?? 0) >= 0.5 && $0.landmarks.count == 5 })
    }

    /// Without a model the cascade stands in: the warning says where the model was looked for
    /// (the install prefix included), and the JSON says it is the fallback, with no confidence.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/usr/local/share/sketchease/centerface.onnx"),
                   "a model is installed system-wide"))
    func withoutTheModelTheFallbackSaysSo() throws {
        let result = try runInstalled(["detect", "--json", TestAssets.graceHopper], withModel: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("/share/sketchease/centerface.onnx"), "\(result.stderr)")
        #expect(result.stderr.contains("SKETCHEASE_MODEL"))
        #expect(!result.stderr.contains("make model"))
        let entry = try #require(try JSONDecoder().decode([Entry].self, from: Data(result.stdout.utf8)).first)
        #expect(entry.detector == "cascade" && entry.fallback)
        #expect(entry.faces.allSatisfy { $0.score == nil && $0.landmarks.isEmpty })
        #expect(result.stdout.contains("\"score\" : null"))
    }
}
