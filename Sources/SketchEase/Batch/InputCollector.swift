import Foundation

/// One photo to process and where its output goes.
public struct InputFile: Sendable, Equatable {
    public var path: String
    /// The output's path relative to the output folder, without its suffix ("trip/beach").
    public var outputStem: String
    /// The photo's path relative to the folder it was found in ("trip/beach.jpg"), or its name
    /// when it was named on its own: the same on every machine, whatever the folder is mounted as.
    public var relativePath: String
    /// Whether another photo would have had the same result name, so this one's result is named
    /// by `InputCollector.disambiguated`'s rule (`rot8.jpg.png`) rather than plainly.
    public var renamed = false

    public init(path: String, outputStem: String, relativePath: String? = nil) {
        self.path = path; self.outputStem = outputStem
        self.relativePath = relativePath ?? (path as NSString).lastPathComponent
    }

    /// A photo named on its own: its output is named after it ("beach.jpg" → "beach").
    public init(path: String) {
        self.init(path: path, outputStem: InputCollector.stem(of: path))
    }

    /// The output's path relative to the output folder ("trip/beach.png").
    public func outputName(_ format: ImageFormat = .png) -> String {
        outputStem + "." + format.fileExtension
    }
}

/// What the command line's files and folders hold: the photos, and what was left out and why.
public struct InputCollection: Sendable, Equatable {
    /// The photos, each with its output name, in the order given (each folder's in natural order).
    public var files: [InputFile] = []
    /// Inputs that could not be used (missing, unreadable folders).
    public var problems: [PhotoError] = []
    /// Sub-folders not searched because recursion was not asked for.
    public var unsearchedFolders: [String] = []
    /// Images left out because SketchEase wrote them (earlier outputs, previews).
    public var ownOutputs: [String] = []
}

/// Expands the command line's files and folders into photos, with output names: the one rule
/// for what counts as an input, shared by every command.
///
/// Never an input: SketchEase's own outputs (see `OutputRecord`), hidden files and folders (its
/// previews and sessions live in `.sketchease/`), and the output folders of the run itself.
public enum InputCollector {
    /// File name suffixes taken from folders (a file named explicitly is always tried).
    public static let imageSuffixes: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "avif", "gif", "bmp", "jp2", "jxl",
    ]

    /// Collects `inputs` (files and folders, in command-line order). `outputFolders` are the
    /// folders this run writes into: never walked into. Folders give the files whose suffix is
    /// one of `suffixes` (photos, or a video command's clips).
    /// `outputSuffix` is the results' suffix: which photo keeps the plain name when several
    /// would share one (see `disambiguated`).
    public static func collect(_ inputs: [String], recursive: Bool, outputFolders: [String] = [],
                               suffixes: Set<String> = imageSuffixes, outputSuffix: String = "png") -> InputCollection {
        var walk = Walk(recursive: recursive, excluded: Set(outputFolders.compactMap(FileIdentity.init)), suffixes: suffixes)
        let fm = FileManager.default
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
                walk.result.problems.append(PhotoError(path: input, reason: .notFound))
                continue
            }
            if isDirectory.boolValue {
                walk.folder(input, relative: "", top: true)
            } else if OutputRecord.wrote(input) {
                walk.result.ownOutputs.append(input)
            } else {
                walk.result.files.append(InputFile(path: input))
            }
        }
        walk.result.files = disambiguated(walk.result.files, outputSuffix: outputSuffix)
        return walk.result
    }

    private struct Walk {
        let recursive: Bool
        let excluded: Set<FileIdentity>
        let suffixes: Set<String>
        var visited = Set<FileIdentity>()
        var result = InputCollection()

        init(recursive: Bool, excluded: Set<FileIdentity>, suffixes: Set<String>) {
            self.recursive = recursive; self.excluded = excluded; self.suffixes = suffixes
        }

        mutating func folder(_ folder: String, relative: String, top: Bool) {
            // A folder reached twice (a symlink loop, or two links to one place) is walked once.
            guard let identity = FileIdentity(folder), visited.insert(identity).inserted else { return }
            // An output folder inside the inputs is never read back (a top-level one is walked:
            // `--out` may be the photos' own folder, whose photos are inputs and outputs are not).
            if !top, excluded.contains(identity) { return }
            let fm = FileManager.default
            let names: [String]
            do {
                names = try fm.contentsOfDirectory(atPath: folder).sorted(by: NaturalOrder.precedes)
            } catch {
                result.problems.append(PhotoError(path: folder, reason: .notReadable))
                return
            }
            let record = OutputRecord(folder: folder)
            for name in names where !name.hasPrefix(".") {
                let path = (folder as NSString).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if recursive {
                        self.folder(path, relative: relative + name + "/", top: false)
                    } else {
                        result.unsearchedFolders.append(path)
                    }
                } else if suffixes.contains((name as NSString).pathExtension.lowercased()) {
                    if record.contains(name: name, in: folder) {
                        result.ownOutputs.append(path)
                    } else {
                        result.files.append(InputFile(path: path, outputStem: relative + stem(of: name), relativePath: relative + name))
                    }
                }
            }
        }
    }

    static func stem(of path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// One photo named twice ("a.jpg", "./a.jpg") is taken once. Photos whose results would
    /// share one name (`rot8.jpg` and `rot8.png` both give `rot8.png`) follow one rule, whatever
    /// their order: one keeps the plain name, the photo already in the results' format
    /// (`outputSuffix`: `rot8.png` for PNG results) or else the first; each other one's result
    /// takes the photo's whole name (`rot8.jpg.png`), numbered if that is taken too (`x-3.png`).
    /// `InputFile.renamed` marks them, for the summary to say.
    public static func disambiguated(_ files: [InputFile], outputSuffix: String = "png") -> [InputFile] {
        var seen = Set<AnyHashable>()
        let unique = files.filter { file in
            let key = FileIdentity(file.path).map(AnyHashable.init) ?? AnyHashable(URL(fileURLWithPath: file.path).standardized.path)
            return seen.insert(key).inserted
        }
        func format(_ file: InputFile) -> String {
            let s = (file.path as NSString).pathExtension.lowercased()
            return s == "jpeg" || s == "jpe" ? "jpg" : s
        }
        let suffix = outputSuffix.lowercased()
        // Who keeps each plain name: the first photo in the results' format, else the first.
        var keeper: [String: Int] = [:]
        for (i, file) in unique.enumerated() {
            if let k = keeper[file.outputStem] {
                if format(unique[k]) != suffix && format(file) == suffix { keeper[file.outputStem] = i }
            } else {
                keeper[file.outputStem] = i
            }
        }
        var taken = Set(keeper.keys)
        return unique.enumerated().map { i, file in
            guard keeper[file.outputStem] != i else { return file }
            var f = file
            let dir = f.outputStem.parentPath
            func inFolder(_ name: String) -> String { dir.isEmpty ? name : dir + "/" + name }
            f.outputStem = inFolder((f.path as NSString).lastPathComponent)
            var number = 2
            while taken.contains(f.outputStem) {
                number += 1
                f.outputStem = inFolder(stem(of: f.path) + "-\(number)")
            }
            taken.insert(f.outputStem)
            f.renamed = true
            return f
        }
    }
}

/// File names as people sort them: letter case ignored, runs of digits compared as numbers
/// ("photo 2" before "photo 10", "bald_guys" before "Tom_Cruise"). Ties fall back to the
/// plain text, so the order is total and the same on every machine.
public enum NaturalOrder {
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let ka = key(a), kb = key(b)
        for (x, y) in zip(ka, kb) where x != y {
            switch (x, y) {
            case (.number(let m), .number(let n)): return m.count != n.count ? m.count < n.count : m < n
            case (.text(let s), .text(let t)): return s < t
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        return ka.count != kb.count ? ka.count < kb.count : a < b
    }

    private enum Part: Equatable {
        /// Digits without leading zeros (so that longer means larger).
        case number(String)
        case text(String)
    }

    private static func key(_ name: String) -> [Part] {
        var parts: [Part] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits {
                let trimmed = current.drop { $0 == "0" }
                parts.append(.number(trimmed.isEmpty ? "0" : String(trimmed)))
            } else {
                parts.append(.text(current.lowercased()))
            }
            current = ""
        }
        for ch in name {
            let digit = ch.isASCII && ch.isNumber
            if digit != inDigits { flush(); inDigits = digit }
            current.append(ch)
        }
        flush()
        return parts
    }
}
