import Dispatch
import FFmpeg
import Foundation
import SketchEase
import Synchronization

/// How far a clip has got, for progress bars.
public struct ClipProgress: Sendable {
    public var frames: Int
    /// The clip's frame count, when the container says (or its duration and rate suggest).
    public var expectedFrames: Int?
    public var seconds: Double
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}

/// Turns a clip into a clip with its faces styled, or lists its tracked faces.
///
/// Frames flow through four stages on their own threads, joined by small bounded queues:
/// decode → detect and track → style → encode. Each stage works on a different frame at the
/// same time, and memory stays flat over any length of clip: a few frames in each queue,
/// the tracker's look-ahead, the encoder's own.
public struct ClipRenderer: Sendable {
    public var options: ClipOptions
    /// Makes the face detector (one per clip).
    public var makeDetector: @Sendable () throws -> OpenCVFaceDetector
    public var registry: FilterRegistry

    public init(options: ClipOptions, registry: FilterRegistry = .standard,
                makeDetector: @escaping @Sendable () throws -> OpenCVFaceDetector) {
        self.options = options; self.registry = registry; self.makeDetector = makeDetector
    }

    /// Renders `source` into `output` (written atomically, recorded as SketchEase's output, never
    /// over the input or a file SketchEase did not write: `OutputPolicy`). Throws `MediaError`
    /// for inputs that cannot be read and outputs that cannot be written (`PhotoError` for the
    /// output rules); damage met in the middle of a clip is reported, not thrown.
    ///
    /// With `tracks` (from `track`, as a plan or an edit left them) the faces are drawn where
    /// they say instead of being found again.
    ///
    /// With `comparison`, that file gets the clip and the result side by side as well.
    public func render(_ source: MediaSource, to output: String, tracks: ClipTracks? = nil, comparison: String? = nil,
                       stop: StopRequest = StopRequest(),
                       progress: @escaping @Sendable (ClipProgress) -> Void = { _ in }) throws -> ClipReport {
        let verdict = try OutputPolicy.verdict(for: output, source: source.isLive ? nil : source.path, overwrite: options.overwrite)
        if verdict == .keep { throw PhotoError(path: output, reason: .outputExists) }
        let reader = try MediaReader(source, pixelLimit: options.pixelLimit, threads: ProcessInfo.processInfo.activeProcessorCount)
        let folder = (output as NSString).deletingLastPathComponent
        if !folder.isEmpty, let problem = OutputFolder.create(folder) {
            throw MediaError(path: folder, reason: .outputNotWritable(problem))
        }
        var render = options.render
        var background: BackgroundClip?
        if let style = render.background, style.filterID == "chroma" {
            // The key colour picked on the first frame holds for the whole clip; a clip as the
            // background is read alongside.
            render.background = try Self.resolvingPick(style, on: source, pixelLimit: options.pixelLimit)
            let picture = style.settings.text("image")
            if BackgroundClip.isClip(picture) {
                do { background = try BackgroundClip(path: picture, loop: style.settings.flag("loop")) } catch let error as MediaError {
                    throw MediaError(path: source.path, reason: .other("background clip \(error)"))
                }
            }
        }
        let writer = try MediaWriter(path: output, reader: reader, settings: options.encoding, overwrite: true)
        let name = (output as NSString).lastPathComponent
        var companion: MediaWriter?
        if let comparison {
            if try OutputPolicy.verdict(for: comparison, source: source.isLive ? nil : source.path, overwrite: true) != .keep {
                companion = try MediaWriter(path: comparison, reader: reader, settings: options.encoding, overwrite: true,
                                            width: reader.video.width * 2)
            }
        }
        var report = ClipReport(input: source.path)
        report.output = output
        report.streamNotes = writer.streamNotes
        let styler = FrameStyler(compositor: FaceCompositor(registry: registry, options: render))
        let styles = options.styles
        let whole = render.background != nil
        var backdrop: (@Sendable (Double) throws -> VipsImage)?
        if let background { backdrop = { time in try background.picture(at: time) } }
        let carrier = MatteCarrier(compositor: styler.compositor, longest: Int((2 * reader.video.frameRate.value).rounded()),
                                   draws: { [compositor = styler.compositor] id in styles.style(forTrack: id).map(compositor.changesPixels) ?? false })
        let drawings = DrawingCarrier(compositor: styler.compositor, longest: Int((2 * reader.video.frameRate.value).rounded()),
                                      style: { id in styles.style(forTrack: id) })
        try run(reader, report: &report, tracks: tracks, stop: stop, progress: progress, backdrop: backdrop, mattes: carrier,
                drawings: drawings, style: { [comparing = companion != nil] frame, tracked, backdrop, carry in
            let before = comparing ? try frame.reference() : nil
            let faces = tracked.faces.compactMap { face in
                styles.style(forTrack: face.id).map {
                    FrameStyler.Face(face, style: $0, matte: carry.mattes[face.id], drawing: carry.drawings[face.id])
                }
            }
            if !faces.isEmpty || whole { try styler.draw(faces, into: frame, backdrop: backdrop, exposure: carry.exposure) }
            return try before.map { try VideoFrame.sideBySide($0, frame) }
        }, write: { item, sideBySide in
            switch item {
            case .frame(let frame):
                try writer.write(frame)
                if let sideBySide { try companion?.write(sideBySide) }
            case .packet(let packet):
                if let companion { try companion.write(packet.copy()) }
                try writer.write(packet)
            }
        }, finish: {
            try writer.finish { OutputRecord.note(file: $0, as: name, in: folder.isEmpty ? "." : folder) }
            if let comparison, let companion {
                let place = comparison.parentPath.isEmpty ? "." : comparison.parentPath
                try companion.finish { OutputRecord.note(file: $0, as: (comparison as NSString).lastPathComponent, in: place) }
            }
        }, abandon: { writer.abandon(); companion?.abandon() })
        return report
    }

    /// A box to follow through a clip from a given frame (a face the detector does not find).
    public struct Follow: Sendable {
        public var id: Int
        /// The frame the box is on: by number, or the first frame at or after a time.
        public var moment: BatchPlan.FaceEntry.Moment
        public var box: FaceBox
        public init(id: Int, moment: BatchPlan.FaceEntry.Moment, box: FaceBox) { self.id = id; self.moment = moment; self.box = box }

        func starts(on frame: VideoFrame) -> Bool {
            switch moment {
            case .frame(let n): frame.index >= n
            case .time(let t): frame.time >= t - 1e-9
            }
        }
    }

    /// Follows the faces through `source` without writing anything: every frame's tracked
    /// faces, and the boxes of `follow` followed (back up to five seconds, and on).
    /// `seen` is shown each frame with its faces (on several threads at once, in any order).
    public func track(_ source: MediaSource, follow: [Follow] = [], stop: StopRequest = StopRequest(),
                      progress: @escaping @Sendable (ClipProgress) -> Void = { _ in },
                      seen: (@Sendable (VideoFrame, TrackedFrame) -> Void)? = nil) throws -> (tracks: ClipTracks, report: ClipReport) {
        let reader = try MediaReader(source, pixelLimit: options.pixelLimit, threads: ProcessInfo.processInfo.activeProcessorCount)
        var report = ClipReport(input: source.path)
        let collected = Mutex<[TrackedFrame]>([])
        let followers = Mutex<[BoxFollower]>([])
        try run(reader, report: &report, stop: stop, progress: progress, follow: follow, followed: { done in
            followers.withLock { $0 = done }
        }, style: { frame, tracked, _, _ in
            seen?(frame, tracked)
            collected.withLock { $0.append(tracked) }
            return nil
        },
           write: { _, _ in }, finish: {}, abandon: {})
        let video = reader.video
        var tracks = ClipTracks(frames: collected.withLock { $0 }.sorted { $0.index < $1.index }, width: video.width, height: video.height,
                                frameRate: video.frameRate.value)
        let fadeFrames = Int((options.tracking.fade * video.frameRate.value).rounded())
        for f in followers.withLock({ $0 }) { tracks.add(id: f.id, boxes: f.boxes, fadeFrames: fadeFrames) }
        return (tracks, report)
    }

    /// A chroma key's `pick` turned into the hue of that pixel on the clip's first frame.
    static func resolvingPick(_ style: FaceStyle, on source: MediaSource, pixelLimit: Int) throws -> FaceStyle {
        guard style.settings.point("pick") != nil, let chroma = (try? FilterRegistry.standard.filter("chroma")) as? ChromaKeyFilter else {
            return style
        }
        let reader = try MediaReader(source, pixelLimit: pixelLimit)
        var first: VideoFrame?
        while first == nil, let item = try reader.next() { if case .frame(let f) = item { first = f } }
        guard let first else { return style }
        let image = try VipsImage.fromPixels(first.rgb(x: 0, y: 0, width: first.width, height: first.height),
                                             width: first.width, height: first.height, bands: 3)
        var resolved = style
        resolved.settings = try chroma.resolvingPick(style.settings, in: image)
        return resolved
    }

    /// Motion between detections is measured on grey copies at most this many pixels long.
    static let motionSide = 480

    /// Memory the tracker's look-ahead may hold in frames: 160 MB is 51 frames of 1080p, 12 of 4K.
    static let heldFrameBytes = 160 << 20

    /// Memory each queue between stages may hold in decoded frames: `ClipOptions.queueDepth`
    /// (six) frames of 1080p, 3 MB each; two (the depth before) where frames are larger, 12 MB
    /// each at 4K.
    static let queueBytes = 20 << 20

    /// The frames each queue between stages holds for frames of `width` × `height`.
    static func queueDepth(_ asked: Int, width: Int, height: Int) -> Int {
        max(1, min(asked, max(2, queueBytes / frameBytes(width: width, height: height))))
    }

    /// The bytes of a decoded 8-bit 4:2:0 frame of `width` × `height` (at least 1).
    static func frameBytes(width: Int, height: Int) -> Int { max(1, width * height * 3 / 2) }

    /// Follows boxes through `source` by their motion alone (no detection): each box from its
    /// frame, back up to five seconds and on while it still looks as it did. `seen` is shown
    /// each request's own frame.
    public func follow(_ source: MediaSource, _ requests: [Follow],
                       seen: ((VideoFrame, Follow) -> Void)? = nil) throws -> [Int: [Int: FaceBox]] {
        guard !requests.isEmpty else { return [:] }
        let reader = try MediaReader(source, pixelLimit: options.pixelLimit, threads: ProcessInfo.processInfo.activeProcessorCount)
        let scaler = FrameScaler()
        let keep = Int((5 * reader.video.frameRate.value).rounded())
        var following: [BoxFollower] = []
        var pending = requests
        var recent: [(frame: Int, plane: GreyPlane)] = []
        while let item = try reader.next() {
            guard case .frame(let frame) = item else { continue }
            let grey = scaler.grey(of: frame, maxSide: Self.motionSide)
            if let previous = recent.last {
                for i in following.indices { following[i].step(frame: frame.index, from: previous.plane, to: grey) }
            }
            for request in pending where request.starts(on: frame) {
                following.append(BoxFollower(id: request.id, box: request.box, frame: frame.index, plane: grey, earlier: recent.reversed()))
                seen?(frame, request)
            }
            pending.removeAll { $0.starts(on: frame) }
            if pending.isEmpty, following.allSatisfy(\.lost) { break }
            recent.append((frame.index, grey))
            if recent.count > keep { recent.removeFirst(recent.count - keep) }
        }
        return Dictionary(following.map { ($0.id, $0.boxes) }, uniquingKeysWith: { a, _ in a })
    }

    /// One pass over a clip: decode → detect and track → style → encode, each stage on a
    /// thread of its own (styling on one per core), joined by small bounded queues (`DecodeStage`,
    /// `TrackStage`, `StyleStage`, `EncodeStage`). `render` draws and writes; `track` keeps
    /// each frame's faces and writes nothing.
    private func run(_ reader: MediaReader, report: inout ClipReport, tracks recorded: ClipTracks? = nil, stop: StopRequest,
                     progress: @escaping @Sendable (ClipProgress) -> Void,
                     follow: [Follow] = [], followed: @escaping @Sendable ([BoxFollower]) -> Void = { _ in },
                     backdrop: (@Sendable (Double) throws -> VipsImage)? = nil, mattes carrier: MatteCarrier? = nil,
                     drawings: DrawingCarrier? = nil,
                     style: @escaping StyleStage.Draw,
                     write: (MediaItem, VideoFrame?) throws -> Void, finish: () throws -> Void, abandon: () -> Void) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        try? VipsRuntime.setOperationCacheSize(0)
        let run = StageRun()
        let video = reader.video
        let depth = Self.queueDepth(options.queueDepth, width: video.width, height: video.height)
        let decoded: BoundedQueue<MediaItem> = run.queue(capacity: depth)
        let tracked: BoundedQueue<(Int, TrackedItem)> = run.queue(capacity: depth)
        let styled: BoundedQueue<(Int, MediaItem, VideoFrame?)> = run.queue(capacity: depth)
        let decode = DecodeStage(reader: reader, duration: options.duration, stop: stop)
        let track = TrackStage(video: video, options: options, detector: recorded == nil ? try makeDetector() : nil,
                               recorded: recorded, follow: follow, followed: followed, backdrop: backdrop, carrier: carrier,
                               drawings: drawings)
        let styling = StyleStage(workers: max(1, options.styleWorkers ?? ProcessInfo.processInfo.activeProcessorCount), draw: style)
        let encode = EncodeStage { frames in
            progress(ClipProgress(frames: frames, expectedFrames: video.estimatedFrames, seconds: seconds(since: start)))
        }
        run.start { decode.run(into: decoded, run) }
        run.start { track.run(from: decoded, into: tracked, run) }
        styling.start(from: tracked, into: styled, run)
        let written = encode.run(from: styled, write: write, run)   // here, on this thread
        run.wait()
        if let error = run.error {
            abandon()
            throw error
        }
        if written.frames == 0 {
            abandon()
            throw MediaError(path: reader.path, reason: reader.damage.readError.map { .corrupt($0) } ?? .corrupt("no video frames could be decoded"))
        }
        do {
            try run.timed(\.encode) { try finish() }
        } catch {
            abandon()
            throw error
        }
        report.frames = written.frames
        report.expectedFrames = video.estimatedFrames
        report.frameSize = (video.width, video.height)
        if let first = written.firstPts, let end = written.lastEnd { report.duration = Double(end - first) * video.timeBase.value }
        report.damage = reader.damage
        report.stages = run.stageTimes
        let counts = run.faceCounts
        (report.trackIDs, report.detections, report.faceFrames) = (counts.tracks, counts.detections, counts.faceFrames)
        report.carriedFaceFrames = counts.carriedFaceFrames
        report.seconds = seconds(since: start)
    }
}

