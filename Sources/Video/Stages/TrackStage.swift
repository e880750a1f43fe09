import FFmpeg
import SketchEase
import Vips

/// A frame with what the style stage needs to draw it, or a packet of another stream, in the
/// order they leave the track stage.
enum TrackedItem: @unchecked Sendable {
    /// The frame, its faces, the background clip's picture for its moment, the head mattes and
    /// drawings made on it or carried to it.
    case frame(VideoFrame, TrackedFrame, VipsImage?, FrameCarry)
    case packet(MediaPacket)
}

/// Detect and track: every frame's faces, found by the detector about three times a second and
/// followed by their motion in between (`FaceTracker`), or taken as recorded (`recorded`: a
/// plan's or an edit's tracks, drawn where they say). Boxes given to follow (`follow`) are
/// followed from their frame, back up to five seconds and on. The tracker looks ahead, so frames
/// and the packets between them are held until their faces are final, and handed on in order.
///
/// Head mattes are cut here (`carrier`), and where faces' drawings are made or carried decided
/// (`drawings`), in frame order, so every run makes them on the same frames; a background clip
/// (`backdrop`) is read here too, in order.
struct TrackStage: @unchecked Sendable {  // run on one thread; its detector and carrier are its own
    let video: VideoStreamInfo
    let options: ClipOptions
    let detector: OpenCVFaceDetector?
    let recorded: ClipTracks?
    let follow: [ClipRenderer.Follow]
    let followed: @Sendable ([BoxFollower]) -> Void
    let backdrop: (@Sendable (Double) throws -> VipsImage)?
    let carrier: MatteCarrier?
    let drawings: DrawingCarrier?

    func run(from decoded: BoundedQueue<MediaItem>, into tracked: BoundedQueue<(Int, TrackedItem)>, _ run: StageRun) {
        defer { tracked.close() }
        do {
            // Frames handed on to be drawn (only `render` carries mattes) carry the sizes their
            // faces are drawn for (`DrawingSizes`).
            var hand = Handing(tracked: tracked, backdrop: backdrop, carrier: carrier, drawings: drawings, run: run,
                               sizes: carrier != nil ? DrawingSizes() : nil,
                               exposure: carrier != nil ? FrameExposure() : nil)
            let tracker = FaceTracker(settings: options.tracking, frameRate: video.frameRate.value,
                                      frameWidth: video.width, frameHeight: video.height,
                                      maxLag: ClipRenderer.heldFrameBytes / ClipRenderer.frameBytes(width: video.width, height: video.height))
            let scaler = FrameScaler()
            var following = Following(requests: follow, keep: follow.isEmpty ? 0 : Int((5 * video.frameRate.value).rounded()))
            defer { followed(following.followers) }
            while let item = decoded.pop() {
                hand.held.append(item)
                guard case .frame(let frame) = item else { continue }
                if let recorded {
                    // Drawn as recorded: no detection, no look-ahead.
                    let faces = frame.index < recorded.frames.count ? recorded.frames[frame.index].faces : []
                    guard try hand.emit([TrackedFrame(index: frame.index, time: frame.time, faces: faces)]) else { return }
                    continue
                }
                var found: [DetectedFace]? = nil
                if tracker.shouldDetect(frame: frame.index), let detector {
                    found = try run.timed(\.detect) { try detector.detect(in: frame, scaler: scaler, options: options.detection) }
                    run.count { $0.detections += 1 }
                }
                let out = run.timed(\.track) { () -> [TrackedFrame] in
                    let grey = scaler.grey(of: frame, maxSide: ClipRenderer.motionSide)
                    following.step(frame, grey)
                    return tracker.add(frame: frame.index, time: frame.time, detections: found, grey: grey)
                }
                guard try hand.emit(out) else { return }
            }
            guard try hand.emit(tracker.finish()) else { return }
            _ = hand.rest()
        } catch { run.fail(error) }
    }

    /// The frames and packets held until their faces are final, and handing them on.
    private struct Handing {
        let tracked: BoundedQueue<(Int, TrackedItem)>
        let backdrop: (@Sendable (Double) throws -> VipsImage)?
        let carrier: MatteCarrier?
        let drawings: DrawingCarrier?
        let run: StageRun
        var sizes: DrawingSizes?
        /// The clip's white, followed where frames are drawn.
        let exposure: FrameExposure?
        var held: [MediaItem] = []
        var sequence = 0

        mutating func hand(_ item: TrackedItem) -> Bool {
            sequence += 1
            return tracked.push((sequence - 1, item))
        }

        /// Hands on everything held up to each final frame: its packets, then the frame.
        mutating func emit(_ frames: [TrackedFrame]) throws -> Bool {
            var handed = 0
            for result in frames {
                scan: while handed < held.count {
                    let item = held[handed]
                    handed += 1
                    switch item {
                    case .packet(let p):
                        guard hand(.packet(p)) else { return false }
                    case .frame(let f):
                        let result = sizes?.steady(result) ?? result
                        run.count { c in for face in result.faces { c.tracks.insert(face.id) }; c.faceFrames += result.faces.count }
                        let picture = try backdrop?(f.time)
                        var carry = FrameCarry(mattes: carrier?.mattes(for: result.faces, index: result.index, on: f) ?? [:])
                        if let exposure { carry.exposure = try exposure.gain(for: f) }
                        if let drawings {
                            carry.drawings = drawings.drawings(for: result.faces, mattes: carry.mattes, index: result.index, on: f,
                                                               exposure: carry.exposure)
                            let carried = carry.drawings.values.filter { $0.drawing.frame != result.index }.count
                            run.count { $0.carriedFaceFrames += carried }
                        }
                        guard hand(.frame(f, result, picture, carry)) else { return false }
                        break scan
                    }
                }
            }
            // What was handed on is let go at once: a frame left in `held` kept its decoded
            // picture (3 MB at 1080p) alive, up to 32 of them.
            held.removeFirst(handed)
            return true
        }

        /// The packets after the last frame.
        mutating func rest() -> Bool {
            for item in held {
                if case .packet(let p) = item { guard hand(.packet(p)) else { return false } }
            }
            return true
        }
    }

    /// Boxes to follow, and the last five seconds of grey copies to follow them back through.
    private struct Following {
        var pending: [ClipRenderer.Follow]
        let keep: Int
        var followers: [BoxFollower] = []
        var recent: [(frame: Int, plane: GreyPlane)] = []

        init(requests: [ClipRenderer.Follow], keep: Int) { pending = requests; self.keep = keep }

        mutating func step(_ frame: VideoFrame, _ grey: GreyPlane) {
            guard keep > 0 else { return }
            if let previous = recent.last {
                for i in followers.indices { followers[i].step(frame: frame.index, from: previous.plane, to: grey) }
            }
            for request in pending where request.starts(on: frame) {
                followers.append(BoxFollower(id: request.id, box: request.box, frame: frame.index, plane: grey,
                                             earlier: recent.reversed()))
            }
            pending.removeAll { $0.starts(on: frame) }
            recent.append((frame.index, grey))
            if recent.count > keep { recent.removeFirst(recent.count - keep) }
        }
    }
}
