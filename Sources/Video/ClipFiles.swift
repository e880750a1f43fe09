import Foundation
import SketchEase

/// Which files in a folder are clips (a clip named on the command line is always tried).
public enum ClipFiles {
    public static let suffixes: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "mts", "m2ts", "ts", "3gp", "mpg", "mpeg", "wmv", "flv", "ogv", "mxf",
    ]

    /// Whether `path` is named like a clip.
    public static func isClip(_ path: String) -> Bool {
        suffixes.contains((path as NSString).pathExtension.lowercased())
    }

    /// The clips among `inputs` (files and folders), by `InputCollector`'s one rule for inputs.
    public static func collect(_ inputs: [String], recursive: Bool, outputFolder: String, outputSuffix: String = "mp4") -> InputCollection {
        InputCollector.collect(inputs, recursive: recursive, outputFolders: [outputFolder], suffixes: suffixes, outputSuffix: outputSuffix)
    }
}
