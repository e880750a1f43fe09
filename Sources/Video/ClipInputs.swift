import Foundation
import SketchEase

/// One clip to process and its output's name (relative to the output folder, no suffix).
public struct ClipInput: Sendable, Equatable {
    public var path: String
    public var outputStem: String
}

/// The command line's files and folders as clips.
public enum ClipInputs {
    /// Suffixes taken from folders (a file named explicitly is always tried).
    public static let suffixes: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "mts", "m2ts", "ts", "3gp", "mpg", "mpeg", "wmv", "flv", "ogv", "mxf",
    ]

    /// Files as given, folders' clips in name order (sub-folders with `recursive`, mirrored in
    /// the output names); missing inputs are problems.
    public static func collect(_ inputs: [String], recursive: Bool) -> (clips: [ClipInput], problems: [PhotoError]) {
        let fm = FileManager.default
        var clips: [ClipInput] = [], problems: [PhotoError] = []
        var visited = Set<String>()
        func stem(_ path: String) -> String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }
        func walk(_ folder: String, _ relative: String) {
            guard visited.insert(URL(fileURLWithPath: folder).resolvingSymlinksInPath().path).inserted else { return }
            guard let names = try? fm.contentsOfDirectory(atPath: folder).sorted() else {
                problems.append(PhotoError(path: folder, reason: .notReadable))
                return
            }
            for name in names where !name.hasPrefix(".") {
                let path = (folder as NSString).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if recursive { walk(path, relative + name + "/") }
                } else if suffixes.contains((name as NSString).pathExtension.lowercased()) {
                    clips.append(ClipInput(path: path, outputStem: relative + stem(name)))
                }
            }
        }
        for input in inputs {
            var isDirectory: ObjCBool = false
            if !fm.fileExists(atPath: input, isDirectory: &isDirectory) {
                problems.append(PhotoError(path: input, reason: .notFound))
            } else if isDirectory.boolValue {
                walk(input, "")
            } else {
                clips.append(ClipInput(path: input, outputStem: stem(input)))
            }
        }
        return (clips, problems)
    }
}
