import Foundation

/// One photo open for editing, in `sketchease edit` or `sketchease serve`: its faces and edits,
/// its saved session, and the files it writes in the output folder (`name.png`,
/// `name.preview.png`, `name.sketchease.json`, `name.compare.png`).
///
/// Both front ends open, save and export photos through this type, so a photo edited in one
/// opens in the other with the same faces, styles and undo history.
public final class PhotoSession {
    public let file: InputFile
    public var image: FilteredImage
    public private(set) var detection: DetectionOptions
    public let render: RenderOptions
    public let compression: Int
    public let fingerprint: SourceFingerprint
    /// Whether the faces now in effect have been exported.
    public private(set) var exported: Bool
    public let exportPath: String
    public var sessionPath: String { SessionFile.path(forExport: exportPath) }
    public var previewPath: String { (exportPath as NSString).deletingPathExtension + ".preview.png" }
    /// Whether the photo came back from a saved session.
    public let resumed: Bool

    /// Opens `file`: resumes its saved session if the output folder has one, else detects faces.
    public init(file: InputFile, outputFolder: String, detector: OpenCVFaceDetector, detection: DetectionOptions,
                render: RenderOptions, compression: Int, pixelLimit: Int = Photo.defaultPixelLimit) throws {
        self.file = file
        exportPath = (outputFolder as NSString).appendingPathComponent(file.outputName)
        let photo = try Photo.load(path: file.path, pixelLimit: pixelLimit)
        fingerprint = try SourceFingerprint.of(file: file.path)
        let sessionPath = SessionFile.path(forExport: exportPath)
        if FileManager.default.fileExists(atPath: sessionPath) {
            let session = try SessionFile.read(from: sessionPath)
            guard session.source.fingerprint == fingerprint else {
                throw SessionError(path: sessionPath, reason: .sourceChanged(
                    "made for a different or changed photo than \(file.path) (delete it to start over)"))
            }
            image = FilteredImage(photo: photo, history: try session.history(file: sessionPath))
            self.detection = session.detection.options
            self.render = session.render
            self.compression = session.compression
            exported = session.exported
            resumed = true
        } else {
            let faces = try detector.detect(in: photo, options: detection)
            image = FilteredImage(photo: photo, detected: faces)
            self.detection = detection; self.render = render; self.compression = compression
            exported = false
            resumed = false
        }
    }

    /// Edits made and not exported.
    public var hasUnexportedChanges: Bool { !exported && !image.history.edits.isEmpty }

    public var compositor: FaceCompositor { FaceCompositor(options: render) }
    public var exportOptions: ExportOptions { ExportOptions(compression: compression, overwrite: true) }

    /// Records a change: the session file is saved at once, so nothing is lost on a crash.
    public func changed() throws {
        exported = false
        try save()
    }

    public func save() throws {
        let folder = (sessionPath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try SessionFile(sourcePath: file.path, fingerprint: fingerprint, output: (exportPath as NSString).lastPathComponent,
                        detection: detection, render: render, compression: compression, history: image.history,
                        exported: exported).write(to: sessionPath)
    }

    public func writePreview() throws {
        let folder = (previewPath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let preview = try PreviewImage.render(image, compositor: compositor)
        try PNGExporter.write(preview, to: previewPath, options: ExportOptions(overwrite: true))
    }

    public func export(compare: Bool) throws {
        try image.export(to: exportPath, compositor: compositor, options: exportOptions, compare: compare)
        exported = true
        try save()
    }

    /// Finds the faces again (at `threshold` between 0 and 1, or the session's own) and replaces
    /// the current ones as one undoable edit: a face found where one was keeps its number and
    /// style. The threshold is kept for later detections. Call `changed()` afterwards, as for
    /// any edit.
    @discardableResult
    public func redetect(threshold: Double?, detector: OpenCVFaceDetector) throws -> [EditableFace] {
        var options = detection
        if let threshold { options.threshold = threshold }
        let found = try detector.detect(in: image.photo, options: options)
        let faces = image.history.redetected(found)
        try image.perform(.redetect(faces: faces))
        detection = options
        return faces
    }
}
