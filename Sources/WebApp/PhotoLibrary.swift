import FFmpeg
import Foundation
import Synchronization
import SketchEase
import Video

/// The photos `serve` offers: every photo in the served folders (walked recursively, as
/// `batch --recursive` walks them, with the same output names) and the uploads, their strip
/// thumbnails, and new uploads.
final class PhotoLibrary: Sendable {
    struct Entry: Sendable {
        /// The photo's id in requests ("photos/trip/beach.jpg").
        var id: String
        var file: InputFile
        /// A clip (named like one: `ClipFiles`), opened with `ClipWorkspace`.
        var isClip: Bool { ClipFiles.isClip(file.path) }
    }

    /// A refused upload: one line for the page.
    struct UploadRefusal: Error, CustomStringConvertible {
        var status: Int
        var description: String
    }

    let settings: ServeSettings
    let access: FolderAccess
    private let listing = Mutex<[Entry]>([])
    private let thumbnails = Mutex<[String: (stamp: String, bytes: [UInt8])]>([:])
    private let clipInfos = Mutex<[String: (stamp: String, summary: ClipSummary, poster: [UInt8])]>([:])

    static let thumbnailSide = 240

    init(settings: ServeSettings) throws {
        self.settings = settings
        try OutputFolder.prepare(settings.uploadFolder)
        access = FolderAccess(inputs: settings.inputs, uploadFolder: settings.uploadFolder)
    }

    /// Walks the folders again: the photos in strip order (folders in command-line order, then
    /// uploads), and the inputs that could not be read.
    @discardableResult
    func refresh() -> (entries: [Entry], problems: [PhotoError]) {
        // The output folder is never walked into (its uploads are named on their own).
        let collection = InputCollector.collect(settings.inputs + [settings.uploadFolder], recursive: true,
                                                outputFolders: [settings.outputFolder],
                                                outputSuffix: settings.export.format.fileExtension)
        let clips = ClipFiles.collect(settings.inputs + [settings.uploadFolder], recursive: true, outputFolder: settings.outputFolder)
        let problems = collection.problems + clips.problems.filter { p in !collection.problems.contains { $0.path == p.path } }
        // A file named on the command line is in both collections: a clip by its name, else a photo.
        let files = collection.files.filter { !ClipFiles.isClip($0.path) } + clips.files.filter { ClipFiles.isClip($0.path) }
        let entries = files.compactMap { file -> Entry? in
            // A symlink out of a served folder has no id, so it is never listed or opened.
            access.id(forResolved: FolderAccess.resolved(file.path)).map { Entry(id: $0, file: file) }
        }
        listing.withLock { $0 = entries }
        return (entries, problems)
    }

    /// The photo an id names, after `FolderAccess`'s checks; the folders are walked again when
    /// it is not among the photos last listed (added since).
    func entry(_ id: String) throws -> Entry {
        _ = try access.resolve(id)
        if let found = listing.withLock({ $0.first { $0.id == id } }) { return found }
        guard let found = refresh().entries.first(where: { $0.id == id }) else {
            throw FolderAccess.Refusal(status: 404, reason: "not a photo SketchEase can open (by its name)")
        }
        return found
    }

    /// A small JPEG of the photo for the strip, made with shrink-on-load and kept until the
    /// file changes.
    func thumbnail(_ entry: Entry) throws -> [UInt8] {
        if entry.isClip { return try clipInfo(entry).poster }
        let stamp = Self.stamp(entry.file.path)
        if let cached = thumbnails.withLock({ $0[entry.id] }), cached.stamp == stamp { return cached.bytes }
        try Photo.inspect(path: entry.file.path, pixelLimit: settings.pixelLimit)
        let bytes: [UInt8]
        do {
            bytes = try VipsImage.thumbnail(path: entry.file.path, maxSide: Self.thumbnailSide).encoded(as: ".jpg[Q=82,strip]")
        } catch let error as VipsError {
            throw PhotoError(path: entry.file.path, reason: .corrupt(error.message))
        }
        thumbnails.withLock { $0[entry.id] = (stamp, bytes) }
        return bytes
    }

    static func stamp(_ path: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return "\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)-\((attributes?[.size] as? NSNumber)?.intValue ?? 0)"
    }

    /// A clip's length and size from its header, and its poster (its first frame, small),
    /// kept until the file changes. A file that is no clip SketchEase can read throws
    /// `MediaError`, naming it and why.
    func clipInfo(_ entry: Entry) throws -> (summary: ClipSummary, poster: [UInt8]) {
        let stamp = Self.stamp(entry.file.path)
        if let cached = clipInfos.withLock({ $0[entry.id] }), cached.stamp == stamp { return (cached.summary, cached.poster) }
        let (summary, poster) = try Self.probe(clip: entry.file.path, pixelLimit: settings.pixelLimit)
        clipInfos.withLock { $0[entry.id] = (stamp, summary, poster) }
        return (summary, poster)
    }

    /// Reads a clip's header and decodes its first frame.
    static func probe(clip path: String, pixelLimit: Int) throws -> (ClipSummary, [UInt8]) {
        let reader = try MediaReader(MediaSource(path: path), pixelLimit: pixelLimit)
        var first: VideoFrame?
        while first == nil, let item = try reader.next() { if case .frame(let f) = item { first = f } }
        guard let first else {
            throw MediaError(path: path, reason: reader.damage.readError.map { .corrupt($0) } ?? .corrupt("no video frames could be decoded"))
        }
        let (pixels, width, height) = FrameScaler().rgb(of: first, maxSide: thumbnailSide)
        let poster = try VipsImage.fromPixels(pixels, width: width, height: height, bands: 3).encoded(as: ".jpg[Q=82,strip]")
        let video = reader.video
        return (ClipSummary(duration: video.duration, width: video.width, height: video.height, frames: video.estimatedFrames), poster)
    }

    /// Saves an uploaded photo (or camera picture) in the upload folder under a safe, unused
    /// name, once it is known to be an image within the limits `batch` applies (checked from
    /// the header, then decoded in full so a truncated file is refused now, not when opened).
    func upload(named name: String, bytes: [UInt8]) throws -> Entry {
        let folder = settings.uploadFolder
        let safe = Self.safeName(name)
        guard !bytes.isEmpty else { throw UploadRefusal(status: 422, description: "\(safe): empty file (0 bytes)") }
        let temporary = (folder as NSString).appendingPathComponent(".upload-\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw UploadRefusal(status: 500, description: "\(safe): cannot write to \(folder)")
        }
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let loader: String
        if ClipFiles.isClip(safe) {
            // A clip: its header read and its first frame decoded, as the strip's poster is made.
            do { _ = try Self.probe(clip: temporary, pixelLimit: settings.pixelLimit) } catch let error as MediaError {
                throw UploadRefusal(status: 422, description: "\(safe): \(error.reasonText)")
            }
            loader = ""
        } else {
            do {
                try Photo.inspect(path: temporary, pixelLimit: settings.pixelLimit)
                _ = try Photo.load(path: temporary, pixelLimit: settings.pixelLimit)
                loader = (try? VipsImage.load(path: temporary).loader) ?? ""
            } catch let error as PhotoError {
                throw UploadRefusal(status: error.reason.isTooLarge ? 413 : 422, description: "\(safe): \(error.reasonText)")
            }
        }
        var final = safe
        let suffix = (safe as NSString).pathExtension.lowercased()
        if !InputCollector.imageSuffixes.contains(suffix) && !ClipFiles.isClip(safe) { final += "." + Self.suffix(forLoader: loader) }
        let path = Self.unusedPath(in: folder, for: final)
        do {
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            throw UploadRefusal(status: 500, description: "\(safe): cannot write to \(folder) (\(error.localizedDescription))")
        }
        guard let id = access.id(forResolved: FolderAccess.resolved(path)),
              let entry = refresh().entries.first(where: { $0.id == id }) else {
            throw UploadRefusal(status: 500, description: "\(safe): saved, but not found again in \(folder)")
        }
        return entry
    }

    /// A plain file name from whatever the browser sent: no folders, no leading dot, only
    /// letters, digits, spaces and `._-+()`, at most 100 characters.
    static func safeName(_ name: String) -> String {
        let base = (name as NSString).lastPathComponent
        var kept = String(base.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) || " ._-+()".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        })
        while kept.hasPrefix(".") || kept.hasPrefix(" ") { kept.removeFirst() }
        kept = String(kept.prefix(100)).trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? "upload" : kept
    }

    static func suffix(forLoader loader: String) -> String {
        let known = ["jpeg": "jpg", "png": "png", "webp": "webp", "tiff": "tif", "gif": "gif", "heif": "heic",
                     "jp2k": "jp2", "jxl": "jxl"]
        return known.first { loader.hasPrefix($0.key) }?.value ?? "img"
    }

    /// `folder/name`, or `folder/name-2.ext`, `-3`… if taken.
    static func unusedPath(in folder: String, for name: String) -> String {
        let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        var candidate = name, n = 1
        while FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(candidate)) {
            n += 1
            candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
        }
        return (folder as NSString).appendingPathComponent(candidate)
    }
}

extension PhotoError.Reason {
    var isTooLarge: Bool {
        switch self {
        case .tooLarge, .tooMuchData: true
        default: false
        }
    }
}
