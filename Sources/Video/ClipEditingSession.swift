import FFmpeg
import Foundation
import SketchEase

/// One clip open for editing at the prompt: its faces are its tracks, each an `EditableFace`
/// with the track's id and its box on the frame that shows it best, in an `EditHistory` saved
/// in a session file like a photo's (with the clip's settings, `SessionFile.clip`).
///
/// The preview is a contact sheet: every track's clearest picture, numbered and drawn in its
/// style. A moved or resized face moves or resizes its whole track; a deleted one is left as
/// filmed; a box added on a frame is followed through the clip from there. Resuming a session
/// follows the clip again (the same settings find the same tracks) and checks that it did.
public final class ClipEditingSession: FaceEditingSession {
    public let file: InputFile
    public private(set) var history: EditHistory
    public private(set) var detection: DetectionOptions
    public let render: RenderOptions
    public private(set) var settings: ClipSessionSettings
    public let fingerprint: SourceFingerprint
    public private(set) var exported: Bool
    public private(set) var isSaved = true
    public let exportPath: String
    public let resumed: Bool
    public var picture: String { "frame" }

    private var tracks: ClipTracks
    private let pictures = TrackPictures()
    private let source: MediaSource
    private let detector: OpenCVFaceDetector
    private let pixelLimit: Int
    private let progress: @Sendable (ClipProgress) -> Void
    /// Shown every frame of the pass that follows the faces (the browser keeps a small copy).
    private let seen: (@Sendable (VideoFrame) -> Void)?
    /// The box each face id was added with (on its frame), for faces added by hand.
    private var added: [Int: FaceBox] = [:]

    /// Opens `file` (a clip): resumes its saved session if the output folder has one, else
    /// follows its faces. `progress` hears about each pass over the clip.
    public init(file: InputFile, outputFolder: String, detector: OpenCVFaceDetector, detection: DetectionOptions,
                render: RenderOptions, settings: ClipSessionSettings, pixelLimit: Int = Photo.defaultPixelLimit,
                progress: @escaping @Sendable (ClipProgress) -> Void = { _ in },
                frames seen: (@Sendable (VideoFrame) -> Void)? = nil) throws {
        self.file = file
        self.detector = detector
        self.pixelLimit = pixelLimit
        self.progress = progress
        self.seen = seen
        source = MediaSource(path: file.path)
        exportPath = (outputFolder as NSString).appendingPathComponent(file.outputStem + "." + settings.encoding.format.fileExtension)
        do { fingerprint = try SourceFingerprint.of(file: file.path) } catch { throw MediaError(path: file.path, reason: .notReadable) }
        let sessionPath = SessionFile.path(forExport: exportPath)
        let saved: SessionFile?
        if let session = try SessionFile.resume(at: sessionPath, for: file, fingerprint: fingerprint, clip: true),
           let clip = session.clip {
            saved = session
            self.detection = session.detection.options
            self.render = session.render
            self.settings = clip
            exported = session.exported
            resumed = true
        } else {
            saved = nil
            self.detection = detection; self.render = render; self.settings = settings
            exported = false
            resumed = false
        }
        tracks = ClipTracks(frames: [], width: 0, height: 0, frameRate: 30)
        history = EditHistory(detected: [], imageSize: ImageSize(width: 1, height: 1))
        tracks = try analyse()
        let size = ImageSize(width: tracks.width, height: tracks.height)
        let found = tracks.ids.compactMap { id in
            pictures.pictures[id].map { EditableFace(id: id, box: $0.box, landmarks: $0.landmarks) }
        }
        if let saved {
            guard Self.same(found, saved.faces) else {
                throw SessionError(path: sessionPath, reason: .sourceChanged(
                    "the clip's faces came out differently this time (another model or detector?); delete it to start this clip over"))
            }
            history = try saved.history(file: sessionPath, imageSize: size)
            for edit in saved.edits { if case .add(let id, let box, _) = edit { added[id] = box } }
            try follow(Array(added.keys))
        } else {
            history = EditHistory(detected: found, imageSize: size)
        }
    }

    /// Reopens the clip session saved in `sessionFile` (for `apply`).
    public static func open(sessionFile: String, detector: OpenCVFaceDetector, pixelLimit: Int = Photo.defaultPixelLimit,
                            progress: @escaping @Sendable (ClipProgress) -> Void = { _ in }) throws -> ClipEditingSession {
        let session = try SessionFile.read(from: sessionFile)
        guard let clip = session.clip else { throw SessionError(path: sessionFile, reason: .invalid("not a clip's session")) }
        let export = session.exportPath(sessionFile: sessionFile)
        let stem = ((export as NSString).lastPathComponent as NSString).deletingPathExtension
        return try ClipEditingSession(file: InputFile(path: session.source.path, outputStem: stem), outputFolder: export.parentPath,
                                      detector: detector, detection: session.detection.options, render: session.render,
                                      settings: clip, pixelLimit: pixelLimit, progress: progress)
    }

    private func renderer(styles: TrackStyles = TrackStyles(others: nil)) -> ClipRenderer {
        let options = ClipOptions(detection: detection, tracking: settings.tracking, render: history.rendering(render), encoding: settings.encoding,
                                  styles: styles, overwrite: true, pixelLimit: pixelLimit)
        let detector = self.detector
        return ClipRenderer(options: options) { detector }
    }

    /// Follows the clip's faces, keeping each track's clearest picture.
    private func analyse() throws -> ClipTracks {
        let (pictures, seen) = (self.pictures, self.seen)
        let (found, report) = try renderer().track(source, progress: progress) { frame, tracked in
            pictures.consider(frame, tracked)
            seen?(frame)
        }
        if let warning = report.damageWarning { FileHandle.standardError.write(Data(("warning: " + warning + "\n").utf8)) }
        return found
    }

    /// Follows the boxes added by hand (`added`, by id) from their frames.
    private func follow(_ ids: [Int]) throws {
        let requests = ids.compactMap { id -> ClipRenderer.Follow? in
            guard let box = added[id], let frame = settings.addedOn[String(id)] else { return nil }
            return ClipRenderer.Follow(id: id, moment: .frame(frame), box: box)
        }
        let pictures = self.pictures
        let followed = try renderer().follow(source, requests) { frame, request in
            pictures.take(request.id, box: request.box, from: frame)
        }
        let fade = Int((settings.fade * tracks.frameRate).rounded())
        for (id, boxes) in followed {
            for i in tracks.frames.indices { tracks.frames[i].faces.removeAll { $0.id == id } }
            tracks.add(id: id, boxes: boxes, fadeFrames: fade)
        }
    }

    static func same(_ a: [EditableFace], _ b: [EditableFace]) -> Bool {
        guard a.map(\.id) == b.map(\.id) else { return false }
        return zip(a, b).allSatisfy { x, y in
            abs(x.box.x - y.box.x) < 1 && abs(x.box.y - y.box.y) < 1 && abs(x.box.width - y.box.width) < 1 && abs(x.box.height - y.box.height) < 1
        }
    }

    // MARK: - FaceEditingSession

    public var summary: String {
        let n = history.faces.count
        let seconds = tracks.frames.last.map { Rounding.text($0.time + 1 / max(tracks.frameRate, 1), places: 1) } ?? "0"
        return "\(n) tracked face\(n == 1 ? "" : "s") (\(tracks.width)×\(tracks.height), \(seconds) s, \(tracks.frames.count) frames)"
    }

    /// The one way the tracks' faces change (see `FaceEditingSession`).
    public func change<Result>(_ body: (inout EditHistory) throws -> Result) throws -> Result {
        let result = try body(&history)
        exported = false
        try save()
        return result
    }

    /// A box on the frame shown at `time` seconds (the first frame without one), followed
    /// through the clip from there. A time at or past the clip's end is refused: it names no
    /// frame (it was placed on the last one without a word).
    public func addition(of box: FaceBox, style: FaceStyle?, at time: Double?) throws -> Edit {
        if let time, let problem = tracks.pastTheEnd(time) { throw EditingRefusal(problem) }
        let id = history.nextFaceID
        let frame = tracks.frame(at: time ?? 0)
        added[id] = box
        settings.addedOn[String(id)] = frame
        try follow([id])
        return .add(face: id, box: box, style: style)
    }

    public func redetect(with detector: OpenCVFaceDetector, options: DetectionOptions) throws -> Int {
        throw EditingRefusal("`detect` finds a photo's faces again; a clip's are followed once: to follow them with other "
            + "settings, delete \(sessionPath) and run `sketchease edit` with --threshold or --detect-size")
    }

    public func assessments() throws -> [FaceAssessment] {
        let sheet = try ContactSheet(pictures.pictures, ids: history.faces.map(\.id))
        let placed = history.faces.compactMap { sheet.place($0) }
        var assessments = try FaceReport.analyse(photo: sheet.photo, faces: placed.map {
            DetectedFace(box: $0.box, score: 1, landmarks: $0.landmarks)
        })
        // Measured on the sheet, told in the frame's pixels.
        let frames = Dictionary(history.faces.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for i in assessments.indices {
            assessments[i].index = placed[i].id
            if let face = frames[placed[i].id] { assessments[i].face.box = face.box; assessments[i].face.landmarks = face.landmarks }
        }
        return assessments
    }

    /// The contact sheet: each face's clearest picture, drawn in its style, outlined and numbered.
    public func writePreview() throws {
        let sheet = try ContactSheet(pictures.pictures, ids: history.faces.map(\.id))
        let placed = history.faces.compactMap { sheet.place($0) }
        let image = FilteredImage(photo: sheet.photo, history: EditHistory(detected: placed, imageSize: sheet.photo.size))
        var options = render
        options.background = nil
        try ImageExporter.write(try PreviewImage.render(image, compositor: FaceCompositor(options: options)), to: previewPath,
                                options: ExportOptions(compression: 1, overwrite: true))
    }

    /// Writes the clip with every face drawn as edited (a comparison is for photos).
    public func export(compare: Bool) throws {
        try write(to: exportPath)
        exported = true
        try save()
    }

    /// Writes the clip as edited to `path` (the export, or a copy elsewhere).
    public func write(to path: String) throws {
        let (drawn, styles) = drawnTracks()
        _ = try renderer(styles: styles).render(source, to: path, tracks: drawn, progress: progress)
    }

    /// The tracks as the edits left them: moved and resized with their face (the landmarks
    /// moved, not resized), deleted ones
    /// gone, added ones in, each face with the size it is drawn at; and each face's style.
    func drawnTracks() -> (ClipTracks, TrackStyles) {
        var out = tracks
        var reference: [Int: FaceBox] = [:]
        for face in history.detected { reference[face.id] = face.box }
        for (id, box) in added { reference[id] = box }
        let now = Dictionary(history.faces.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for i in out.frames.indices {
            out.frames[i].faces = out.frames[i].faces.compactMap { f in
                guard let current = now[f.id]?.box, let ref = reference[f.id] else { return nil }
                let sx = current.width / max(ref.width, 1e-9), sy = current.height / max(ref.height, 1e-9)
                let dx = current.center.x - ref.center.x, dy = current.center.y - ref.center.y
                let c = f.box.center
                var moved = f
                moved.box = FaceBox(x: c.x + dx - f.box.width * sx / 2, y: c.y + dy - f.box.height * sy / 2,
                                    width: f.box.width * sx, height: f.box.height * sy)
                // The landmarks move with the box and stay on their features as it is resized,
                // as a photo's do (`EditableFace.resized`).
                moved.landmarks = f.landmarks.map { moved.box.clamped(Point(x: $0.x + dx, y: $0.y + dy)) }
                return moved
            }
        }
        var byTrack: [Int: FaceStyle?] = [:]
        for face in history.faces { byTrack[face.id] = .some(face.style) }
        return (out.holdingDrawingSizes(), TrackStyles(others: nil, byTrack: byTrack))
    }

    public func save() throws {
        isSaved = false
        var session = SessionFile(sourcePath: file.path, fingerprint: fingerprint, exportPath: exportPath, detection: detection,
                                  render: render, export: ExportOptions(overwrite: true), history: history, exported: exported)
        session.clip = settings
        try session.write(to: sessionPath)
        isSaved = true
    }
}

// MARK: - For the browser (`serve`)

extension ClipEditingSession {
    /// Every frame's faces as the edits leave them, and each track's style: what `export`
    /// draws, and what the browser's player draws on its small copies of the frames.
    public func drawnFrames() -> (tracks: ClipTracks, styles: TrackStyles) { drawnTracks() }

    /// The frame track `id`'s clearest picture comes from (what its tile on the contact sheet shows).
    public func pictureFrame(of id: Int) -> Int? { pictures.pictures[id]?.frame }

    /// Track `id`'s clearest picture with its face drawn in `style` (left as filmed when nil),
    /// at most `maxSide` pixels long: a tile of the contact sheet, or a sample for choosing a
    /// style. Nil for a track without a picture.
    public func trackPicture(_ id: Int, style: FaceStyle?, maxSide: Int) throws -> VipsImage? {
        guard let face = history.face(id) else { throw EditError.noSuchFace(id, known: history.faces.map(\.id)) }
        let sheet = try ContactSheet(pictures.pictures, ids: [id])
        guard var placed = sheet.place(face) else { return nil }
        placed.style = style
        let image = FilteredImage(photo: sheet.photo, history: EditHistory(detected: [placed], imageSize: sheet.photo.size))
        var options = render
        options.background = nil
        let compositor = FaceCompositor(options: options)
        if let style { return try image.sample(face: id, style: style, maxSide: maxSide, with: compositor) }
        let rgb = sheet.photo.rgb
        let s = min(1, Double(maxSide) / Double(max(rgb.width, rgb.height)))
        return s < 1 ? try rgb.resize(scale: s) : rgb
    }

    /// A copy of what `export` needs, to write the clip on another thread while edits go on.
    public func exportJob() -> ClipExportJob {
        let (drawn, styles) = drawnTracks()
        return ClipExportJob(renderer: renderer(styles: styles), source: source, tracks: drawn)
    }

    /// Records that the export (written by an `exportJob`) is in place, and saves the session.
    public func markExported() throws {
        exported = true
        try save()
    }
}

/// The clip as edited, ready to be written (`ClipEditingSession.exportJob`): the same renderer,
/// tracks and styles as `export`, with a stop request and progress of its own.
public struct ClipExportJob: Sendable {
    let renderer: ClipRenderer
    let source: MediaSource
    let tracks: ClipTracks

    /// Writes the clip to `path` (atomically). A stop request ends it early with a complete,
    /// shorter file: the caller removes it.
    public func run(to path: String, stop: StopRequest, progress: @escaping @Sendable (ClipProgress) -> Void) throws -> ClipReport {
        try renderer.render(source, to: path, tracks: tracks, stop: stop, progress: progress)
    }
}
