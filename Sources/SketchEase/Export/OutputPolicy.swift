import Foundation

/// The one rule for writing over a file, whatever the options: SketchEase replaces nothing but
/// its own earlier outputs (see `OutputRecord`), and never the photo it is drawing.
///
/// Every file SketchEase writes goes through this rule (`OutputFile` applies it just before
/// the write), and a batch applies it to each photo before any work, so a photo whose output
/// would land on itself is refused at once. `--overwrite` only lets SketchEase replace its own
/// outputs.
public enum OutputPolicy {
    public enum Verdict: Sendable, Equatable {
        /// Nothing is there: write.
        case create
        /// SketchEase's own earlier output is there, and replacing was asked for.
        case replace
        /// Something is there and replacing was not asked for: keep it.
        case keep
    }

    /// What writing `path` may do. Throws, naming the file, when it would destroy something not
    /// SketchEase's: the photo `source` itself (after symlinks, `..`, letter case, hard links:
    /// files are compared by identity), or, when asked to replace, a file SketchEase did not write.
    /// A destination the person named themselves (`namedDestination`: `gallery --out`,
    /// `--report`) asks to replace SketchEase's own earlier file there without `overwrite`; a
    /// file of anyone else's is never replaced, named or not.
    public static func verdict(for path: String, source: String?, overwrite: Bool,
                               namedDestination: Bool = false) throws -> Verdict {
        guard let target = FileIdentity(path) else { return .create }
        if let source, FileIdentity(source) == target {
            throw PhotoError(path: source, reason: .outputIsInput(path))
        }
        guard overwrite || namedDestination else { return .keep }
        guard OutputRecord.wrote(path) else { throw PhotoError(path: path, reason: .notOurOutput) }
        return .replace
    }
}

/// A file's identity on disk (device and inode), the same whatever path leads to it.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of what `path` leads to (symlinks followed); nil if nothing is there.
    public init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev); inode = UInt64(info.st_ino)
    }

    /// Whether `path` leads to the same file as one of `paths` (an output named as an input).
    public static func of(_ path: String, isAnyOf paths: [String]) -> Bool {
        guard let target = FileIdentity(path) else { return false }
        return paths.contains { FileIdentity($0) == target }
    }
}
