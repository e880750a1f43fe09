import FFmpeg
import Foundation
import SketchEase
import Synchronization
import Video

/// One clip open in the browser: its `ClipEditingSession` (the same type `edit clip.mp4` uses,
/// saving the same session file after every change), a small JPEG of every frame made during
/// the session's pass over the clip, and the export under way, if any.
///
/// The player's pictures are drawn from the session's own tracks and styles (`drawnFrames`,
/// what `export` draws) on those small frames, so a scrub costs one JPEG decode, the styles of
/// the faces on that frame at display size, and one encode.
final class ClipWorkspace: @unchecked Sendable {
    let entry: PhotoLibrary.Entry
    let settings: ServeSettings
    /// The session is not thread-safe: every use goes through `lock`.
    private let lock = NSLock()
    private var session: ClipEditingSession
    private var revision: Int
    private var drawn: (tracks: ClipTracks, styles: TrackStyles)
    /// When the session file was last written by us (a later date: edited at the prompt).
    private var savedStamp: Date?
    let frames: FrameStore
    private let rendered = Mutex<(order: [String], pictures: [String: [UInt8]])>(([], [:]))
    let export = Mutex<ExportProgress>(ExportProgress())
    private let stop = Mutex<StopRequest?>(nil)

    private static let revisions = Atomic<Int>(0)
    private static func nextRevision() -> Int { revisions.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Frames of the player are kept with their longest side at most this.
    static let frameSide = 960

    /// Opens the clip: resumes its session from the output folder, or follows its faces.
    /// `progress` hears how far the pass over the clip has got.
    init(entry: PhotoLibrary.Entry, settings: ServeSettings, detector: OpenCVFaceDetector,
         progress: @escaping @Sendable (ClipProgress) -> Void) throws {
        self.entry = entry
        self.settings = settings
        let frames = FrameStore(side: Self.frameSide)
        self.frames = frames
        let clip = ClipSessionSettings(tracking: TrackerSettings())
        session = try ClipEditingSession(file: entry.file, outputFolder: settings.outputFolder, detector: detector,
                                         detection: settings.detection, render: settings.render, settings: clip,
                                         pixelLimit: settings.pixelLimit, progress: progress,
                                         frames: { frames.keep($0) })
        frames.finish()
        revision = Self.nextRevision()
        drawn = session.drawnFrames()
        savedStamp = Self.stamp(session.sessionPath)
    }

    static func stamp(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// Whether the session file was changed by someone else (the `edit` prompt) since we last
    /// read or wrote it.
    var changedElsewhere: Bool {
        lock.withLock {
            guard let now = Self.stamp(session.sessionPath) else { return false }
            return savedStamp.map { now > $0 } ?? true
        }
    }

    // MARK: - Reading

    /// Every frame's boxes as drawn now.
    func boxes() -> ClipBoxes {
        ClipBoxes(lock.withLock { drawn.tracks })
    }

    func state(message: String? = nil) -> ClipState {
        lock.withLock { ClipState(entry: entry, session: session, drawn: drawn, revision: revision, message: message) }
    }

    /// Frame `n` with its faces drawn as edited (with `trial`'s styles instead, for a slider
    /// being moved), at the player's size, as JPEG.
    func picture(frame n: Int, trial: (faces: [Int], style: FaceStyle?)? = nil) throws -> [UInt8] {
        let (drawn, revision, render) = lock.withLock { (self.drawn, self.revision, session.history.rendering(session.render)) }
        guard drawn.tracks.frames.indices.contains(n) else {
            throw APIError(status: .badRequest, message: "frame \(n) is past the end of the clip: it has \(drawn.tracks.frames.count) frames")
        }
        let key = "\(revision)/\(n)"
        if trial == nil, let cached = rendered.withLock({ $0.pictures[key] }) { return cached }
        let small = try frames.frame(n)
        let image = try VipsImage.load(path: small.path)
        let s = small.scale
        var styles = drawn.styles
        if let trial { for id in trial.faces { styles.byTrack[id] = .some(trial.style) } }
        // Drawn as the export draws the frame: fading faces at their opacity, what covers a face cut back.
        let faces = drawn.tracks.frames[n].faces.compactMap { face -> FrameStyler.Face? in
            guard face.opacity > 0, let style = styles.style(forTrack: face.id) else { return nil }
            return FrameStyler.Face(face, style: style)
        }
        let out = faces.isEmpty && render.background == nil ? try small.jpeg()
            : try FrameStyler(compositor: FaceCompositor(options: render, sideBySide: true)).draw(faces, on: image, scale: s)
                .encoded(as: Workspace.previewFormat)
        if trial == nil {
            rendered.withLock { cache in
                cache.pictures[key] = out
                cache.order.append(key)
                while cache.order.count > 400 { cache.pictures[cache.order.removeFirst()] = nil }
            }
        }
        return out
    }

    /// Track `id`'s clearest picture in its style (or `style`), for the tracks' sheet and the picker.
    func trackPicture(_ id: Int, style: FaceStyle?? = nil, side: Int) throws -> [UInt8] {
        try lock.withLock {
            let own = session.history.face(id)?.style
            guard let image = try session.trackPicture(id, style: style ?? own, maxSide: side) else {
                throw APIError(status: .notFound, message: "track \(id) has no picture")
            }
            return try image.encoded(as: ".jpg[Q=85,strip]")
        }
    }

    /// The files the tracks' styles name now (chroma's picture, set at the prompt).
    func namedFiles() -> Set<String> {
        let styles = lock.withLock { session.history.faces.compactMap(\.style) }
        return Set(styles.flatMap { Workspace.files(namedBy: $0).map(\.file) })
    }

    // MARK: - Changing

    func perform(_ edit: Edit) throws -> ClipState {
        try change { try $0.performSaying(edit) }
    }

    /// A box drawn on frame `n` for a face the tracker missed, followed through the clip.
    func addFace(box: FaceBox, frame n: Int, style: FaceStyle?) throws -> ClipState {
        try change { session in
            let time = self.drawn.tracks.frames.indices.contains(n) ? self.drawn.tracks.frames[n].time : 0
            return try session.performSaying(try session.addition(of: box, style: style, at: time))
        }
    }

    func undo() throws -> ClipState { try change { try $0.undoSaying() } }
    func redo() throws -> ClipState { try change { try $0.redoSaying() } }

    private func change(_ body: (ClipEditingSession) throws -> String) throws -> ClipState {
        try lock.withLock {
            let message = try body(session)
            revision = Self.nextRevision()
            drawn = session.drawnFrames()
            savedStamp = Self.stamp(session.sessionPath)
            return ClipState(entry: entry, session: session, drawn: drawn, revision: revision, message: message)
        }
    }

    // MARK: - Export

    /// What the page's progress bar shows.
    struct ExportProgress: Encodable, Sendable {
        /// idle, running, done, cancelled or failed.
        var status = "idle"
        var frames = 0
        var expected: Int?
        var fps = 0.0
        var seconds = 0.0
        /// Seconds left at this pace, when the clip's length is known.
        var remaining: Double?
        var output: String?
        var error: String?
    }

    /// Starts writing `OUT/<name>.mp4` as `video` and `apply` write it, on its own thread: into
    /// a hidden file first, moved into place once complete, so a cancelled export leaves
    /// nothing behind (and an earlier export as it was).
    func startExport(log: @escaping @Sendable (String) -> Void) throws -> ExportProgress {
        let (job, output, sessionFolder) = lock.withLock { (session.exportJob(), session.exportPath, session.sessionPath.parentPath) }
        let request = StopRequest()
        let started: Bool = stop.withLock { current in
            guard current == nil else { return false }
            current = request
            return true
        }
        guard started else { throw APIError(status: .conflict, message: "\((output as NSString).lastPathComponent) is being exported already") }
        export.withLock { $0 = ExportProgress(status: "running", output: output) }
        try? FileManager.default.createDirectory(atPath: sessionFolder, withIntermediateDirectories: true)
        let partial = (sessionFolder as NSString).appendingPathComponent(".export-\(UUID().uuidString).mp4")
        Thread.detachNewThread { [self] in
            defer { stop.withLock { $0 = nil } }
            do {
                _ = try job.run(to: partial, stop: request) { p in
                    self.export.withLock { e in
                        e.frames = p.frames; e.expected = p.expectedFrames; e.seconds = p.seconds; e.fps = p.framesPerSecond
                        e.remaining = p.expectedFrames.flatMap { total in p.framesPerSecond > 0 ? max(0, Double(total - p.frames) / p.framesPerSecond) : nil }
                    }
                }
                if request.isRequested {
                    try? FileManager.default.removeItem(atPath: partial)
                    self.export.withLock { $0.status = "cancelled"; $0.remaining = nil }
                    log("export of \(output) cancelled; nothing written")
                    return
                }
                let folder = output.parentPath.isEmpty ? "." : output.parentPath
                OutputRecord.note(file: partial, as: (output as NSString).lastPathComponent, in: folder)
                guard rename(partial, output) == 0 else {
                    let why = String(cString: strerror(errno))
                    try? FileManager.default.removeItem(atPath: partial)
                    throw MediaError(path: output, reason: .outputNotWritable(why))
                }
                try lock.withLock {
                    try session.markExported()
                    savedStamp = Self.stamp(session.sessionPath)
                }
                self.export.withLock { $0.status = "done"; $0.remaining = 0 }
                log("exported \(output)")
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                // Stopped before a frame was written: the writer found nothing to finish.
                if request.isRequested {
                    self.export.withLock { $0.status = "cancelled"; $0.remaining = nil }
                    log("export of \(output) cancelled; nothing written")
                    return
                }
                let message = APIError(error).message
                self.export.withLock { $0.status = "failed"; $0.error = message }
                log("export of \(output) failed: \(message)")
            }
        }
        return export.withLock { $0 }
    }

    /// Stops the export under way; its partial file is removed.
    func cancelExport() -> ExportProgress {
        stop.withLock { $0?.request() }
        return export.withLock { $0 }
    }

    /// The exported clip's path, once written.
    func exported() -> String? {
        let path = lock.withLock { session.exportPath }
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}

/// Small JPEGs of a clip's frames in a temporary folder, written as the session's pass decodes
/// them (in any order, on several threads); asking for one not yet written waits for it.
final class FrameStore: Sendable {
    struct Small: Sendable {
        var path: String
        /// Small pixels per frame pixel.
        var scale: Double
        func jpeg() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    }

    let side: Int
    let folder: String
    private let state = Mutex<(frames: [Int: Small], done: Bool)>(([:], false))
    private let scalers = ScalerPool()
    private let arrived = NSCondition()

    init(side: Int) {
        self.side = side
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(Self.prefix)\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    static let prefix = "sketchease-frames-"

    /// Removes the frame folders of servers that are no longer running (stopped without
    /// closing their clips: Ctrl+C, a crash).
    static func removeLeftovers() {
        let temporary = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: (temporary as NSString).appendingPathComponent(name))
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func keep(_ frame: VideoFrame) {
        let scaler = scalers.take()
        let (pixels, width, height) = scaler.rgb(of: frame, maxSide: side)
        scalers.give(scaler)
        let path = (folder as NSString).appendingPathComponent("\(frame.index).jpg")
        guard let jpeg = try? VipsImage.fromPixels(pixels, width: width, height: height, bands: 3).encoded(as: ".jpg[Q=85,strip]"),
              FileManager.default.createFile(atPath: path, contents: Data(jpeg)) else { return }
        let small = Small(path: path, scale: Double(width) / Double(max(frame.width, 1)))
        state.withLock { $0.frames[frame.index] = small }
        arrived.broadcast()
    }

    func finish() {
        state.withLock { $0.done = true }
        arrived.broadcast()
    }

    var count: Int { state.withLock { $0.frames.count } }

    /// Frame `n`, waiting (up to a minute) while the pass over the clip has not reached it.
    func frame(_ n: Int) throws -> Small {
        let deadline = Date().addingTimeInterval(60)
        while true {
            let (found, done) = state.withLock { ($0.frames[n], $0.done) }
            if let found { return found }
            if done || Date() > deadline { throw APIError(status: .notFound, message: "frame \(n) could not be decoded") }
            arrived.lock()
            _ = arrived.wait(until: Date().addingTimeInterval(0.2))
            arrived.unlock()
        }
    }
}

/// FrameScalers (each keeps its own FFmpeg scaling context) lent to one thread at a time.
private final class ScalerPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [FrameScaler] = []
    func take() -> FrameScaler { lock.withLock { free.popLast() } ?? FrameScaler() }
    func give(_ scaler: FrameScaler) { lock.withLock { free.append(scaler) } }
}
