import Foundation

/// One photo open for editing, by any front end (the `edit` prompt, the browser): its faces
/// and edit history, and the files it keeps in the output folder.
///
/// In `OUT/`: the export `name.png` (or `.jpg`, `.webp`) and, with `compare`,
/// `name.compare.png`. In `OUT/.sketchease/`: the session `name.sketchease.json`, saved after
/// every change so nothing is lost on a crash, and the preview `name.preview.png`. Opening a
/// photo whose session is there resumes it.
public final class EditingSession {
    public let file: InputFile
    public private(set) var image: FilteredImage
    public private(set) var detection: DetectionOptions
    public let render: RenderOptions
    public let export: ExportOptions
    public let fingerprint: SourceFingerprint
    /// Whether the faces now in effect have been exported.
    public private(set) var exported: Bool
    /// Whether the session file holds the faces now in effect (false after a save failed).
    public private(set) var isSaved = true
    public let exportPath: String
    /// Whether the photo came back from a saved session.
    public let resumed: Bool

    /// Opens `file`: resumes its saved session if the output folder has one, else detects
    /// faces. A session that cannot be used says so, naming it and how to start over.
    public init(file: InputFile, outputFolder: String, detector: OpenCVFaceDetector, detection: DetectionOptions,
                render: RenderOptions, export: ExportOptions, pixelLimit: Int = Photo.defaultPixelLimit) throws {
        self.file = file
        exportPath = (outputFolder as NSString).appendingPathComponent(file.outputName(export.format))
        let photo = try Photo.load(path: file.path, pixelLimit: pixelLimit)
        fingerprint = try SourceFingerprint.of(file: file.path)
        let sessionPath = SessionFile.path(forExport: exportPath)
        if let session = try SessionFile.resume(at: sessionPath, for: file, fingerprint: fingerprint) {
            let startOver = "delete it to start this photo over"
            do {
                image = FilteredImage(photo: photo, history: try session.history(file: sessionPath, imageSize: photo.size))
            } catch let error as SessionError {
                throw SessionError(path: sessionPath, reason: .sourceChanged("\(error.reasonText); \(startOver)"))
            }
            self.detection = session.detection.options
            self.render = session.render
            self.export = session.exportOptions
            exported = session.exported
            resumed = true
        } else {
            let faces = try detector.detect(in: photo, options: detection)
            image = FilteredImage(photo: photo, detected: faces)
            self.detection = detection; self.render = render
            var export = export
            export.overwrite = true
            self.export = export
            exported = false
            resumed = false
        }
    }

    /// Remembers groups and mattes between previews (`RenderMemo`).
    private let memo = RenderMemo()

    public var compositor: FaceCompositor { FaceCompositor(options: render, memo: memo, sideBySide: true) }

    /// The one way the faces change (see `FaceEditingSession`): after it the export is out of
    /// date and the session is saved at once.
    public func change<Result>(_ body: (inout EditHistory) throws -> Result) throws -> Result {
        let result = try body(&image.history)
        exported = false
        try save()
        return result
    }

    /// Finds the faces again with `options` (faces matching earlier ones keep their number and
    /// style), as one undoable edit; returns how many were found.
    public func redetect(with detector: OpenCVFaceDetector, options: DetectionOptions) throws -> Int {
        let found = try detector.detect(in: image.photo, options: options)
        let faces = image.history.redetected(found)
        try change { history in
            try history.perform(.redetect(faces: faces))
            detection = options
        }
        return faces.count
    }

    public func save() throws {
        isSaved = false
        try SessionFile(sourcePath: file.path, fingerprint: fingerprint, exportPath: exportPath, detection: detection,
                        render: render, export: export, history: image.history, exported: exported).write(to: sessionPath)
        isSaved = true
    }

    /// Writes the preview (the current result, reduced, with numbered boxes).
    public func writePreview() throws {
        try ImageExporter.write(try PreviewImage.render(image, compositor: compositor), to: previewPath,
                                options: ExportOptions(compression: 1, overwrite: true))
    }

    /// Writes the export at full size (and the before/after comparison with `compare`).
    public func export(compare: Bool) throws {
        try image.export(to: exportPath, compositor: compositor, options: export, compare: compare)
        exported = true
        try save()
    }
}
