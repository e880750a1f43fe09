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
    private var missAllowance: Double
    /// Seconds a track followed by its motion may go without a sighting.
    private var followAllowance: Double
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
        followAllowance = max(2, 4 * missAllowance)
        let fadeFrames = Int((settings.fade * rate).rounded(.up))
        lag = max(interval + fadeFrames + 2, min(2 * interval + fadeFrames + 2, maxLag))
        frameSize = (Double(frameWidth), Double(frameHeight))
    }

    /// The motion filters' steps the tracks hold (for the tests: it must not grow with a clip's length).
    var heldSteps: Int { (tracks + ended).reduce(0) { $0 + $1.heldSteps } }

    /// The frames now come `rate` a second (Live: as fast as the machine and the page manage,
    /// which may be well under the rate given at the start): a face is kept through two and a
    /// half missed detections at that rate, as at the rate given.
    public func expect(frameRate rate: Double) {
        guard rate > 0, rate.isFinite else { return }
        missAllowance = max(settings.maxMiss, 2.5 * Double(interval) / rate)
        followAllowance = max(2, 4 * missAllowance)
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
            var followed: (motion: Track.Motion?, covered: Bool) = (nil, false)
            if let previous, let grey, dt > 0 { followed = track.follow(from: previous, to: grey, dt: dt) }
            track.step(frame: frame, time: time, dt: dt, sighting: matched, motion: followed.motion, covered: followed.covered,
                       grey: grey, frameSize: frameSize, settings: settings)
        }
        if let detections {
            for (i, face) in detections.enumerated() where matches[i] == nil {
                let track = Track(key: nextKey, frame: frame, time: time, face: face, frameSize: frameSize, settings: settings)
                if let grey, !face.box.touchesEdge(of: frameSize) {
                    track.template = FaceMotion.Template(face.box, in: grey)
                    track.takeAppearance(face, in: grey)
                }
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

    /// Each face with an id, on the newest frame added, where its sightings and its motion so
    /// far put it: for a picture wanted at once (Live), where the frames `add` gives come `lag`
    /// frames late (a face moving its own width in that time was no longer where they show it).
    /// Not smoothed with what comes after, as those frames are; a face that is lost is not here.
    public var newest: [TrackedFace] {
        tracks.filter { $0.confirmed && !$0.isEnded }.compactMap { $0.newestFace(frame: newestFrame) }
    }

    /// The frames still held, once the clip has ended.
    public func finish() -> [TrackedFrame] {
        // A face first seen at the clip's last detection had no chance to be seen again.
        for track in tracks where !track.confirmed && track.firstSeen > newestFrame - interval {
            track.sightings = max(track.sightings, settings.confirmSightings)
        }
        confirmNewTracks()
        // Faces still there when the clip ends stay drawn to its last frame.
        for track in tracks { track.lastsToEnd = true; track.end(fadingFrom: newestFrame, at: times[newestFrame] ?? 0, frameSize: frameSize) }
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
            let whole = track.predictedBox(after: dt)
            for (i, face) in detections.enumerated() {
                // A face cut by the frame's edge is found as the part of it inside: compared
                // with the part of the predicted box inside.
                let predicted = face.box.touchesEdge(of: frameSize) ? whole.clipped(to: frameSize) ?? whole : whole
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
            // A face the detector misses (small, blurred, at an angle) is kept while its motion
            // is still followed, up to `followAllowance`.
            let unseen = now - track.lastSeenTime, unfollowed = now - track.lastFollowedTime
            if (unseen > missAllowance && unfollowed > missAllowance / 2) || unseen > followAllowance {
                if let covered = track.coveredSince {
                    // Lost behind something: drawn up to where it was covered, not on what covers it.
                    let last = max(covered - 1, nextEmit - 1)
                    track.end(cutAfter: last, at: times[last] ?? track.lastFollowedTime)
                } else {
                    // It fades out from where it was last seen or followed, or from the first
                    // frame not yet out (leaving the frame: drawn whole until it is out).
                    let from = max(track.lastFollowed, nextEmit)
                    track.end(fadingFrom: from, at: times[from] ?? track.lastFollowedTime, frameSize: frameSize)
                }
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
              let here = planes[frame], let before = planes[frame - 1] {
            guard let motion = FaceMotion.measure(box, from: here, to: before, predicted: (0, 0), radius: 8) else { break }
            let moved = FaceBox(x: box.x + motion.dx, y: box.y + motion.dy, width: box.width, height: box.height)
            if let template = track.template, !template.resembles(moved, in: before) { break }
            box = moved
            frame -= 1
            track.traced[frame] = (box, times[frame] ?? 0)
        }
        // Lost going back: come out from behind something if, moving on as it was, something
        // else soon stands where it would be. Then it is drawn from where it came out, not
        // faded in over what covered it.
        if let template = track.template {
            let after = track.traced[frame + 1]?.box ?? (frame + 1 == track.firstSeen ? track.firstBox : box)
            let vx = box.x - after.x, vy = box.y - after.y
            for k in 1...4 where frame - k >= nextEmit {
                guard let plane = planes[frame - k] else { break }
                let back = FaceBox(x: box.x + vx * Double(k), y: box.y + vy * Double(k), width: box.width, height: box.height)
                if template.isCovered(back, in: plane) { track.tracedFromCover = true; break }
            }
        }
    }

    // MARK: - Output

    private func emit(_ frame: Int) -> TrackedFrame {
        nextEmit = frame + 1
        let time = times[frame] ?? 0
        var faces: [TrackedFace] = []
        for track in (ended + tracks) where track.confirmed {
            if var face = track.face(at: frame, time: time, settings: settings) {
                // Which of its pixels are still the face: not drawn on what has come in front of it.
                if let appearance = track.appearance, let plane = planes[frame] { face.cover = appearance.cover(face.box, in: plane) }
                faces.append(face)
            }
        }
        // A face found again under its old id may overlap its own fade-out: the stronger one stays.
        faces.sort { ($0.id, -$0.opacity) < ($1.id, -$1.opacity) }
        faces = faces.enumerated().filter { $0.offset == 0 || faces[$0.offset - 1].id != $0.element.id }.map(\.element)
        // What is no longer needed: frame times before this one, tracks whose fade is over, a
        // track's steps before this frame (or before its last sighting, which its end is
        // smoothed at). Until 2026-11-28 a track kept every step from its first sighting on:
        // ~1.3 KB a face a frame, +62 MB over 10 minutes of the three-face bench clip.
        times[frame - 1] = nil
        planes[frame - 1] = nil
        ended.removeAll { $0.isOver(before: time, settings: settings) && time - $0.lastSeenTime > Self.reappearanceWindow + 0.5 }
        for track in tracks { track.forget(before: min(frame, track.lastSeen)) }
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
    /// The last frame the face was seen or followed by its motion (its middle still looking as
    /// when last clearly seen).
    var lastFollowed: Int
    var lastFollowedTime: Double
    /// The first frame of the present run of frames where something else is where the face
    /// should be (it is covered), or nil.
    var coveredSince: Int?
    /// Frames the face was covered on (runs of at least three, less the last): not drawn there.
    private var hidden: [ClosedRange<Int>] = []
    /// Followed back from its first sighting to where it came out from behind something: not
    /// faded in before that (over what covered it).
    var tracedFromCover = false
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
    /// The head as seen at the best sighting (grey), to tell which of its pixels something covers.
    var appearance: FaceMotion.Appearance?
    private var appearanceScore = 0.0

    func takeAppearance(_ face: DetectedFace, in grey: GreyPlane) {
        if let seen = FaceMotion.Appearance(face.box, in: grey) { appearance = seen; appearanceScore = face.score ?? 1 }
    }
    /// Boxes (and times) before the first sighting, followed back from it by motion (`traceBack`).
    var traced: [Int: (box: FaceBox, time: Double)] = [:]
    /// Smoothed state at the last sighting, kept when the track ends.
    private var finalStates: [MotionFilter.State] = []
    private var firstStates: [MotionFilter.State]?

    init(key: Int, frame: Int, time: Double, face: DetectedFace, frameSize: (width: Double, height: Double), settings: TrackerSettings) {
        self.key = key
        // A face first found cut by the frame's edge: as large as its box's other side says
        // (a face's box is about as wide as it is high), reaching out of the frame.
        var box = face.box
        if box.touchesEdge(of: frameSize) {
            let b = face.box
            if b.x <= Self.edge || b.maxX >= frameSize.width - Self.edge {
                box.width = max(b.width, 0.8 * b.height)
                if b.x <= Self.edge && b.maxX < frameSize.width - Self.edge { box.x = b.maxX - box.width }
            }
            if b.y <= Self.edge || b.maxY >= frameSize.height - Self.edge {
                box.height = max(b.height, b.width)
                if b.y <= Self.edge && b.maxY < frameSize.height - Self.edge { box.y = b.maxY - box.height }
            }
        }
        firstSeen = frame; firstTime = time; firstBox = box
        lastSeen = frame; lastSeenTime = time
        lastFollowed = frame; lastFollowedTime = time
        landmarkCount = face.landmarks.count
        scores = [(frame, face.score ?? 1)]
        recent = [(time, box)]
        let size = max(box.width, 1)
        let values = Self.measurements(DetectedFace(box: box, score: face.score, landmarks: face.landmarks))
        filters = values.enumerated().map { i, v in
            MotionFilter(frame: frame, measurement: v, noise: settings.measurementNoise * size,
                         acceleration: settings.acceleration * size * (i == 2 || i == 3 ? 0.5 : 1))
        }
    }

    static func measurements(_ face: DetectedFace) -> [Double] {
        [face.box.center.x, face.box.center.y, face.box.width, face.box.height] + face.landmarks.flatMap { [$0.x, $0.y] }
    }

    /// Pixels from the frame's edge within which a detection's side is taken as cut by it.
    static let edge = 2.0

    /// What a sighting measures. A face cut by the frame's edge is found as the part inside:
    /// its inside side is where the face's is, its size across the edge is at least what is
    /// seen (never shrunk by the cut), its size along it is not measured, and its landmarks
    /// (guesses) are taken to move with the box.
    func measurements(_ face: DetectedFace, frameSize: (width: Double, height: Double)) -> [Double?] {
        var values: [Double?] = Self.measurements(face)
        let b = face.box
        guard b.touchesEdge(of: frameSize) else { return values }
        let e = Self.edge
        let left = b.x <= e, right = b.maxX >= frameSize.width - e, top = b.y <= e, bottom = b.maxY >= frameSize.height - e
        if left || right {
            let w = max(b.width, filters[2].newest.position)
            values[2] = b.width > filters[2].newest.position ? b.width : nil
            values[0] = left && right ? nil : left ? b.maxX - w / 2 : b.x + w / 2
        }
        if top || bottom {
            let h = max(b.height, filters[3].newest.position)
            values[3] = b.height > filters[3].newest.position ? b.height : nil
            values[1] = top && bottom ? nil : top ? b.maxY - h / 2 : b.y + h / 2
        }
        // The part of a face the detector sees at the edge is boxed by what is in it: its
        // size along the edge is no measure of the face's either.
        if left || right { values[3] = nil }
        if top || bottom { values[2] = nil }
        // The landmarks move with the box, as they lie in it now.
        let cx = filters[0].newest.position, cy = filters[1].newest.position
        for i in 4..<min(values.count, filters.count) {
            let centre = i % 2 == 0 ? values[0] : values[1]
            values[i] = centre.map { $0 + filters[i].newest.position - (i % 2 == 0 ? cx : cy) }
        }
        return values
    }

    private var size: Double { max(filters[2].newest.position, 1) }

    func predictedBox(after dt: Double) -> FaceBox {
        let s = filters[0...3].map { $0.predicted(after: dt).position }
        return FaceBox(x: s[0] - s[2] / 2, y: s[1] - s[3] / 2, width: s[2], height: s[3])
    }

    /// How the face's middle moved between two frames, as a velocity (frame pixels a second).
    struct Motion { var vx: Double, vy: Double, noise: Double }

    /// The motion of this face's middle from `before` to `after`, `dt` seconds apart, or nil
    /// when it cannot be measured reliably (too little texture, no good match: hidden, turned);
    /// and whether, not followed, something else is where the face should be (covered).
    func follow(from before: GreyPlane, to after: GreyPlane, dt: Double) -> (motion: Motion?, covered: Bool) {
        let box = Self.box(from: filters.map(\.newest))
        let predicted = (filters[0].newest.velocity * dt, filters[1].newest.velocity * dt)
        if let m = FaceMotion.measure(box, from: before, to: after, predicted: predicted) {
            // Still the face last seen there? (Not something that has moved in front of it.)
            let moved = FaceBox(x: box.x + m.dx, y: box.y + m.dy, width: box.width, height: box.height)
            if template?.resembles(moved, in: after) ?? true {
                // About a third of a grey pixel of uncertainty, in frame pixels a second.
                return (Motion(vx: m.dx / dt, vy: m.dy / dt, noise: 0.35 / before.scale / dt), false)
            }
        }
        let expected = FaceBox(x: box.x + predicted.0, y: box.y + predicted.1, width: box.width, height: box.height)
        return (nil, template?.isCovered(expected, in: after) ?? false)
    }

    func step(frame: Int, time: Double, dt: Double, sighting: DetectedFace?, motion: Motion?, covered: Bool, grey: GreyPlane?,
              frameSize: (width: Double, height: Double), settings: TrackerSettings) {
        let size = self.size
        let values = sighting.map { measurements($0, frameSize: frameSize) }
        for i in filters.indices {
            filters[i].acceleration = settings.acceleration * size * (i == 2 || i == 3 ? 0.5 : 1)
            let measured = values.flatMap { i < $0.count ? $0[i] : nil } ?? nil
            // Motion moves the centre and the landmarks (x at even, y at odd places); not the size.
            let velocity: Double? = i == 2 || i == 3 ? nil : motion.map { i % 2 == 0 ? $0.vx : $0.vy }
            filters[i].step(frame: frame, dt: dt, measurement: measured, noise: settings.measurementNoise * size,
                            velocity: velocity, velocityNoise: motion?.noise ?? 0)
        }
        if sighting != nil || motion != nil {
            // Seen again: a run of covered frames ends (hidden if it was more than a flicker).
            // Its last frame is drawn: the face is found again a frame after it comes out.
            if let since = coveredSince, frame - since >= 3 { hidden.append(since...(frame - 2)) }
            coveredSince = nil
            lastFollowed = frame; lastFollowedTime = time
        } else if covered, coveredSince == nil {
            coveredSince = frame
        }
        if let sighting {
            // A face going behind something is still found for a while, with a lower score:
            // the template is taken only from clear sightings (whole, not cut by the edge).
            bestScore = max(bestScore, sighting.score ?? 1)
            if let grey, (sighting.score ?? 1) >= 0.85 * bestScore, !sighting.box.touchesEdge(of: frameSize) {
                template = FaceMotion.Template(sighting.box, in: grey)
            }
            // The head's appearance from its best sighting, or a nearly as good one on which
            // nothing covers it (the light and the face change over a clip).
            if let grey, !sighting.box.touchesEdge(of: frameSize) {
                let score = sighting.score ?? 1
                if score > appearanceScore || (score >= 0.9 * appearanceScore && appearance?.cover(sighting.box, in: grey) == nil),
                   let seen = FaceMotion.Appearance(sighting.box, in: grey) {
                    appearance = seen; appearanceScore = max(appearanceScore, score)
                }
            }
            sightings += 1
            lastSeen = frame; lastSeenTime = time
            scores.append((frame, sighting.score ?? 1))
            recent.append((time, sighting.box))
            if let keep = recent.firstIndex(where: { $0.time >= time - 2 }), keep > 0 { recent.removeFirst(keep) }
        }
    }

    /// Ends the track: drawn as followed up to `frame`, fading out after it from `time`; a
    /// face leaving the frame is drawn whole, moving on, until it is out.
    func end(fadingFrom frame: Int, at time: Double, frameSize: (width: Double, height: Double)) {
        guard !isEnded else { return }
        isEnded = true
        finalStates = filters.map { $0.smoothed(at: lastSeen) ?? $0.newest }
        fadeFrame = frame
        fadeTime = time
        fadeStates = filters.map { $0.smoothed(at: frame) ?? $0.newest }
        if firstStates == nil { firstStates = filters.map { $0.smoothed(at: firstSeen) ?? $0.newest } }
        exit = Self.exit(from: fadeStates, frameSize: frameSize)
    }

    /// Ends the track: drawn as followed up to `frame` (at `time`), not at all after it.
    func end(cutAfter frame: Int, at time: Double) {
        guard !isEnded else { return }
        end(fadingFrom: frame, at: time, frameSize: (0, 0))
        exit = nil
        cut = true
    }

    /// Drawn to its last frame, no fade (lost behind something).
    private var cut = false
    /// Leaving the frame: seconds after `fadeTime` at which it is out, and the frame's size.
    private var exit: (after: Double, frameSize: (width: Double, height: Double))?

    /// When a face at `states`, near the frame's edge and moving out of it, is wholly out
    /// (seconds from now, at most 1.5), or nil if it is not leaving.
    private static func exit(from states: [MotionFilter.State], frameSize: (width: Double, height: Double)) -> (after: Double, frameSize: (width: Double, height: Double))? {
        guard frameSize.width > 0, frameSize.height > 0 else { return nil }
        let box = box(from: states), vx = states[0].velocity, vy = states[1].velocity
        let speed = max(box.width, 1) * 0.1
        var out: Double?
        if vx < -speed { out = min(out ?? .infinity, box.maxX / -vx) }
        if vx > speed { out = min(out ?? .infinity, (frameSize.width - box.x) / vx) }
        if vy < -speed { out = min(out ?? .infinity, box.maxY / -vy) }
        if vy > speed { out = min(out ?? .infinity, (frameSize.height - box.y) / vy) }
        guard let out, out <= 1.5 else { return nil }
        // Near the edge it is leaving by: within half its size of it.
        let margin = 0.5 * box.width
        let near = (vx < -speed && box.x < margin) || (vx > speed && box.maxX > frameSize.width - margin)
            || (vy < -speed && box.y < margin) || (vy > speed && box.maxY > frameSize.height - margin)
        return near ? (out, frameSize) : nil
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
        isEnded && time > fadeTime + (cut ? 0 : exit?.after ?? settings.fade)
    }

    var heldSteps: Int { filters.reduce(0) { $0 + $1.heldSteps } }

    func forget(before frame: Int) {
        for i in filters.indices { filters[i].forget(before: frame) }
        if let keep = scores.lastIndex(where: { $0.frame < frame }), keep > 0 { scores.removeFirst(keep) }
    }

    /// The face on `frame` (at `time`), or nil when the track is not drawn there.
    func face(at frame: Int, time: Double, settings: TrackerSettings) -> TrackedFace? {
        let fade = max(settings.fade, 1e-6)
        var opacity = 1.0
        var states: [MotionFilter.State]
        if hidden.contains(where: { $0.contains(frame) }) { return nil }
        if frame < firstSeen {
            // Before the first sighting: where it was followed back to, at full strength; before
            // that, moving on as it was there, fading in (not when it came out from behind
            // something there: not drawn over that).
            let start = firstStates ?? filters.map { $0.smoothed(at: firstSeen) ?? $0.newest }
            if let t = traced[frame] {
                states = Self.shifted(start, dx: t.box.center.x - firstBox.center.x, dy: t.box.center.y - firstBox.center.y)
            } else if tracedFromCover {
                return nil
            } else {
                let anchor = traced.min { $0.key < $1.key }?.value ?? (box: firstBox, time: firstTime)
                guard time > anchor.time - settings.fade - 1e-9 else { return nil }
                let shifted = Self.shifted(start, dx: anchor.box.center.x - firstBox.center.x, dy: anchor.box.center.y - firstBox.center.y)
                states = Self.extrapolated(shifted, by: time - anchor.time)
                opacity = (time - (anchor.time - fade)) / fade
            }
        } else if isEnded && !lastsToEnd && frame > fadeFrame {
            // After a track has ended: moving on, fading out; leaving the frame, drawn whole
            // until it is out (the frame cuts it), fading only as its last quarter goes.
            if cut { return nil }
            if let exit {
                guard time < fadeTime + exit.after + 1e-9 else { return nil }
                states = Self.extrapolated(fadeStates, by: time - fadeTime)
                let b = Self.box(from: states)
                let inside = (b.clipped(to: exit.frameSize).map { $0.width * $0.height } ?? 0) / max(b.width * b.height, 1)
                opacity = inside / 0.25
            } else {
                guard time < fadeTime + settings.fade + 1e-9 else { return nil }
                states = Self.extrapolated(fadeStates, by: time - fadeTime)
                opacity = (fadeTime + fade - time) / fade
            }
        } else if let smoothed = smoothedStates(at: frame) {
            states = smoothed
        } else {
            return nil
        }
        return face(from: states, on: frame, opacity: opacity)
    }

    /// The face on the newest frame, `frame`, as far as seen and followed so far.
    func newestFace(frame: Int) -> TrackedFace? { face(from: filters.map(\.newest), on: frame, opacity: 1) }

    /// The face on `frame` whose box and landmarks are `states`; nil where the box is unusable.
    private func face(from states: [MotionFilter.State], on frame: Int, opacity: Double) -> TrackedFace? {
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

extension FaceBox {
    /// Whether a side of the box lies on (or past) the frame's edge.
    func touchesEdge(of frame: (width: Double, height: Double)) -> Bool {
        let e = 2.0
        return x <= e || y <= e || maxX >= frame.width - e || maxY >= frame.height - e
    }

    /// The part of the box inside the frame, or nil.
    func clipped(to frame: (width: Double, height: Double)) -> FaceBox? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(frame.width, maxX), y1 = min(frame.height, maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return FaceBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
