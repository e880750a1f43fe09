import Foundation

/// One photo to process and where its output goes.
public struct InputFile: Sendable, Equatable {
    public var path: String
    /// Output path relative to the output folder ("trip/beach.png").
    public var outputName: String
}

/// Expands the command line's files and folders into photos, with output names.
public enum InputCollector {
    /// File name suffixes taken from folders (a file named explicitly is always tried).
    public static let imageSuffixes: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "avif", "gif", "bmp", "jp2", "jxl",
    ]

    /// Returns the photos in command-line order (each folder's files sorted by name), and the
    /// inputs that could not be used (missing, unreadable folders).
    public static func collect(_ inputs: [String], recursive: Bool) -> (files: [InputFile], problems: [PhotoError]) {
        let fm = FileManager.default
        var files: [InputFile] = []
        var problems: [PhotoError] = []
        var visited = Set<String>()
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
                problems.append(PhotoError(path: input, reason: .notFound))
                continue
            }
            if !isDirectory.boolValue {
                files.append(InputFile(path: input, outputName: stem(of: input) + ".png"))
                continue
            }
            walk(folder: input, relative: "", recursive: recursive, visited: &visited, files: &files, problems: &problems)
        }
        return (disambiguate(files), problems)
    }

    private static func walk(folder: String, relative: String, recursive: Bool, visited: inout Set<String>,
                             files: inout [InputFile], problems: inout [PhotoError]) {
        let fm = FileManager.default
        // A folder reached twice (a symlink loop, or two links to one place) is walked once.
        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard visited.insert(real).inserted else { return }
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            problems.append(PhotoError(path: folder, reason: .notReadable))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if recursive {
                    walk(folder: path, relative: relative + name + "/", recursive: true, visited: &visited,
                         files: &files, problems: &problems)
                }
            } else if imageSuffixes.contains((name as NSString).pathExtension.lowercased()) {
                files.append(InputFile(path: path, outputName: relative + stem(of: name) + ".png"))
            }
        }
    }

    private static func stem(of path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// One photo named twice ("a.jpg", "./a.jpg") is sketched once. Two photos with one output
    /// name ("a.jpg", "a.png", or "trip/a.jpg" and "home/a.jpg"): the second keeps its suffix
    /// ("a.png.png"), any further ones are numbered ("a-3.png"), so no two share an output.
    private static func disambiguate(_ files: [InputFile]) -> [InputFile] {
        var seen = Set<String>()
        var taken = Set<String>()
        return files.compactMap { file in
            guard seen.insert(URL(fileURLWithPath: file.path).standardized.path).inserted else { return nil }
            var f = file
            let dir = (f.outputName as NSString).deletingLastPathComponent
            func inFolder(_ name: String) -> String { dir.isEmpty ? name : dir + "/" + name }
            if taken.contains(f.outputName) {
                f.outputName = inFolder((f.path as NSString).lastPathComponent + ".png")
            }
            var number = 2
            while taken.contains(f.outputName) {
                number += 1
                f.outputName = inFolder(stem(of: f.path) + "-\(number).png")
            }
            taken.insert(f.outputName)
            return f
        }
    }
}
