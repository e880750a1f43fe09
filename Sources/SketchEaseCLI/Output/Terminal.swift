import ArgumentParser
import Foundation
import SketchEase

/// Where messages go: results on stdout, progress and problems on stderr.
enum Terminal {
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) != 0 }

    static func error(_ message: String) { printErr("error: \(message)") }
    static func warn(_ message: String) { printErr("warning: \(message)") }

    static func printErr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Runs `work`; a problem with a file or folder it meets becomes one error line and a failed
    /// exit (not a usage message: the command line itself was fine).
    static func failing<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as PhotoError {
            self.error(error.description)
        } catch let error as SessionError {
            self.error(error.description)
        }
        throw ExitCode.failure
    }

    /// What the inputs held that was left out, a line each (on stderr): sub-folders not searched
    /// without --recursive, and images SketchEase wrote itself.
    static func noteLeftOut(_ collection: InputCollection) {
        let folders = collection.unsearchedFolders
        if !folders.isEmpty {
            printErr("\(count(folders.count, "sub-folder")) not searched (--recursive takes \(folders.count == 1 ? "it" : "them")): "
                + names(folders.map { $0 + "/" }))
        }
        let own = collection.ownOutputs
        if !own.isEmpty {
            printErr("\(count(own.count, "image")) left out: SketchEase wrote \(own.count == 1 ? "it" : "them") (\(names(own)))")
        }
    }

    /// "3 photos", "1 photo".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(n == 1 ? noun : noun + "s")" }

    /// A few file names for a summary line: "a.jpg, b.jpg and 3 more".
    static func names(_ paths: [String], shown: Int = 3) -> String {
        let names = paths.prefix(shown).map { ($0 as NSString).lastPathComponent.isEmpty ? $0 : displayName($0) }
        let rest = paths.count - names.count
        return names.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "")
    }

    private static func displayName(_ path: String) -> String {
        path.hasSuffix("/") ? ((path.dropLast() as NSString).lastPathComponent + "/") : (path as NSString).lastPathComponent
    }
}
