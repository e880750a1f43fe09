import FaceDetector
import FFmpeg
import Foundation
import SketchEase
import Synchronization
import Video

/// One page's live camera: frames arrive one at a time (the page sends the next when the last
/// came back, so none queue; at most `framesInFlight` are followed and drawn at once), faces are
/// found and followed with the clip path's `FaceTracker` (ids stable from frame to frame), and
/// each frame goes back with every face drawn in its track's style (the default one until a
/// face is tapped and given another).
///
/// The tracker holds a few frames back to smooth its boxes (`FaceTracker.lag`: with a
/// look by the face network every other frame and no fade, 4). Live cannot wait for them: the frame just
/// taken is sent back at once, its faces where the detector found (or `predicted`) them, each known by the id
/// of the track the tracker follows it in (`current`), their boxes smoothed over the frames
/// before as they come (`OneEuroFilter`: still when the face is still, with it when it moves).
final class LiveSession: @unchecked Sendable {
    let id: String
    private let lock = NSLock()
    private var tracker: FaceTracker?
    /// Head mattes cut when a face appears or its look changes, and carried with its box in
    /// between (as a clip's are): GrabCut on every face of every frame held Live to 2-3 fps.
    private var mattes: MatteCarrier?
    /// Faces' drawings made when a face appears or its look changes, and carried with it while
    /// it only moves (`DrawingCarrier`): a face held still keeps still strokes.
    private var drawings: DrawingCarrier?
    /// A matte is cut again at the latest after this many frames (two seconds at 15 fps).
    static let matteFrames = 30
    private var size = (width: 0, height: 0)
    /// The page's camera number the frames are from.
    private var camera = 0
    private var next = 0
    /// When each track's face came on, for as long as it has been on without a break.
    private var shownSince: [Int: Double] = [:]
    /// Each track's box and landmarks smoothed as they arrive (`OneEuroFilter`): the detector's
    /// boxes wobble by a few pixels from frame to frame, and a drawn head with them.
    private var smoothers: [Int: [OneEuroFilter]] = [:]
    /// The size each face is drawn for, held while its box breathes (as in a clip).
    private var sizes = DrawingSizes()
    /// A still face is smoothed below this many hertz; the cutoff rises by `smoothingBeta` per
    /// pixel a second the face moves, so a moving face follows with little lag.
    static let smoothingCutoff = 1.5
    static let smoothingBeta = 0.05
    /// The last frame as taken and as drawn, for Take picture.
    private var lastFrame: (raw: VipsImage, drawn: VipsImage, faces: [TrackedFace])?
    /// What the face report says about the faces now, as capture guidance, measured every
    /// `guidanceEvery` frames (about twice a second): its checks cost ~25 ms a frame with two
    /// faces (their skin tone, which guidance does not use, is not measured).
    private var guidance: [Guidance] = []
    static let guidanceEvery = 8
    /// Guidance being measured off the frames' way (its checks held up one frame in eight by
    /// ~25 ms), on the frame it is measured on; the next frame drawn takes it.
    private var measuring: (frame: Int, guidance: Pending<[Guidance]>)?
    /// Freed memory goes back to the system every this many frames (~17 s at 15 frames/s).
    static let releaseEvery = 256
    private var styles: [Int: FaceStyle?] = [:]
    private var lastFaces: [TrackedFace] = []
    private(set) var framesIn = 0
    private(set) var framesOut = 0
    private(set) var dropped = 0
    let defaultStyle: FaceStyle
    private(set) var render: RenderOptions
    /// A clip behind the green screen, played from the camera's time when its key was picked
    /// (`from`) and started over at its end; nil: a still or white (the chroma style's own).
    private var behind: (clip: BackgroundClip, from: Double)?
    let detection: DetectionOptions
    private let detector: OpenCVFaceDetector
    private let detectorLock: NSLock
    var lastUsed = Date()

    /// Followed with a look by the face network at most every other frame, off the frames' way
    /// (`look`), and no fade, so that few frames are held back. The network is most of a
    /// frame's work where nothing is drawn (~25 ms of two cores at 320 px): until a look
    /// finishes, each face is where its last two looks say it is going (`predicted`), and the
    /// tracker follows it by its motion.
    static let tracking = TrackerSettings(maxMiss: 0.5, fade: 0, detectEvery: 2)
    /// The last two detections and the times of their frames.
    private var sightings: [(time: Double, faces: [DetectedFace])] = []
    /// The frame before's faces where they were placed on it (the newest detection's faces,
    /// in its order, not yet smoothed), and its grey copy: each face is moved on from there by
    /// how its middle moved from that frame to the next (`placed`).
    private var before: (faces: [DetectedFace], grey: GreyPlane)?
    /// Faces are looked for on a copy of the frame this many pixels on its longer side: the
    /// network's cost grows with its area, and a face in front of a camera is a tenth of the
    /// frame's height or more, 18 px or more here even in a 16:9 frame (CenterFace finds faces
    /// reliably from ~16 px). At 400 px the network took ~30 % of Live's CPU; at 320, 640×480
    /// with two faces went from 9.5 to 12 frames a second.
    static let detectionSide = 320
    /// While a face shown is smaller than `smallFace` pixels in that copy, the looks are made
    /// on a copy `smallFaceSide` pixels long, until every face shown is `largeFace` or more
    /// (one size, then the other: the network is built again for each size, ~35 ms). Faces
    /// farther back, 26 px in a 640 px frame (13 px at 320), were found on two looks in
    /// three: a run of misses ended the face's track and it was left as filmed for half a
    /// second or more. At 480 px everywhere, Live showed 20 frames a second instead of 26.
    static let smallFaceSide = 480
    static let smallFace = 18.0, largeFace = 24.0
    /// The side the looks are made at now.
    private var lookSide = LiveSession.detectionSide
    /// The times of the last few frames taken (their rate).
    private var frameTimes: [Double] = []
    /// The camera's white, followed from frame to frame: the exposure faces are drawn at
    /// (`PictureExposure`: a dim room's faces drawn as a normal exposure would show them).
    private var exposure = PictureExposure.Follower()
    /// Frames larger than this many pixels are refused (a 1080p camera is the most a page sends).
    static let pixelLimit = 1920 * 1080

    init(id: String, settings: ServeSettings, detector: OpenCVFaceDetector, detectorLock: NSLock) {
        self.id = id
        defaultStyle = settings.defaultStyle
        render = settings.render
        detection = settings.detection
        self.detector = detector
        self.detectorLock = detectorLock
    }

    /// What the page shows next: the styled frame as JPEG, its number, and its faces (frame
    /// pixels).
    struct Output: Sendable {
        var jpeg: [UInt8]
        var frame: Int
        var faces: [Face]
        var guidance: [Guidance]
    }

    struct Face: Codable, Sendable {
        var id: Int
        var box: [Double]
        var style: String?
    }

    /// Frames a session works on at once: one being followed (detection and tracking, in
    /// order) while the one before it is drawn, each on a core of its own. A page may keep as
    /// many in flight (`Live.lanes`, one by default); one more is refused (`busy`), never queued.
    static let framesInFlight = 2
    private var inFlight = 0
    /// The newest frame whose drawing came back (lastFrame and guidance are never set back by an
    /// older one finishing late).
    private var newestDrawn = -1
    /// The time of the newest frame taken: a frame from before it (two in flight, overtaking
    /// each other on the way) is dropped, as the tracker only goes forward.
    private var newestTime = -Double.infinity

    /// Takes frame `rgba` (the page's canvas pixels, `width`×`height`, at `time` seconds, from
    /// the page's camera number `camera`: following starts over when it changes).
    /// Following it (detection, tracking, smoothing, mattes) waits for the frame before;
    /// drawing it does not: frames are drawn side by side, up to `framesInFlight` at once.
    /// A frame beyond that, or older than one already taken, is dropped (`busy`).
    func take(rgba: [UInt8], width: Int, height: Int, time: Double, camera: Int = 0) throws -> Output? {
        guard width > 0, height > 0, width * height <= Self.pixelLimit, rgba.count == width * height * 4 else {
            throw APIError(status: .badRequest, message: "a live frame must be RGBA pixels, at most \(Self.pixelLimit) of them (\(width)×\(height) gives \(width * height * 4) bytes, got \(rgba.count))")
        }
        let admitted = lock.withLock { () -> Bool in
            guard inFlight < Self.framesInFlight else { dropped += 1; return false }
            inFlight += 1
            return true
        }
        guard admitted else {
            throw APIError(status: .tooManyRequests, message: "busy with the frames before: this one was dropped")
        }
        defer { lock.withLock { inFlight -= 1 } }
        let image = try VipsImage.fromPixels(Self.rgb(rgba: rgba), width: width, height: height, bands: 3)
        let grey = Self.grey(rgba: rgba, width: width, height: height)
        guard let job = try lock.withLock({ try follow(image, grey: grey, time: time, camera: camera) }) else {
            throw APIError(status: .tooManyRequests, message: "a newer frame was taken already: this one was dropped")
        }
        let drawn = try job.draw()
        // Guidance measured on an earlier frame, in the background while that frame was drawn
        // and sent, is taken by the next one (waiting for what is left of it).
        let measured = lock.withLock { () -> Pending<[Guidance]>? in
            guard let started = measuring, started.frame < job.frame else { return nil }
            measuring = nil
            return started.guidance
        }
        let guidance = try measured?.get()
        if job.frame % Self.guidanceEvery == 0 {
            let faces = job.faces
            lock.withLock {
                if measuring == nil { measuring = (job.frame, Pending { try Self.guidance(for: faces, on: image) }) }
            }
        }
        let jpeg = try drawn.encoded(as: ".jpg[Q=80,strip]")
        // Memory the frames freed (their copies, styled crops, the network's layers) goes back to
        // the system now and then, as a clip's does: freed in pieces on several threads, it
        // stayed with the process and its footprint crept up over minutes.
        if job.frame > 0, job.frame % Self.releaseEvery == 0 { VipsRuntime.releaseFreedMemory(ifResidentAbove: 0) }
        return lock.withLock {
            if job.frame > newestDrawn {
                newestDrawn = job.frame
                lastFrame = (image, drawn, job.faces)
                if let guidance { self.guidance = guidance }
            }
            return Output(jpeg: jpeg, frame: job.frame,
                          faces: job.faces.map { Face(id: $0.id, box: $0.box.array, style: style(forTrack: $0.id)?.filterID) },
                          guidance: self.guidance)
        }
    }

    /// One frame followed, ready to draw: everything it needs, so drawing holds no lock.
    struct Drawing: @unchecked Sendable {
        var frame: Int
        var image: VipsImage
        var faces: [TrackedFace]
        var styled: [StyledFace]
        /// Faces still fading in, with the matte they are drawn through and their opacity (0...1).
        var fading: [(face: TrackedFace, matte: CarriedMatte?, opacity: Double)]
        var render: RenderOptions
        /// The background clip's frame at this frame's time (`behind`).
        var backdrop: VipsImage?
        /// The exposure its faces are drawn at (the camera's white, followed).
        var exposure: Double

        func draw() throws -> VipsImage {
            var compositor = FaceCompositor(options: render, sideBySide: true)
            compositor.drawsInMotion = true
            compositor.backdrop = backdrop
            compositor.exposure = exposure
            var drawn = styled.isEmpty && render.background == nil ? image : try compositor.render(image, faces: styled)
            if !fading.isEmpty, render.background == nil {
                let areas = fading.map { (compositor.reach(of: $0.face.box, landmarks: $0.face.landmarks, carrying: $0.matte), $0.opacity) }
                drawn = try LiveSession.fade(drawn, over: image, areas: areas)
            }
            return try drawn.inMemory()
        }
    }

    /// Follows `image` (taken at `time`; `grey`, its copy for motion) on from the frames before; nil when a newer frame was
    /// taken already. Called with `lock` held.
    private func follow(_ image: VipsImage, grey: GreyPlane, time: Double, camera: Int) throws -> Drawing? {
        guard time > newestTime || tracker == nil || size != (image.width, image.height) else {
            dropped += 1
            return nil
        }
        newestTime = time
        lastUsed = Date()
        if tracker == nil || size != (image.width, image.height) || camera != self.camera {
            // A new camera or size: following starts over (another camera's faces are not
            // this one's, wherever they are in the picture).
            self.camera = camera
            tracker = FaceTracker(settings: Self.tracking, frameRate: 15, frameWidth: image.width, frameHeight: image.height)
            mattes = MatteCarrier(compositor: FaceCompositor(options: render), longest: Self.matteFrames, looksWhereDetected: true,
                                  draws: { _ in true })
            // Drawn as `Drawing.draw` draws, without a background style (none is carried with one).
            var options = render
            options.background = nil
            var drawer = FaceCompositor(options: options)
            drawer.drawsInMotion = true
            drawings = DrawingCarrier(compositor: drawer, longest: Self.matteFrames, style: { [unowned self] id in self.style(forTrack: id) })
            size = (image.width, image.height)
            next = 0
            newestDrawn = -1
            guidance = []
            measuring = nil
            shownSince = [:]
            lastFaces = []
            lookSide = Self.detectionSide
            smoothers = [:]
            sizes = DrawingSizes()
            sightings = []
            before = nil
            frameTimes = []
            exposure = PictureExposure.Follower()
            // A look at the camera before is not waited for.
            look = nil
        }
        // The frames' rate now: on a slow machine (or one busy with other work) a few a
        // second, where a face missed on one look was then lost before the next could see it.
        frameTimes = Array((frameTimes + [time]).suffix(9))
        if frameTimes.count >= 5, let first = frameTimes.first, time > first {
            tracker!.expect(frameRate: Double(frameTimes.count - 1) / (time - first))
        }
        var coarse = detection
        coarse.minFace = 0
        // Small faces shown: looked for on a larger copy (see `smallFaceSide`).
        let atDetectionSide = lastFaces.map { $0.box.shorterSide * Double(Self.detectionSide) / Double(max(image.width, image.height)) }
        if atDetectionSide.contains(where: { $0 < Self.smallFace }) {
            lookSide = Self.smallFaceSide
        } else if atDetectionSide.allSatisfy({ $0 >= Self.largeFace }) {
            lookSide = Self.detectionSide
        }
        coarse.maxSide = min(coarse.maxSide, lookSide)
        let n = next
        // The look started on the frame before is the newest sighting (waited for, if it has
        // not finished: it ran while that frame was drawn and sent), and the tracker gets its
        // faces, moved on to this frame's time, as this frame's detections.
        var detects = false
        if let started = look {
            look = nil
            let faces = try started.faces.get()
            sightings = Array((sightings + [(started.time, faces)]).suffix(2))
            // The look was made on the frame before: its faces are where they were there.
            before = before.map { (faces, $0.grey) }
            detects = true
        } else if sightings.isEmpty {
            // Nothing seen yet (a new camera): the first look is waited for.
            let found = try detectorLock.withLock { try detector.detect(in: image, options: coarse) }
            sightings = [(time, found)]
            before = nil
            detects = true
        } else if tracker!.shouldDetect(frame: n) {
            let detector = self.detector, detectorLock = self.detectorLock, options = coarse
            look = (time, Pending { try detectorLock.withLock { try detector.detect(in: image, options: options) } })
        }
        var found = Self.predicted(from: sightings, at: time)
        // Each face moved on from where it was on the frame before by how its middle moved
        // since: the look just taken was made on that frame, and between looks the faces
        // are where they were placed on it.
        let measured = before.map { Self.placed($0.faces, from: $0.grey, to: grey, guessed: found) }
        next += 1
        framesIn += 1
        // The frames the tracker gives back come a few frames late: the faces on this one are
        // where it has followed them so far (a small face moving a few pixels a frame was no
        // longer where the late frame showed it: taken for a new face and left as filmed,
        // while its track's drawing stayed on the wall beside it).
        if detects, let measured { found = Self.merged(measured, guessed: found) }
        _ = tracker!.add(frame: n, time: time, detections: detects ? found : nil, grey: grey)
        let followed = tracker!.newest
        if !detects {
            found = Self.moved(found, asFollowed: followed)
            if let measured { found = Self.merged(measured, guessed: found) }
        }
        before = (found, grey)
        let faces = smoothed(Self.current(found, followed: followed, shown: lastFaces, detected: detects), at: time)
        lastFaces = faces
        framesOut += 1
        // A face not yet followed (id 0) is left as filmed until it has a track: then it fades in.
        let drawnFaces = sizes.steady(TrackedFrame(index: n, time: time, faces: faces.filter { $0.id > 0 && style(forTrack: $0.id) != nil })).faces
        let pixels = drawnFaces.isEmpty ? nil : try RGBPixels(image)
        let gain = try exposure.gain(at: time) { try PictureExposure.white(of: image) }
        let carried = pixels.flatMap { mattes?.mattes(for: drawnFaces, index: n, on: $0) } ?? [:]
        let kept = render.background == nil
            ? pixels.flatMap { drawings?.drawings(for: drawnFaces, mattes: carried, index: n, on: $0, exposure: gain) } ?? [:] : [:]
        let styled = drawnFaces.compactMap { face -> StyledFace? in
            guard let style = style(forTrack: face.id) else { return nil }
            return StyledFace(box: face.box, style: style, landmarks: face.landmarks, seed: FrameStyler.seed(forTrack: face.id),
                              matte: carried[face.id], drawingSize: face.drawingSize, drawing: kept[face.id])
        }
        // A face that has just come on fades in (`fadeOpacity`).
        var since: [Int: Double] = [:]
        for face in faces where face.id > 0 { since[face.id] = shownSince[face.id] ?? time }
        shownSince = since
        let fading = faces.compactMap { face -> (TrackedFace, CarriedMatte?, Double)? in
            guard face.id > 0, style(forTrack: face.id) != nil, let on = since[face.id] else { return nil }
            let opacity = Self.fadeOpacity(shownFor: time - on)
            return opacity < 1 ? (face, carried[face.id], opacity) : nil
        }
        let backdrop = try behind.map { try $0.clip.picture(at: max(0, time - $0.from)) }
        return Drawing(frame: n, image: image, faces: faces, styled: styled, fading: fading, render: render, backdrop: backdrop,
                       exposure: gain)
    }

    /// The face network looks at a frame off the frames' way: the frame it looks at does not
    /// wait for it (it took ~25 ms of two cores every other frame, with the other core idle
    /// meanwhile); the next frame takes its faces, waiting for what is left of it. A look is
    /// so never more than a frame old when its faces are used (older looks, extrapolated
    /// further, put a fast-moving head's drawing beside it).
    private var look: (time: Double, faces: Pending<[DetectedFace]>)?

    /// A value worked out in the background (a look of the face network, guidance): `get`
    /// waits for it.
    final class Pending<Value>: @unchecked Sendable {
        private let finished = DispatchSemaphore(value: 0)
        private var result: Result<Value, any Error>?

        init(_ work: @escaping @Sendable () throws -> Value) {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                result = Result { try work() }
                finished.signal()
            }
        }

        /// The value, once worked out (its error thrown here).
        func get() throws -> Value {
            finished.wait()
            defer { finished.signal() }
            return try result!.get()
        }
    }

    /// Green screen: the colour under (`x`, `y`) on the frame shown now is keyed out on every
    /// frame from now on (its hue measured once, as a clip's is on its first frame), with
    /// `picture` behind (a served photo, or a served clip played from now and started over at
    /// its end) or white; nil turns it off.
    func setGreenScreen(pick: (x: Double, y: Double)?, picture: String?) throws {
        // A clip behind is opened (its first frame decoded) before the lock is taken.
        let clip = try picture.flatMap { path -> BackgroundClip? in
            guard BackgroundClip.isClip(path) else { return nil }
            do {
                let clip = try BackgroundClip(path: path, loop: true)
                _ = try clip.picture(at: 0)
                return clip
            } catch let error as MediaError {
                throw APIError(status: .unprocessableContent,
                               message: "\((path as NSString).lastPathComponent) (behind the green screen): \(error.reasonText)")
            }
        }
        try lock.withLock {
            guard let pick else { render.background = nil; behind = nil; return }
            guard let raw = lastFrame?.raw else { throw APIError(status: .conflict, message: "no frame yet: start Live first") }
            var parameters: [String: String] = ["pick": "\(Int(pick.x.rounded())),\(Int(pick.y.rounded()))"]
            if let picture, clip == nil { parameters["image"] = picture }
            let json = try JSONSerialization.data(withJSONObject: ["filter": "chroma", "parameters": parameters])
            var style = try JSONDecoder().decode(FaceStyle.self, from: json)
            guard let chroma = (try? FilterRegistry.standard.filter("chroma")) as? ChromaKeyFilter else {
                throw APIError(status: .internalServerError, message: "no chroma style")
            }
            style.settings = try chroma.resolvingPick(style.settings, in: raw)
            render.background = style
            behind = clip.map { ($0, newestTime.isFinite ? newestTime : 0) }
        }
    }

    /// How much of its drawing a face shows (0...1) `seconds` after it came on: a quarter on its
    /// first frame, all of it from 0.2 s on (its fourth frame at 15 frames a second). Counted
    /// in frames, a face took four frames to fade in whatever their rate: on a busy machine
    /// showing two frames a second, a face found again stayed half in colour for 1.5 s.
    static func fadeOpacity(shownFor seconds: Double) -> Double {
        min(1, 0.25 + 0.75 * max(0, seconds) / fadeSeconds)
    }
    static let fadeSeconds = 0.2

    /// `drawn` blended back towards `original` where faces are still fading in: each face's
    /// reach (`areas`: as far as its region and its carried matte go) at its opacity (0...1).
    static func fade(_ drawn: VipsImage, over original: VipsImage, areas: [(FaceBox, Double)]) throws -> VipsImage {
        var mask = try VipsImage.solid(width: drawn.width, height: drawn.height, pixel: [255])
        for (r, opacity) in areas {
            let x0 = max(0, Int(r.x.rounded(.down))), y0 = max(0, Int(r.y.rounded(.down)))
            let x1 = min(drawn.width, Int(r.maxX.rounded(.up))), y1 = min(drawn.height, Int(r.maxY.rounded(.up)))
            guard x1 > x0, y1 > y0 else { continue }
            let tile = try VipsImage.solid(width: x1 - x0, height: y1 - y0, pixel: [max(0, min(255, (opacity * 255).rounded()))])
            mask = try mask.inserting(tile, x: x0, y: y0)
        }
        return try mask.cast(.uchar).ifThenElse(drawn, original, blend: true).cast(.uchar)
    }

    /// Capture guidance, as a skin-tone capture app prompts its user: the face report's checks
    /// on the faces of a frame, each as a short instruction.
    struct Guidance: Codable, Sendable, Equatable {
        var face: Int
        var kind: String
        var say: String
        var detail: String
    }

    static func guidance(for faces: [TrackedFace], on image: VipsImage) throws -> [Guidance] {
        guard !faces.isEmpty else { return [] }
        let photo = try Photo(image: image)
        let assessments = try FaceReport.analyse(photo: photo, faces: faces.map { DetectedFace(box: $0.box, score: $0.score, landmarks: $0.landmarks) },
                                                 skinTone: false)
        return zip(faces, assessments).flatMap { face, assessment in
            assessment.warnings.map { w in
                let say = switch w.kind {
                case .tooSmall: "move closer"
                case .cutOff: "face cut off"
                case .unevenLighting: "light is uneven"
                case .blurred: "hold still"
                case .rotated: "hold your head straight"
                }
                return Guidance(face: face.id, kind: w.kind.rawValue, say: say, detail: w.message)
            }
        }
    }

    /// Take picture: the frame as drawn now, written to `OUT/live-<time>.png`, and its face
    /// report (measured on the frame as taken) beside it as `.report.json`.
    func takePicture(outputFolder: String) throws -> Still {
        let (frame, ids) = try lock.withLock { () throws -> ((raw: VipsImage, drawn: VipsImage, faces: [TrackedFace]), [Int]) in
            guard let last = lastFrame else { throw APIError(status: .conflict, message: "no frame yet: start Live first") }
            return (last, last.faces.map(\.id))
        }
        let name = (PhotoLibrary.unusedPath(in: outputFolder, for: "live-\(Self.stamp()).png") as NSString).lastPathComponent
        let path = (outputFolder as NSString).appendingPathComponent(name)
        try ImageExporter.write(frame.drawn, to: path, options: ExportOptions(overwrite: false))
        var assessments = try FaceReport.analyse(photo: try Photo(image: frame.raw),
                                                 faces: frame.faces.map { DetectedFace(box: $0.box, score: $0.score, landmarks: $0.landmarks) })
        for i in assessments.indices where i < ids.count { assessments[i].index = ids[i] }
        let report = (path as NSString).deletingPathExtension + ".report.json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(assessments).write(to: URL(fileURLWithPath: report))
        return Still(output: path, name: name, report: report, faces: assessments.count,
                     warnings: assessments.flatMap { a in a.warnings.map { "face \(a.index): \($0.message)" } })
    }

    struct Still: Encodable, Sendable {
        var output: String
        var name: String
        var report: String
        var faces: Int
        var warnings: [String]
    }

    /// "2026-11-25-143012": local time, for file names.
    static func stamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date())
    }

    /// The faces on the frame just taken: where the detector found them on it, each with the
    /// id it had on the frame before (`shown`), else the id of the tracker's face there
    /// (`followed`: the tracker's faces on this frame, as far as it has seen and followed
    /// them). A face shown before that the detector missed this once is where the tracker
    /// followed it, with the id it had, unless a face found is there. A face too new to have a
    /// track yet has id 0 (and is not drawn in a style). `detected`: whether `found` is the
    /// detector's (else where the last two detections say the faces are going).
    ///
    /// Matched to the frame before first: a face moves little in a frame, where the tracker,
    /// which measures a small face's motion poorly, may have run on past it (a 26 px face whose
    /// camera turned back: its track went on the other way, the face was taken for a new one,
    /// left as filmed for half a second, and its style restarted).
    static func current(_ found: [DetectedFace], followed: [TrackedFace], shown: [TrackedFace] = [],
                        detected: Bool = true) -> [TrackedFace] {
        var ids = [Int](repeating: 0, count: found.count)
        var taken = Set<Int>()
        for candidates in [shown.filter { $0.id > 0 }, followed] {
            // The closest pairs first, so that two faces near each other do not swap ids.
            let pairs = found.indices.flatMap { i in
                candidates.compactMap { c in sameFace(c.box, found[i].box).map { (i, c.id, $0) } }
            }.sorted { $0.2 < $1.2 }
            for (i, id, _) in pairs where ids[i] == 0 && !taken.contains(id) { ids[i] = id; taken.insert(id) }
        }
        var out = zip(ids, found).map { id, face in
            TrackedFace(id: id, box: face.box, landmarks: face.landmarks, score: face.score ?? 1, detected: detected)
        }
        // Missed: a face shown on the frame before is where the tracker follows it (under the
        // id it had, where the tracker has given it a new one), unless a face found is there.
        // (A track of the tracker's that continues no face shown, or is far from the one it
        // continues, is one it has lost: it has run on past its face, and would be drawn on
        // the wall.)
        let here = out
        for track in followed where !taken.contains(track.id) && track.opacity >= 1 && !here.contains(where: { $0.box.iou(track.box) >= 0.2 }) {
            guard let was = shown.filter({ $0.id > 0 && !taken.contains($0.id) })
                .compactMap({ s in sameFace(s.box, track.box).map { (s, $0) } }).min(by: { $0.1 < $1.1 })?.0
            else { continue }
            var face = track
            face.id = was.id
            taken.insert(face.id)
            out.append(face)
        }
        return out
    }

    /// Whether boxes `a` and `b`, on consecutive frames, can be one face, and how far apart
    /// they are then (their middles, in widths): overlapping, or about as large with their
    /// middles at most one and a half widths apart. A small face where the machine shows a few
    /// frames a second moves more than its width between two of them (30 px of a 26 px face,
    /// where the camera turned back): matched by overlap alone, it was taken for a new face,
    /// left as filmed for a second, and its old track drawn on the wall beside it.
    static func sameFace(_ a: FaceBox, _ b: FaceBox) -> Double? {
        let size = max(a.width, b.width, 1)
        let distance = ((a.center.x - b.center.x) * (a.center.x - b.center.x) + (a.center.y - b.center.y) * (a.center.y - b.center.y)).squareRoot() / size
        let ratio = a.width / max(b.width, 1)
        guard a.iou(b) >= 0.2 || (distance <= 1.5 && ratio > 0.67 && ratio < 1.5) else { return nil }
        return distance
    }

    /// Between two looks, each face (`found`: where the last two looks say it is going) where
    /// the tracker's face on it is (`followed`: moved by the motion measured on this very
    /// frame), its landmarks moved with it. Measured against where the faces truly were (a
    /// camera panning with steps of one to three frames, reversing): the looks' guess was 4.6
    /// to 5.3 px off on average (18 at most), the tracker 3.4 to 3.6 (11), faces of 26–85 px.
    /// A face whose track has run off elsewhere (IoU under 0.3) keeps the looks' guess.
    static func moved(_ found: [DetectedFace], asFollowed followed: [TrackedFace]) -> [DetectedFace] {
        found.map { face in
            guard let track = followed.max(by: { $0.box.iou(face.box) < $1.box.iou(face.box) }), track.box.iou(face.box) >= 0.3 else { return face }
            let dx = track.box.center.x - face.box.center.x, dy = track.box.center.y - face.box.center.y
            var moved = face
            moved.box = track.box
            moved.landmarks = face.landmarks.map { Point(x: $0.x + dx, y: $0.y + dy) }
            return moved
        }
    }

    /// Each face of the frame before (`faces`, on `grey`) moved by how its middle moved from
    /// `grey` to `next`, measured by block matching (`FaceMotion`) around where `guessed` (the
    /// same faces, in the same order, where the looks' speed puts them) expects it; nil for a
    /// face whose motion cannot be told (too little texture, a poor match). Measured on a
    /// panning camera at two frames a second, where it moves 15 px a frame and turns back
    /// within four (`LiveFollowingTests`): the looks' speed alone put the faces 0.31 of a
    /// face's width off on average and up to 1.16; moved by their own motion, 0.045 and 0.126.
    static func placed(_ faces: [DetectedFace], from grey: GreyPlane, to next: GreyPlane, guessed: [DetectedFace]) -> [DetectedFace?] {
        faces.enumerated().map { i, face in
            let guess = i < guessed.count ? guessed[i] : face
            let expected = (guess.box.center.x - face.box.center.x, guess.box.center.y - face.box.center.y)
            return FaceMotion.measure(face.box, from: grey, to: next, predicted: expected).map { face.offset(dx: $0.dx, dy: $0.dy) }
        }
    }

    /// The faces as `measured` moved them where their motion was told, else as `guessed`.
    static func merged(_ measured: [DetectedFace?], guessed: [DetectedFace]) -> [DetectedFace] {
        guard measured.count == guessed.count else { return guessed }
        return zip(measured, guessed).map { $0 ?? $1 }
    }

    /// The faces of the last detection moved on to `time` at the speed they moved since the one
    /// before (a face found only in the last one stays where it was found). Faces move little
    /// in the tenth of a second between two detections; without this, a moving head's drawing
    /// would stop every other frame and catch up on the next.
    static func predicted(from sightings: [(time: Double, faces: [DetectedFace])], at time: Double) -> [DetectedFace] {
        guard let last = sightings.last else { return [] }
        let before = sightings.count > 1 ? sightings[sightings.count - 2] : nil
        return last.faces.map { face in
            guard let before, last.time > before.time,
                  let earlier = before.faces.max(by: { $0.box.iou(face.box) < $1.box.iou(face.box) }),
                  earlier.box.iou(face.box) >= 0.3 else { return face }
            // Never further ahead than one more interval: a late frame is not flung off.
            let ahead = min(time - last.time, last.time - before.time) / (last.time - before.time)
            guard ahead > 0 else { return face }
            func on(_ now: Double, _ then: Double) -> Double { now + (now - then) * ahead }
            var moved = face
            moved.box = FaceBox(x: on(face.box.x, earlier.box.x), y: on(face.box.y, earlier.box.y),
                                width: max(1, on(face.box.width, earlier.box.width)), height: max(1, on(face.box.height, earlier.box.height)))
            if face.landmarks.count == earlier.landmarks.count {
                moved.landmarks = zip(face.landmarks, earlier.landmarks).map { Point(x: on($0.x, $1.x), y: on($0.y, $1.y)) }
            }
            return moved
        }
    }

    /// `faces` with each followed face's box and landmarks smoothed over the frames before
    /// (frames taken at `time` seconds); a track that is gone has its smoothing forgotten.
    private func smoothed(_ faces: [TrackedFace], at time: Double) -> [TrackedFace] {
        var kept: [Int: [OneEuroFilter]] = [:]
        let out = faces.map { face -> TrackedFace in
            guard face.id > 0 else { return face }
            let values = [face.box.x, face.box.y, face.box.width, face.box.height] + face.landmarks.flatMap { [$0.x, $0.y] }
            var filters = smoothers[face.id].flatMap { $0.count == values.count ? $0 : nil }
                ?? Array(repeating: OneEuroFilter(minCutoff: Self.smoothingCutoff, beta: Self.smoothingBeta), count: values.count)
            let v = values.indices.map { filters[$0].filter(values[$0], at: time) }
            kept[face.id] = filters
            var smooth = face
            smooth.box = FaceBox(x: v[0], y: v[1], width: v[2], height: v[3])
            smooth.landmarks = stride(from: 4, to: v.count, by: 2).map { Point(x: v[$0], y: v[$0 + 1]) }
            return smooth
        }
        smoothers = kept
        return out
    }

    private func style(forTrack id: Int) -> FaceStyle? {
        if let chosen = styles[id] { return chosen }
        return defaultStyle
    }

    /// A face's style from now on (nil: left as filmed).
    func setStyle(_ style: FaceStyle?, forTrack id: Int) {
        lock.withLock { styles[id] = .some(style) }
    }

    struct State: Encodable {
        var session: String
        var framesIn: Int
        var framesOut: Int
        var dropped: Int
        var faces: [Face]
    }

    var state: State {
        lock.withLock {
            State(session: id, framesIn: framesIn, framesOut: framesOut, dropped: dropped,
                  faces: lastFaces.map { Face(id: $0.id, box: $0.box.array, style: style(forTrack: $0.id)?.filterID) })
        }
    }

    /// The frame's grey copy for motion, at most 480 pixels long (as a clip's,
    /// `ClipRenderer.motionSide`), made straight from the page's RGBA bytes: luma with integer
    /// weights (Rec. 601), reduced by bilinear sampling. The tracker compares it only with
    /// itself from frame to frame. (Made by libvips, through linear light and XYZ, it took
    /// ~8 ms of a frame; this takes ~1.)
    /// The page's RGBA pixels as packed RGB (alpha dropped): copied over bytes, where a libvips
    /// band extraction computed into memory set up a pipeline and its worker threads per frame.
    static func rgb(rgba: [UInt8]) -> [UInt8] {
        let count = rgba.count / 4
        return [UInt8](unsafeUninitializedCapacity: 3 * count) { out, made in
            rgba.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    out[3 * i] = p[4 * i]; out[3 * i + 1] = p[4 * i + 1]; out[3 * i + 2] = p[4 * i + 2]
                }
            }
            made = 3 * count
        }
    }

    static func grey(rgba: [UInt8], width: Int, height: Int) -> GreyPlane {
        let scale = min(1, 480 / Double(max(width, height)))
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        var luma = [UInt8](repeating: 0, count: width * height)
        rgba.withUnsafeBufferPointer { p in
            luma.withUnsafeMutableBufferPointer { out in
                for i in 0..<(width * height) {
                    let o = 4 * i
                    out[i] = UInt8(truncatingIfNeeded: (77 * Int(p[o]) + 150 * Int(p[o + 1]) + 29 * Int(p[o + 2]) + 128) >> 8)
                }
            }
        }
        guard w != width || h != height else { return GreyPlane(pixels: luma, width: width, height: height, scale: 1) }
        // Each output pixel's centre, in input pixels, between its four nearest (16ths).
        func taps(_ n: Int, _ from: Int) -> [(Int, Int, Int)] {
            (0..<n).map { i in
                let at = max(0, (Double(i) + 0.5) * Double(from) / Double(n) - 0.5)
                let i0 = min(Int(at), from - 1)
                return (i0, min(i0 + 1, from - 1), Int(((at - Double(i0)) * 16).rounded()))
            }
        }
        let xs = taps(w, width), ys = taps(h, height)
        var out = [UInt8](repeating: 0, count: w * h)
        luma.withUnsafeBufferPointer { l in
            out.withUnsafeMutableBufferPointer { o in
                for (y, (y0, y1, fy)) in ys.enumerated() {
                    let r0 = y0 * width, r1 = y1 * width
                    for (x, (x0, x1, fx)) in xs.enumerated() {
                        let top = Int(l[r0 + x0]) * (16 - fx) + Int(l[r0 + x1]) * fx
                        let bottom = Int(l[r1 + x0]) * (16 - fx) + Int(l[r1 + x1]) * fx
                        o[y * w + x] = UInt8(truncatingIfNeeded: (top * (16 - fy) + bottom * fy + 128) >> 8)
                    }
                }
            }
        }
        return GreyPlane(pixels: out, width: w, height: h, scale: Double(w) / Double(width))
    }
}

/// The live sessions of the pages open, by the id each page makes for itself; the few used
/// last are kept.
final class LiveSessions: Sendable {
    private let table = Mutex<[String: LiveSession]>([:])
    let settings: ServeSettings
    let detector: OpenCVFaceDetector
    let detectorLock = NSLock()
    static let capacity = 4

    init(settings: ServeSettings, detector: OpenCVFaceDetector) {
        self.settings = settings; self.detector = detector
    }

    func session(_ id: String) throws -> LiveSession {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw APIError(status: .badRequest, message: "expected ?session=… (letters, digits and dashes)")
        }
        return table.withLock { table in
            if let found = table[id] { return found }
            if table.count >= Self.capacity, let oldest = table.values.min(by: { $0.lastUsed < $1.lastUsed }) { table[oldest.id] = nil }
            let made = LiveSession(id: id, settings: settings, detector: detector, detectorLock: detectorLock)
            table[id] = made
            return made
        }
    }
}
