import FFmpeg
import SketchEase

/// Follows faces through a clip: links each frame's detections to tracks, keeps a track
/// through short misses, smooths its box and landmarks, and fades its style in and out.
///
/// Frames go in one at a time (with detections on the frames the detector looked at, and a
/// small grey copy on which faces are followed by their motion in between) and come out
/// `lag` frames later with their faces final: by then the tracker has seen what came after
/// them, so the smoothed box uses measurements on both sides (no lag behind motion), a face
/// is followed back to where it was before the detector first found it, its style is already
/// faded in by then, and a false detection seen only once is never drawn. A face that goes
/// unseen keeps its style (`maxMiss`, and at least two missed detections), then fades out.
public final class FaceTracker {
    public let settings: TrackerSettings
    /// Frames held back before they come out.
    public let lag: Int
    /// Frames between detections.
    public let interval: Int

    private var tracks: [Track] = []
    private var ended: [Track] = []
    private var times: [Int: Double] = [:]
    /// Grey copies of the frames not yet emitted, for motion between them.
    private var planes: [Int: GreyPlane] = [:]
    /// Seconds a track may go without a sighting: `maxMiss`, and at least two missed detections.
    private let missAllowance: Double
    private var newestFrame = -1
    private var nextEmit = 0
    private var nextID = 1
    private var nextKey = 0
    private let frameSize: (width: Double, height: Double)

    /// `maxLag` caps the frames held (memory): the look-ahead wanted is two detection intervals
    /// and the fade (30 frames at 30 fps); it is never cut below one interval and the fade.
    public init(settings: TrackerSettings = .init(), frameRate: Double, frameWidth: Int, frameHeight: Int, maxLag: Int = .max) {
        self.settings = settings
        let rate = frameRate > 0 && frameRate.isFinite ? frameRate : 30
        interval = settings.detectionInterval(frameRate: rate)
        missAllowance = max(settings.maxMiss, 2.5 * Double(interval) / rate)
        let fadeFrames = Int((settings.fade * rate).rounded(.up))
        lag = max(interval + fadeFrames + 2, min(2 * interval + fadeFrames + 2, maxLag))
        frameSize = (Double(frameWidth), Double(frameHeight))
    }

    /// Whether the detector should look at this frame.
    public func shouldDetect(frame: Int) -> Bool { frame % interval == 0 }

    /// Adds the next frame (frames come in order, from 0), with the faces detected on it (nil
    /// when the detector did not look) and a small grey copy of it to measure motion on (faces
    /// are followed between detections by how their middle moved). Returns the frames now
    /// final, in order.
    public func add(frame: Int, time: Double, detections: [DetectedFace]?, grey: GreyPlane? = nil) -> [TrackedFrame] {
        precondition(frame == newestFrame + 1, "frames must come in order")
        let dt = newestFrame >= 0 ? max(0, time - (times[newestFrame] ?? time)) : 0
        let previous = planes[newestFrame]
        times[frame] = time
        if let grey { planes[frame] = grey }
        newestFrame = frame
        let matches = detections.map { associate($0, dt: dt) } ?? [:]
        for track in tracks {
            let matched = matches.first { $0.value === track }.map { detections![$0.key] }
            var motion: Track.Motion?
            if let previous, let grey, dt > 0 { motion = track.motion(from: previous, to: grey, dt: dt) }
            track.step(frame: frame, time: time, dt: dt, sighting: matched, motion: motion, grey: grey, settings: settings)
        }
        if let detections {
            for (i, face) in detections.enumerated() where matches[i] == nil {
                let track = Track(key: nextKey, frame: frame, time: time, face: face, settings: settings)
                if let grey { track.template = FaceMotion.Template(face.box, in: grey) }
                track.bestScore = face.score ?? 1
                nextKey += 1
                traceBack(track)
                tracks.append(track)
            }
        }
        confirmNewTracks()
        endLostTracks(now: time)
        var out: [TrackedFrame] = []
        while nextEmit <= newestFrame - lag { out.append(emit(nextEmit)) }
        return out
    }

    /// The frames still held, once the clip has ended.
    public func finish() -> [TrackedFrame] {
        // A face first seen at the clip's last detection had no chance to be seen again.
        for track in tracks where !track.confirmed && track.firstSeen > newestFrame - interval {
            track.sightings = max(track.sightings, settings.confirmSightings)
        }
        confirmNewTracks()
        // Faces still there when the clip ends stay drawn to its last frame.
        for track in tracks { track.lastsToEnd = true; track.end(fadingFrom: newestFrame, at: times[newestFrame] ?? 0) }
        ended += tracks.filter(\.confirmed)
        tracks.removeAll()
        var out: [TrackedFrame] = []
        while nextEmit <= newestFrame { out.append(emit(nextEmit)) }
        return out
    }

    // MARK: - Linking detections to tracks

    /// Detection index -> track, greedily by overlap with each track's predicted box.
    private func associate(_ detections: [DetectedFace], dt: Double) -> [Int: Track] {
        var candidates: [(score: Double, detection: Int, track: Track)] = []
        for track in tracks {
            let predicted = track.predictedBox(after: dt)
            for (i, face) in detections.enumerated() {
                let iou = predicted.iou(face.box)
                let size = max(predicted.width, face.box.width, 1)
                let dx = predicted.center.x - face.box.center.x, dy = predicted.center.y - face.box.center.y
                let distance = (dx * dx + dy * dy).squareRoot() / size
                let ratio = face.box.width / max(predicted.width, 1)
                guard iou >= 0.1 || (distance < 0.5 && ratio > 0.67 && ratio < 1.5) else { continue }
                candidates.append((iou + max(0, 0.5 - distance), i, track))
            }
        }
        candidates.sort { $0.score > $1.score }
        var result: [Int: Track] = [:]
        var taken = Set<Int>()
        for c in candidates where result[c.detection] == nil && !taken.contains(c.track.key) {
            result[c.detection] = c.track
            taken.insert(c.track.key)
        }
        return result
    }

    /// Tracks seen often enough get an id: one more than the last, in order of first sighting
    /// (left to right for faces first seen together). A face lost in the middle of the frame
    /// and found again near where it was within a second keeps its old id.
    private func confirmNewTracks() {
        let fresh = tracks.filter { !$0.confirmed && $0.sightings >= settings.confirmSightings }
            .sorted { ($0.firstSeen, $0.firstBox.x) < ($1.firstSeen, $1.firstBox.x) }
        for track in fresh {
            track.confirmed = true
            if let old = reappearance(of: track) {
                track.id = old.id
                old.succeeded = true
            } else {
                track.id = nextID
                nextID += 1
            }
        }
    }

    /// An ended track this new one continues: lost in the middle of the frame (hidden, not
    /// gone) at most `reappearanceWindow` seconds ago, and found again about where its motion
    /// would have taken it, at about its size.
    private func reappearance(of track: Track) -> Track? {
        let start = times[track.firstSeen] ?? track.firstTime
        var best: (track: Track, distance: Double)?
        for old in ended where !old.succeeded {
            guard !tracks.contains(where: { $0 !== track && $0.confirmed && $0.id == old.id }) else { continue }
            let gap = start - old.lastSeenTime
            guard gap >= 0, gap <= Self.reappearanceWindow,
                  !old.lostAtEdge(frameWidth: frameSize.width, frameHeight: frameSize.height) else { continue }
            let expected = old.expectedBox(after: gap), now = track.firstBox
            let dx = expected.center.x - now.center.x, dy = expected.center.y - now.center.y
            let distance = (dx * dx + dy * dy).squareRoot() / max(expected.width, 1)
            let ratio = now.width / max(expected.width, 1)
            // Where it went is less certain the longer it was hidden.
            guard distance < 0.75 + 0.35 * gap, ratio > 0.5, ratio < 2, distance < best?.distance ?? .infinity else { continue }
            best = (old, distance)
        }
        return best?.track
    }

    /// How long a face may be hidden and still come back under its old id.
    static let reappearanceWindow = 4.0

    private func endLostTracks(now: Double) {
        var kept: [Track] = []
        for track in tracks {
            if now - track.lastSeenTime > missAllowance {
                // It fades out from its last sighting, or from the first frame not yet out.
                let from = max(track.lastSeen, nextEmit)
                track.end(fadingFrom: from, at: times[from] ?? track.lastSeenTime)
                if track.confirmed { ended.append(track) }
            } else {
                kept.append(track)
            }
        }
        tracks = kept
    }

    /// Follows a new face back through the frames still held, by how its middle moved, to
    /// where it was before the detector first saw it (entering the frame, coming out from
    /// behind something): its style is on there already, and fades in before that.
    private func traceBack(_ track: Track) {
        var box = track.firstBox
        var frame = track.firstSeen
        while frame - 1 >= nextEmit, frame - 1 > track.firstSeen - lag,
              let here = planes[frame], let before = planes[frame - 1],
              let motion = FaceMotion.measure(box, from: here, to: before, predicted: (0, 0), radius: 8) {
            box.x += motion.dx; box.y += motion.dy
            if let template = track.template, !template.resembles(box, in: before) { break }
            frame -= 1
            track.traced[frame] = (box, times[frame] ?? 0)
        }
    }

    // MARK: - Output

    private func emit(_ frame: Int) -> TrackedFrame {
        nextEmit = frame + 1
        let time = times[frame] ?? 0
        var faces: [TrackedFace] = []
        for track in (ended + tracks) where track.confirmed {
            if let face = track.face(at: frame, time: time, settings: settings) { faces.append(face) }
        }
        // A face found again under its old id may overlap its own fade-out: the stronger one stays.
        faces.sort { ($0.id, -$0.opacity) < ($1.id, -$1.opacity) }
        faces = faces.enumerated().filter { $0.offset == 0 || faces[$0.offset - 1].id != $0.element.id }.map(\.element)
        // What is no longer needed: frame times before this one, tracks whose fade is over.
        times[frame - 1] = nil
        planes[frame - 1] = nil
        ended.removeAll { $0.isOver(before: time, settings: settings) && time - $0.lastSeenTime > Self.reappearanceWindow + 0.5 }
        for track in tracks { track.forget(before: min(frame, track.firstSeen)) }
        return TrackedFrame(index: frame, time: time, faces: faces)
    }
}

/// One face's track: its motion filters and sightings.
private final class Track {
    let key: Int
    var id = 0
    var confirmed = false
    /// An ended track whose id a later track took over.
    var succeeded = false
    let firstSeen: Int
    let firstTime: Double
    let firstBox: FaceBox
    var lastSeen: Int
    var lastSeenTime: Double
    var sightings = 1
    var isEnded = false
    /// Still followed when the clip ended: drawn to the last frame, no fade.
    var lastsToEnd = false
    /// Sightings of the last two seconds: when a face is lost behind something its last boxes
    /// are partial, so where it was going and how large it is are judged from these.
    private var recent: [(time: Double, box: FaceBox)] = []
    /// Detector scores of the sightings not yet emitted (and the one before), in frame order
    /// (1 for the cascade fallback, which gives none: each of its sightings counts alike).
    private var scores: [(frame: Int, score: Double)] = []
    /// cx, cy, w, h, then x, y of each landmark.
    private var filters: [MotionFilter]
    private let landmarkCount: Int
    /// The best detector score so far.
    var bestScore = 0.0
    /// The middle of the face as last clearly detected (grey), to tell it from what may cover it.
    var template: FaceMotion.Template?
    /// Boxes (and times) before the first sighting, followed back from it by motion (`traceBack`).
    var traced: [Int: (box: FaceBox, time: Double)] = [:]
    /// Smoothed state at the last sighting, kept when the track ends.
    private var finalStates: [MotionFilter.State] = []
    private var firstStates: [MotionFilter.State]?

    init(key: Int, frame: Int, time: Double, face: DetectedFace, settings: TrackerSettings) {
        self.key = key
        firstSeen = frame; firstTime = time; firstBox = face.box
        lastSeen = frame; lastSeenTime = time
        landmarkCount = face.landmarks.count
        scores = [(frame, face.score ?? 1)]
        recent = [(time, face.box)]
        let size = max(face.box.width, 1)
        let values = Self.measurements(face)
        filters = values.enumerated().map { i, v in
            MotionFilter(frame: frame, measurement: v, noise: settings.measurementNoise * size,
                         acceleration: settings.acceleration * size * (i == 2 || i == 3 ? 0.5 : 1))
        }
    }

    static func measurements(_ face: DetectedFace) -> [Double] {
        [face.box.center.x, face.box.center.y, face.box.width, face.box.height] + face.landmarks.flatMap { [$0.x, $0.y] }
    }

    private var size: Double { max(filters[2].newest.position, 1) }

    func predictedBox(after dt: Double) -> FaceBox {
        let s = filters[0...3].map { $0.predicted(after: dt).position }
        return FaceBox(x: s[0] - s[2] / 2, y: s[1] - s[3] / 2, width: s[2], height: s[3])
    }

    /// How the face's middle moved between two frames, as a velocity (frame pixels a second).
    struct Motion { var vx: Double, vy: Double, noise: Double }

    /// The motion of this face's middle from `before` to `after`, `dt` seconds apart, or nil
    /// when it cannot be measured reliably (too little texture, no good match: hidden, turned).
    func motion(from before: GreyPlane, to after: GreyPlane, dt: Double) -> Motion? {
        let box = Self.box(from: filters.map(\.newest))
        let predicted = (filters[0].newest.velocity * dt, filters[1].newest.velocity * dt)
        guard let m = FaceMotion.measure(box, from: before, to: after, predicted: predicted) else { return nil }
        // Still the face last seen there? (Not something that has moved in front of it.)
        if let template {
            let moved = FaceBox(x: box.x + m.dx, y: box.y + m.dy, width: box.width, height: box.height)
            guard template.resembles(moved, in: after) else { return nil }
        }
        // About a third of a grey pixel of uncertainty, in frame pixels a second.
        return Motion(vx: m.dx / dt, vy: m.dy / dt, noise: 0.35 / before.scale / dt)
    }

    func step(frame: Int, time: Double, dt: Double, sighting: DetectedFace?, motion: Motion?, grey: GreyPlane?,
              settings: TrackerSettings) {
        let size = self.size
        let values = sighting.map(Self.measurements)
        for i in filters.indices {
            filters[i].acceleration = settings.acceleration * size * (i == 2 || i == 3 ? 0.5 : 1)
            let measured = values.flatMap { i < $0.count ? $0[i] : nil }
            // Motion moves the centre and the landmarks (x at even, y at odd places); not the size.
            let velocity: Double? = i == 2 || i == 3 ? nil : motion.map { i % 2 == 0 ? $0.vx : $0.vy }
            filters[i].step(frame: frame, dt: dt, measurement: measured, noise: settings.measurementNoise * size,
                            velocity: velocity, velocityNoise: motion?.noise ?? 0)
        }
        if let sighting {
            // A face going behind something is still found for a while, with a lower score:
            // the template is taken only from clear sightings.
            bestScore = max(bestScore, sighting.score ?? 1)
            if let grey, (sighting.score ?? 1) >= 0.85 * bestScore { template = FaceMotion.Template(sighting.box, in: grey) }
            sightings += 1
            lastSeen = frame; lastSeenTime = time
            scores.append((frame, sighting.score ?? 1))
            recent.append((time, sighting.box))
            if let keep = recent.firstIndex(where: { $0.time >= time - 2 }), keep > 0 { recent.removeFirst(keep) }
        }
    }

    /// Ends the track: drawn as followed up to `frame`, fading out after it from `time`.
    func end(fadingFrom frame: Int, at time: Double) {
        guard !isEnded else { return }
        isEnded = true
        finalStates = filters.map { $0.smoothed(at: lastSeen) ?? $0.newest }
        fadeFrame = frame
        fadeTime = time
        fadeStates = filters.map { $0.smoothed(at: frame) ?? $0.newest }
        if firstStates == nil { firstStates = filters.map { $0.smoothed(at: firstSeen) ?? $0.newest } }
    }

    /// Where an ended track starts fading out, and its state there.
    private var fadeFrame = 0
    private var fadeTime = 0.0
    private var fadeStates: [MotionFilter.State] = []

    var endBox: FaceBox { Self.box(from: finalStates.isEmpty ? filters.map(\.newest) : finalStates) }

    /// Where the face would be `dt` seconds after its last sighting, moving on as it was over
    /// its last two seconds, at its usual size then.
    func expectedBox(after dt: Double) -> FaceBox {
        guard let first = recent.first, let last = recent.last else { return endBox }
        let span = last.time - first.time
        let vx = span > 0.3 ? (last.box.center.x - first.box.center.x) / span : 0
        let vy = span > 0.3 ? (last.box.center.y - first.box.center.y) / span : 0
        let widths = recent.map(\.box.width).sorted(), heights = recent.map(\.box.height).sorted()
        let w = widths[widths.count / 2], h = heights[heights.count / 2]
        let t = dt
        return FaceBox(x: last.box.center.x + vx * t - w / 2, y: last.box.center.y + vy * t - h / 2, width: w, height: h)
    }

    /// Lost within a fifth of its size from the frame's edge: it left, rather than being hidden.
    func lostAtEdge(frameWidth: Double, frameHeight: Double) -> Bool {
        let b = endBox, margin = b.width * 0.2
        return b.x < margin || b.y < margin || b.maxX > frameWidth - margin || b.maxY > frameHeight - margin
    }

    func isOver(before time: Double, settings: TrackerSettings) -> Bool {
        isEnded && time > fadeTime + settings.fade
    }

    func forget(before frame: Int) {
        for i in filters.indices { filters[i].forget(before: frame) }
        if let keep = scores.lastIndex(where: { $0.frame < frame }), keep > 0 { scores.removeFirst(keep) }
    }

    /// The face on `frame` (at `time`), or nil when the track is not drawn there.
    func face(at frame: Int, time: Double, settings: TrackerSettings) -> TrackedFace? {
        let fade = max(settings.fade, 1e-6)
        var opacity = 1.0
        var states: [MotionFilter.State]
        if frame < firstSeen {
            // Before the first sighting: where it was followed back to, at full strength; before
            // that, moving on as it was there, fading in.
            let start = firstStates ?? filters.map { $0.smoothed(at: firstSeen) ?? $0.newest }
            if let t = traced[frame] {
                states = Self.shifted(start, dx: t.box.center.x - firstBox.center.x, dy: t.box.center.y - firstBox.center.y)
            } else {
                let anchor = traced.min { $0.key < $1.key }?.value ?? (box: firstBox, time: firstTime)
                guard time > anchor.time - settings.fade - 1e-9 else { return nil }
                let shifted = Self.shifted(start, dx: anchor.box.center.x - firstBox.center.x, dy: anchor.box.center.y - firstBox.center.y)
                states = Self.extrapolated(shifted, by: time - anchor.time)
                opacity = (time - (anchor.time - fade)) / fade
            }
        } else if isEnded && !lastsToEnd && frame > fadeFrame {
            // After a track has ended: moving on, fading out.
            guard time < fadeTime + settings.fade + 1e-9 else { return nil }
            states = Self.extrapolated(fadeStates, by: time - fadeTime)
            opacity = (fadeTime + fade - time) / fade
        } else if let smoothed = smoothedStates(at: frame) {
            states = smoothed
        } else {
            return nil
        }
        let box = Self.box(from: states)
        guard box.width >= 2, box.height >= 2, box.isUsable else { return nil }
        let landmarks = landmarkCount == 5
            ? (0..<5).map { Point(x: states[4 + 2 * $0].position, y: states[5 + 2 * $0].position) } : []
        let sighting = scores.last { $0.frame <= frame } ?? scores.first
        return TrackedFace(id: id, box: box, landmarks: landmarks, score: sighting?.score ?? 0,
                           opacity: min(1, max(0, opacity)), detected: sighting?.frame == frame)
    }

    private func smoothedStates(at frame: Int) -> [MotionFilter.State]? {
        if isEnded, !lastsToEnd, frame == fadeFrame { return fadeStates }
        var states: [MotionFilter.State] = []
        for f in filters {
            guard let s = f.smoothed(at: frame) else { return nil }
            states.append(s)
        }
        return states
    }

    /// States with the centre and landmarks moved by (dx, dy).
    private static func shifted(_ states: [MotionFilter.State], dx: Double, dy: Double) -> [MotionFilter.State] {
        states.enumerated().map { i, s in
            var e = s
            if i != 2 && i != 3 { e.position += i % 2 == 0 ? dx : dy }
            return e
        }
    }

    /// States moved on by their velocity for `dt` seconds; sizes (width, height) are held.
    private static func extrapolated(_ states: [MotionFilter.State], by dt: Double) -> [MotionFilter.State] {
        states.enumerated().map { i, s in
            var e = s
            if i != 2 && i != 3 { e.position += s.velocity * dt }
            return e
        }
    }

    static func box(from states: [MotionFilter.State]) -> FaceBox {
        let cx = states[0].position, cy = states[1].position, w = states[2].position, h = states[3].position
        return FaceBox(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
    }
}
