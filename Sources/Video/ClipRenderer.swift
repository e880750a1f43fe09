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
        try run(reader, report: &report, tracks: tracks, stop: stop, progress: progress, backdrop: backdrop, mattes: carrier, style: { [comparing = companion != nil] frame, tracked, backdrop, mattes in
            let before = comparing ? try frame.reference() : nil
            let faces = tracked.faces.compactMap { face in
                styles.style(forTrack: face.id).map { FrameStyler.Face(face, style: $0, matte: mattes[face.id]) }
            }
            if !faces.isEmpty || whole { try styler.draw(faces, into: frame, backdrop: backdrop) }
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

    private enum Tracked: @unchecked Sendable {
        case frame(VideoFrame, TrackedFrame, VipsImage?, [Int: CarriedMatte])
        case packet(MediaPacket)
    }

    private func run(_ reader: MediaReader, report: inout ClipReport, tracks recorded: ClipTracks? = nil, stop: StopRequest,
                     progress: @escaping @Sendable (ClipProgress) -> Void,
                     follow: [Follow] = [], followed: @escaping @Sendable ([BoxFollower]) -> Void = { _ in },
                     backdrop: (@Sendable (Double) throws -> VipsImage)? = nil, mattes carrier: MatteCarrier? = nil,
                     style: @escaping @Sendable (VideoFrame, TrackedFrame, VipsImage?, [Int: CarriedMatte]) throws -> VideoFrame?,
                     write: (MediaItem, VideoFrame?) throws -> Void, finish: () throws -> Void, abandon: () -> Void) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let detector = recorded == nil ? try makeDetector() : nil
        try? VipsRuntime.setOperationCacheSize(0)
        let depth = max(1, options.queueDepth)
        let decoded = BoundedQueue<MediaItem>(capacity: depth)
        let tracked = BoundedQueue<(Int, Tracked)>(capacity: depth)
        let styled = BoundedQueue<(Int, MediaItem, VideoFrame?)>(capacity: depth)
        let queues: [@Sendable () -> Void] = [decoded.cancel, tracked.cancel, styled.cancel]
        let failure = Mutex<Error?>(nil)
        let times = Mutex(ClipStageTimes())
        let counts = Mutex((tracks: Set<Int>(), detections: 0, faceFrames: 0))
        let fail: @Sendable (Error) -> Void = { error in
            failure.withLock { $0 = $0 ?? error }
            for cancel in queues { cancel() }
        }
        let options = self.options
        let video = reader.video
        let group = DispatchGroup()
        let stages = DispatchQueue(label: "sketchease.clip", attributes: .concurrent)

        // Decode.
        stages.async(group: group) {
            defer { decoded.close() }
            do {
                while true {
                    // Ctrl-C on a recording: what was read is finished into a complete file.
                    if stop.isRequested { reader.requestStop() }
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    guard let item = try reader.next() else { return }
                    times.withLock { $0.decode += seconds(since: t0) }
                    if case .frame(let f) = item, let limit = options.duration, f.time >= limit {
                        reader.requestStop()
                        continue
                    }
                    guard decoded.push(item) else { return }
                }
            } catch { fail(error) }
        }
        // Detect and track.
        stages.async(group: group) {
            defer { tracked.close() }
            do {
                let frameBytes = video.width * video.height * 3 / 2
                let tracker = FaceTracker(settings: options.tracking, frameRate: video.frameRate.value,
                                          frameWidth: video.width, frameHeight: video.height,
                                          maxLag: Self.heldFrameBytes / max(frameBytes, 1))
                let scaler = FrameScaler()
                var held: [MediaItem] = []
                var heldStart = 0
                var sequence = 0
                func hand(_ item: Tracked) -> Bool {
                    sequence += 1
                    return tracked.push((sequence - 1, item))
                }
                // Hands on everything held up to each final frame: its packets, then the frame.
                func emit(_ frames: [TrackedFrame]) throws -> Bool {
                    for result in frames {
                        scan: while heldStart < held.count {
                            let item = held[heldStart]
                            heldStart += 1
                            switch item {
                            case .packet(let p):
                                guard hand(.packet(p)) else { return false }
                            case .frame(let f):
                                counts.withLock { c in for face in result.faces { c.tracks.insert(face.id) }; c.faceFrames += result.faces.count }
                                // A background clip is read here, in order: its frame for this moment.
                                let picture = try backdrop?(f.time)
                                // Head mattes are cut here, in frame order, so every run cuts them on the same frames.
                                let mattes = carrier?.mattes(for: result.faces, index: result.index, on: f) ?? [:]
                                guard hand(.frame(f, result, picture, mattes)) else { return false }
                                break scan
                            }
                        }
                        if heldStart > 32 { held.removeFirst(heldStart); heldStart = 0 }
                    }
                    return true
                }
                // Boxes to follow, and the last five seconds of grey copies to follow them back through.
                var following: [BoxFollower] = []
                var pending = follow
                var recent: [(frame: Int, plane: GreyPlane)] = []
                let keep = follow.isEmpty ? 0 : Int((5 * video.frameRate.value).rounded())
                defer { followed(following) }
                while let item = decoded.pop() {
                    held.append(item)
                    guard case .frame(let frame) = item else { continue }
                    if let recorded {
                        // Drawn as recorded: no detection, no look-ahead.
                        let faces = frame.index < recorded.frames.count ? recorded.frames[frame.index].faces : []
                        guard try emit([TrackedFrame(index: frame.index, time: frame.time, faces: faces)]) else { return }
                        continue
                    }
                    var found: [DetectedFace]? = nil
                    if tracker.shouldDetect(frame: frame.index) {
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        found = try detector?.detect(in: frame, scaler: scaler, options: options.detection)
                        times.withLock { $0.detect += seconds(since: t0) }
                        counts.withLock { $0.detections += 1 }
                    }
                    let t1 = DispatchTime.now().uptimeNanoseconds
                    let grey = scaler.grey(of: frame, maxSide: Self.motionSide)
                    if keep > 0 {
                        if let previous = recent.last {
                            for i in following.indices { following[i].step(frame: frame.index, from: previous.plane, to: grey) }
                        }
                        for request in pending where request.starts(on: frame) {
                            following.append(BoxFollower(id: request.id, box: request.box, frame: frame.index, plane: grey,
                                                         earlier: recent.reversed()))
                        }
                        pending.removeAll { $0.starts(on: frame) }
                        recent.append((frame.index, grey))
                        if recent.count > keep { recent.removeFirst(recent.count - keep) }
                    }
                    let out = tracker.add(frame: frame.index, time: frame.time, detections: found, grey: grey)
                    times.withLock { $0.track += seconds(since: t1) }
                    guard try emit(out) else { return }
                }
                guard try emit(tracker.finish()) else { return }
                for item in held[heldStart...] {
                    if case .packet(let p) = item { guard hand(.packet(p)) else { return } }
                }
            } catch { fail(error) }
        }
        // Style, on as many workers as there are cores: frames are independent once tracked.
        let workers = max(1, options.styleWorkers ?? ProcessInfo.processInfo.activeProcessorCount)
        if workers > 1 { try? VipsRuntime.setConcurrency(1) }
        let running = Atomic<Int>(workers)
        for _ in 0..<workers {
            stages.async(group: group) {
                defer { if running.subtract(1, ordering: .relaxed).newValue == 0 { styled.close() } }
                do {
                    while let (n, item) = tracked.pop() {
                        switch item {
                        case .packet(let p):
                            guard styled.push((n, .packet(p), nil)) else { return }
                        case .frame(let frame, let faces, let picture, let mattes):
                            let t0 = DispatchTime.now().uptimeNanoseconds
                            let companion = try style(frame, faces, picture, mattes)
                            times.withLock { $0.style += seconds(since: t0) }
                            guard styled.push((n, .frame(frame), companion)) else { return }
                        }
                    }
                } catch { fail(error) }
            }
        }
        // Encode, here.
        var frames = 0
        var lastEnd: Int64?
        var firstPts: Int64?
        // Workers finish out of order: items wait here for their turn.
        var waiting: [Int: (MediaItem, VideoFrame?)] = [:]
        var next = 0
        do {
            while let (n, arrived, companion) = styled.pop() {
                waiting[n] = (arrived, companion)
                while let (item, companion) = waiting.removeValue(forKey: next) {
                    next += 1
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    try write(item, companion)
                    times.withLock { $0.encode += seconds(since: t0) }
                    if case .frame(let f) = item {
                        frames += 1
                        // Memory the stages freed (the face network's layers, styled crops) goes back
                        // to the system now and then, so a long clip's footprint stays where it began.
                        if frames % 256 == 0 { VipsRuntime.releaseFreedMemory(ifResidentAbove: 0) }
                        if firstPts == nil { firstPts = f.pts }
                        lastEnd = f.pts + f.duration
                        progress(ClipProgress(frames: frames, expectedFrames: video.estimatedFrames, seconds: seconds(since: start)))
                    }
                }
            }
        } catch { fail(error) }
        group.wait()
        if let error = failure.withLock({ $0 }) {
            abandon()
            throw error
        }
        if frames == 0 {
            abandon()
            throw MediaError(path: reader.path, reason: reader.damage.readError.map { .corrupt($0) } ?? .corrupt("no video frames could be decoded"))
        }
        do {
            let t0 = DispatchTime.now().uptimeNanoseconds
            try finish()
            times.withLock { $0.encode += seconds(since: t0) }
        } catch {
            abandon()
            throw error
        }
        report.frames = frames
        report.expectedFrames = video.estimatedFrames
        report.frameSize = (video.width, video.height)
        if let firstPts, let lastEnd { report.duration = Double(lastEnd - firstPts) * video.timeBase.value }
        report.damage = reader.damage
        report.stages = times.withLock { $0 }
        (report.trackIDs, report.detections, report.faceFrames) = counts.withLock { ($0.tracks, $0.detections, $0.faceFrames) }
        report.seconds = seconds(since: start)
    }
}

private func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
