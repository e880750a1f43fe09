import Foundation
import SketchEase

/// The folders `serve` may read, and the one way a photo named in a request becomes a file.
///
/// A photo is named by an id: its folder's label and its path inside that folder
/// ("photos/trip/beach.jpg"). Ids that are absolute, climb out with `..`, name a hidden file,
/// or lead (through a symlink) outside the folder are refused, each with its reason; the
/// server answers them with a 4xx and logs one line.
struct FolderAccess: Sendable {
    struct Root: Sendable {
        /// The first component of the ids of its photos.
        var label: String
        /// The folder with every symlink resolved.
        var real: String
        /// For a single photo given on the command line: that photo, resolved; nothing else
        /// in its folder is served.
        var onlyFile: String?
    }

    /// Why a name from a request was refused.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        var status: Int
        var reason: String
        var description: String { reason }
    }

    let roots: [Root]

    /// Roots for the inputs and the upload folder (which must exist). Inputs that do not
    /// exist are left out (the strip shows what there is).
    init(inputs: [String], uploadFolder: String) {
        var taken = Set<String>()
        func label(_ name: String) -> String {
            let base = name.isEmpty || name == "/" ? "photos" : name
            var candidate = base, n = 1
            while !taken.insert(candidate).inserted { n += 1; candidate = "\(base)-\(n)" }
            return candidate
        }
        var roots: [Root] = []
        let uploads = Self.resolved(uploadFolder)
        roots.append(Root(label: label("uploads"), real: uploads, onlyFile: nil))
        let fm = FileManager.default
        for input in inputs {
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isFolder) else { continue }
            let real = Self.resolved(input)
            if isFolder.boolValue {
                roots.append(Root(label: label((real as NSString).lastPathComponent), real: real, onlyFile: nil))
            } else {
                let folder = real.parentPath
                roots.append(Root(label: label((folder as NSString).lastPathComponent), real: folder, onlyFile: real))
            }
        }
        self.roots = roots
    }

    /// The id of a file, by its resolved path; nil when it lies outside every root (a symlink
    /// out of a served folder), or is not the one photo a single-file root serves.
    func id(forResolved real: String) -> String? {
        // The deepest root wins when one served folder lies inside another.
        for root in roots.sorted(by: { $0.real.count > $1.real.count }) {
            if let only = root.onlyFile {
                if real == only { return root.label + "/" + (real as NSString).lastPathComponent }
                continue
            }
            if real.hasPrefix(root.real.hasSuffix("/") ? root.real : root.real + "/") {
                return root.label + "/" + real.dropFirst(root.real.count).drop { $0 == "/" }
            }
        }
        return nil
    }

    /// The resolved path of the file an id names, after every check.
    func resolve(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 4096, !name.contains("\0"), !name.contains("\\") else {
            throw Refusal(status: 400, reason: "malformed photo name")
        }
        guard !name.hasPrefix("/"), !name.hasPrefix("~") else {
            throw Refusal(status: 403, reason: "absolute paths are not served")
        }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else {
            throw Refusal(status: 400, reason: "malformed photo name")
        }
        if parts.contains(where: { $0 == ".." || $0 == "." }) {
            throw Refusal(status: 403, reason: "path traversal ('..') is not served")
        }
        if parts.dropFirst().contains(where: { $0.hasPrefix(".") }) {
            throw Refusal(status: 403, reason: "hidden files are not served")
        }
        guard let root = roots.first(where: { $0.label == parts[0] }) else {
            throw Refusal(status: 404, reason: "no served folder named '\(parts[0])'")
        }
        let candidate = root.real + "/" + parts.dropFirst().joined(separator: "/")
        guard FileManager.default.fileExists(atPath: candidate) else {
            throw Refusal(status: 404, reason: "no such photo")
        }
        let real = Self.resolved(candidate)
        guard id(forResolved: real) != nil else {
            throw Refusal(status: 403, reason: "outside the served folders (a link to elsewhere)")
        }
        return real
    }

    /// `path` made absolute with every symlink and `.`/`..` resolved.
    static func resolved(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        guard let real = realpath(absolute, nil) else { return URL(fileURLWithPath: absolute).standardizedFileURL.path }
        defer { free(real) }
        return String(cString: real)
    }
}
