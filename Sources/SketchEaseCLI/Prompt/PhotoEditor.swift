import Foundation
import SketchEase

/// One photo open in `sketchease edit`: its faces and edits, and the files it writes in the
/// output folder (`name.png`, `name.preview.png`, `name.sketchease.json`, `name.compare.png`).
final class PhotoEditor {
    let file: InputFile
    var image: FilteredImage
    var detection: DetectionOptions
    let render: RenderOptions
    let compression: Int
    let fingerprint: SourceFingerprint
    /// Whether the faces now in effect have been exported.
    private(set) var exported: Bool
    let exportPath: String
    var sessionPath: String { SessionFile.path(forExport: exportPath) }
    var previewPath: String { (exportPath as NSString).deletingPathExtension + ".preview.png" }
    /// Whether the photo came back from a saved session.
    let resumed: Bool

    /// Opens `file`: resumes its saved session if the output folder has one, else detects faces.
    init(file: InputFile, outputFolder: String, detector: OpenCVFaceDetector, detection: DetectionOptions,
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
    var hasUnexportedChanges: Bool { !exported && !image.history.edits.isEmpty }

    var compositor: FaceCompositor { FaceCompositor(options: render) }
    var exportOptions: ExportOptions { ExportOptions(compression: compression, overwrite: true) }

    /// Records a change: the session file is saved at once, so nothing is lost on a crash.
    func changed() throws {
        exported = false
        try save()
    }

    func save() throws {
        let folder = (sessionPath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try SessionFile(sourcePath: file.path, fingerprint: fingerprint, output: (exportPath as NSString).lastPathComponent,
                        detection: detection, render: render, compression: compression, history: image.history,
                        exported: exported).write(to: sessionPath)
    }

    func writePreview() throws {
        let folder = (previewPath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let preview = try PreviewImage.render(image, compositor: compositor)
        try PNGExporter.write(preview, to: previewPath, options: ExportOptions(overwrite: true))
    }

    func export(compare: Bool) throws {
        try image.export(to: exportPath, compositor: compositor, options: exportOptions, compare: compare)
        exported = true
        try save()
    }
}
