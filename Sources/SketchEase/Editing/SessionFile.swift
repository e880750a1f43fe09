import Foundation

/// The sidecar that saves an editing session: `OUT/.sketchease/<name>.sketchease.json`.
///
/// It records the source photo (path, size and content hash, so it is never applied to another
/// photo), how faces were found and drawn, the detected faces and the edit history with its
/// undo position: enough to resume editing or to re-render the export exactly.
///
/// Version 2 keeps sessions in the output folder's hidden `.sketchease/` folder, names the
/// export relative to the session file (`../name.png`) and records its format; version 1
/// files (beside their export, always PNG) are still read.
public struct SessionFile: Sendable, Equatable, Codable {
    public static let format = "sketchease-session"
    public static let currentVersion = 2

    public struct Source: Sendable, Equatable, Codable {
        /// Absolute path of the photo.
        public var path: String
        public var fingerprint: SourceFingerprint
    }

    public struct Detection: Sendable, Equatable, Codable {
        public var maxSide: Int
        public var threshold: Double
        /// Absent from sessions saved before tiled detection: those searched the coarse copy only (0).
        public var minFace: Int?
        public var rotations: RotationSearch?
        public var options: DetectionOptions {
            DetectionOptions(maxSide: maxSide, threshold: threshold, minFace: minFace ?? 0, rotations: rotations ?? .off)
        }
        public init(_ options: DetectionOptions) {
            maxSide = options.maxSide; threshold = options.threshold; minFace = options.minFace; rotations = options.rotations
        }
    }

    public var format: String = SessionFile.format
    public var version: Int = SessionFile.currentVersion
    public var source: Source
    /// The export's path relative to the session file's folder ("../group.png").
    public var output: String
    public var detection: Detection
    public var render: RenderOptions
    public var compression: Int
    /// The export's format and (JPEG, WebP) quality; absent in version 1 files (PNG).
    public var imageFormat: ImageFormat?
    public var quality: Int?
    /// Faces as detected, before any edit.
    public var faces: [EditableFace]
    public var edits: [Edit]
    /// How many edits are in effect (the rest were undone and can be redone).
    public var position: Int
    /// Whether the faces in effect have been exported.
    public var exported: Bool
    /// For a clip: how its faces are followed and it is encoded (its faces are its tracks).
    public var clip: ClipSessionSettings?

    enum CodingKeys: String, CodingKey {
        case format, version, source, output, detection, render, compression, imageFormat = "image_format", quality
        case faces, edits, position, exported, clip
    }

    /// A session for the export at `exportPath` (whose file is `SessionFile.path(forExport:)`).
    public init(sourcePath: String, fingerprint: SourceFingerprint, exportPath: String, detection: DetectionOptions,
                render: RenderOptions, export: ExportOptions, history: EditHistory, exported: Bool) {
        source = Source(path: Self.absolute(sourcePath), fingerprint: fingerprint)
        output = "../" + (exportPath as NSString).lastPathComponent
        self.detection = Detection(detection); self.render = render
        compression = export.compression; imageFormat = export.format; quality = export.quality
        faces = history.detected; edits = history.edits
        position = history.position; self.exported = exported
    }

    /// Where the session for the export at `exportPath` lives: in the hidden `.sketchease`
    /// folder beside it, `.sketchease/name.sketchease.json`.
    public static func path(forExport exportPath: String) -> String {
        let folder = exportPath.parentPath
        let stem = ((exportPath as NSString).lastPathComponent as NSString).deletingPathExtension
        return ((folder as NSString).appendingPathComponent(OutputRecord.folderName) as NSString)
            .appendingPathComponent(stem + ".sketchease.json")
    }

    /// The sessions in an output folder (`OUT/.sketchease/*.sketchease.json`), in natural order.
    public static func sessions(inOutputFolder folder: String) -> [String] {
        let hidden = (folder as NSString).appendingPathComponent(OutputRecord.folderName)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: hidden)) ?? []
        return names.filter { $0.hasSuffix(".sketchease.json") }.sorted(by: NaturalOrder.precedes)
            .map { (hidden as NSString).appendingPathComponent($0) }
    }

    /// Where this session's export goes, for the session file at `file`; `folder` puts it there
    /// instead (under the same name).
    public func exportPath(sessionFile file: String, folder: String? = nil) -> String {
        if let folder { return (folder as NSString).appendingPathComponent((output as NSString).lastPathComponent) }
        let own = file.parentPath
        return URL(fileURLWithPath: own.isEmpty ? "." : own).appendingPathComponent(output).standardizedFileURL.path
    }

    /// How the export is written: format, quality and compression as the session recorded them.
    public var exportOptions: ExportOptions {
        ExportOptions(compression: compression, overwrite: true, format: imageFormat ?? .png,
                      quality: quality ?? ExportOptions.defaultQuality)
    }

    /// The history over a photo of `size`, checked: every face lies on the photo and every
    /// edit applies.
    public func history(file: String, imageSize: ImageSize) throws -> EditHistory {
        do {
            return try EditHistory(detected: faces, edits: edits, position: position, imageSize: imageSize)
        } catch {
            throw SessionError(path: file, reason: .invalid("\(error)"))
        }
    }

    /// Throws unless `path` still holds the photo this session was made from.
    public func checkSource(file: String) throws {
        let now: SourceFingerprint
        do { now = try SourceFingerprint.of(file: source.path) } catch {
            throw SessionError(path: file, reason: .sourceChanged("its photo \(source.path) is missing or unreadable"))
        }
        guard now == source.fingerprint else {
            throw SessionError(path: file, reason: .sourceChanged(
                "its photo \(source.path) has changed since the session was saved (delete the session file to start over)"))
        }
    }

    /// The session saved for `source` (a photo or a clip, whose fingerprint is `fingerprint`) at
    /// `path`, or nil when there is none. One that cannot be read, or was made for another
    /// file or for this one before it changed, is refused naming it and how to start over.
    public static func resume(at path: String, for source: InputFile, fingerprint: SourceFingerprint,
                              clip: Bool = false) throws -> SessionFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let startOver = "delete it to start this \(clip ? "clip" : "photo") over"
        let session: SessionFile
        do { session = try read(from: path) } catch let error as SessionError {
            throw SessionError(path: path, reason: .sourceChanged("\(error.reasonText); \(startOver)"))
        }
        guard session.source.fingerprint == fingerprint, (session.clip != nil) == clip else {
            throw SessionError(path: path, reason: .sourceChanged(
                "made for a different or changed \(clip ? "file" : "photo") than \(source.path) (\(startOver))"))
        }
        return session
    }

    /// Writes atomically (temporary file in the same folder, then rename), making the folder
    /// if needed.
    public func write(to path: String) throws {
        let encoder = JSONEncoder.readable
        let data = try encoder.encode(self)
        do {
            let folder = path.parentPath
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw PhotoError(path: path, reason: .outputNotWritable(error.localizedDescription))
        }
    }

    /// Reads a session; a damaged, foreign or newer file gives a `SessionError` naming it.
    public static func read(from path: String) throws -> SessionFile {
        let data = try VersionedJSON.load(path, format: format, supported: currentVersion)
        do {
            return try JSONDecoder().decode(SessionFile.self, from: data)
        } catch {
            throw SessionError(path: path, reason: .invalid(VersionedJSON.describe(error)))
        }
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
