import Foundation

/// The images SketchEase has written into a folder, so that they are never taken for photos.
///
/// Each folder SketchEase writes an image into keeps `.sketchease/written.log`: one line per
/// image, with its name, size and modification time at the moment it was written. A file counts
/// as SketchEase's own while it still has a size and time it was written with; a photo copied
/// over it later is the person's again. Lines are appended (one `write` each, so parallel
/// writers do not interleave), and the line goes in before the file takes its name, so a
/// process killed in between never leaves an output of its own unrecorded.
///
/// Files inside a `.sketchease` folder (previews, sessions) are SketchEase's by where they are
/// and are not recorded.
public struct OutputRecord: Sendable {
    /// The hidden folder SketchEase keeps its own files in, inside an output folder.
    public static let folderName = ".sketchease"
    static let logName = "written.log"

    struct Entry: Codable, Hashable {
        var name: String
        var size: Int64
        /// Modification time, nanoseconds since 1970.
        var mtime: Int64
    }

    private let entries: Set<Entry>

    /// The record of `folder` (empty when it has none or it cannot be read).
    public init(folder: String) {
        let log = Self.logPath(in: folder)
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { entries = []; return }
        let decoder = JSONDecoder()
        entries = Set(text.split(separator: "\n").compactMap { try? decoder.decode(Entry.self, from: Data($0.utf8)) })
    }

    /// Whether the file `name` in this folder is one SketchEase wrote and nobody changed since.
    public func contains(name: String, in folder: String) -> Bool {
        guard !entries.isEmpty, let entry = Self.entry(for: (folder as NSString).appendingPathComponent(name), name: name) else {
            return false
        }
        return entries.contains(entry)
    }

    /// Whether the file at `path` is one SketchEase wrote (or lives in a `.sketchease` folder).
    public static func wrote(_ path: String) -> Bool {
        let folder = path.parentPath
        if isPrivate(folder) { return true }
        return OutputRecord(folder: folder.isEmpty ? "." : folder).contains(name: (path as NSString).lastPathComponent,
                                                                          in: folder.isEmpty ? "." : folder)
    }

    /// Records that `file` (a finished temporary file) is about to become `name` in `folder`.
    /// Best effort: a folder whose record cannot be written only means a later run will treat
    /// the output as someone else's file, and refuse to replace it.
    public static func note(file: String, as name: String, in folder: String) {
        guard !isPrivate(folder), let entry = entry(for: file, name: name),
              let line = try? JSONEncoder().encode(entry) else { return }
        let hidden = (folder as NSString).appendingPathComponent(folderName)
        try? FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        let log = logPath(in: folder)
        let fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let bytes = [UInt8](line) + [UInt8(ascii: "\n")]
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let size = lseek(fd, 0, SEEK_END)
        close(fd)
        if size > compactionSize { compact(folder) }
    }

    /// A record grows by a line a file written (a folder rewritten every night for years, or a
    /// fuzzer writing one file a million times): past this size it is rewritten with only the
    /// lines of files still there as written.
    static let compactionSize = 1 << 20

    static func compact(_ folder: String) {
        let record = OutputRecord(folder: folder)
        let kept = record.entries.filter { entry(for: (folder as NSString).appendingPathComponent($0.name), name: $0.name) == $0 }
        let encoder = JSONEncoder()
        let text = kept.compactMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
        // Atomic: a writer appending at this moment may lose its line, which only makes that one
        // file count as someone else's (never replaced): the safe side.
        try? text.write(toFile: logPath(in: folder), atomically: true, encoding: .utf8)
    }

    /// True for SketchEase's own hidden folder (and anything below it).
    static func isPrivate(_ folder: String) -> Bool {
        folder.split(separator: "/").contains { $0 == folderName }
    }

    private static func logPath(in folder: String) -> String {
        ((folder as NSString).appendingPathComponent(folderName) as NSString).appendingPathComponent(logName)
    }

    private static func entry(for path: String, name: String) -> Entry? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return Entry(name: name, size: Int64(info.st_size), mtime: mtime)
    }
}
