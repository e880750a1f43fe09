import Foundation

/// Runs the built `sketchease` executable and captures what it prints.
public struct CLIRunner {
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// `$SKETCHEASE_BIN`, else the binary beside the test bundle (same build folder).
    public static var executable: String {
        if let explicit = ProcessInfo.processInfo.environment["SKETCHEASE_BIN"] { return explicit }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [beside, beside.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("sketchease").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return TestAssets.root.appendingPathComponent(".build/debug/sketchease").path
    }

    /// Runs the command with `arguments`. `environment` adds to this process's environment
    /// (with SKETCHEASE_MODEL set to the repository's model), or with `replacingEnvironment`
    /// is the whole of it. `executable` and `prefixArguments` run something else first (such
    /// as `/usr/bin/env sketchease`, to find the command through PATH). A run still going after
    /// `timeout` seconds is killed.
    @discardableResult
    public static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                           replacingEnvironment: Bool = false, executable: String = CLIRunner.executable,
                           prefixArguments: [String] = [], in directory: String? = nil,
                           timeout: TimeInterval = 600) throws -> Result {
        var env = replacingEnvironment ? [:] : ProcessInfo.processInfo.environment
        if !replacingEnvironment { env["SKETCHEASE_MODEL"] = TestAssets.model }
        for (k, v) in environment { env[k] = v }
        let child = try ChildProcess(executable, prefixArguments + arguments, environment: env, directory: directory,
                                     input: stdin != nil)
        if let stdin, let input = child.standardInput {
            // Written on its own thread, so a child that prints before reading cannot stall it.
            let bytes = Data(stdin.utf8)
            Thread.detachNewThread { try? input.write(contentsOf: bytes); try? input.close() }
        }
        let (status, outData, errData) = child.outputs(timeout: timeout)
        return Result(status: status, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
