import Foundation

/// Where messages go: results on stdout, progress and problems on stderr.
enum Terminal {
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) != 0 }

    static func error(_ message: String) { printErr("error: \(message)") }
    static func warn(_ message: String) { printErr("warning: \(message)") }

    static func printErr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
