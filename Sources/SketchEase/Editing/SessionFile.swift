import Foundation

/// The sidecar that saves an editing session: `OUT/<name>.sketchease.json`.
///
/// It records the source photo (path, size and content hash, so it is never applied to another
/// photo), how faces were found and drawn, the detected faces and the edit history with its
/// undo position: enough to resume editing or to re-render the export exactly.
public struct SessionFile: Sendable, Equatable, Codable {
    public static let format = "sketchease-session"
    public static let currentVersion = 1

    public struct Source: Sendable, Equatable, Codable {
        /// Absolute path of the photo.
        public var path: String
        public var fingerprint: SourceFingerprint
    }

    public struct Detection: Sendable, Equatable, Codable {
        public var maxSide: Int
        public var threshold: Double
        public var options: DetectionOptions { DetectionOptions(maxSide: maxSide, threshold: threshold) }
        public init(_ options: DetectionOptions) { maxSide = options.maxSide; threshold = options.threshold }
    }

    public var format: String = SessionFile.format
    public var version: Int = SessionFile.currentVersion
    public var source: Source
    /// The exported PNG's file name, in the session file's folder.
    public var output: String
    public var detection: Detection
    public var render: RenderOptions
    public var compression: Int
    /// Faces as detected, before any edit.
    public var faces: [EditableFace]
    public var edits: [Edit]
    /// How many edits are in effect (the rest were undone and can be redone).
    public var position: Int
    /// Whether the faces in effect have been exported.
    public var exported: Bool

    public init(sourcePath: String, fingerprint: SourceFingerprint, output: String, detection: DetectionOptions,
                render: RenderOptions, compression: Int, history: EditHistory, exported: Bool) {
        source = Source(path: Self.absolute(sourcePath), fingerprint: fingerprint)
        self.output = output; self.detection = Detection(detection); self.render = render
        self.compression = compression; faces = history.detected; edits = history.edits
        position = history.position; self.exported = exported
    }

    /// Where the session for export `pngPath` lives: beside it, `name.sketchease.json`.
    public static func path(forExport pngPath: String) -> String {
        (pngPath as NSString).deletingPathExtension + ".sketchease.json"
    }

    /// The history, checked: every edit must apply.
    public func history(file: String) throws -> EditHistory {
        do {
            return try EditHistory(detected: faces, edits: edits, position: position)
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

    /// Writes atomically (temporary file in the same folder, then rename).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        do {
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
