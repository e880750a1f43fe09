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
    /// as `/usr/bin/env sketchease`, to find the command through PATH).
    @discardableResult
    public static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                           replacingEnvironment: Bool = false, executable: String = CLIRunner.executable,
                           prefixArguments: [String] = [], in directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = prefixArguments + arguments
        var env = replacingEnvironment ? [:] : ProcessInfo.processInfo.environment
        if !replacingEnvironment { env["SKETCHEASE_MODEL"] = TestAssets.model }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting so a chatty process cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
