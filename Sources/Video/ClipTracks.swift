import SketchEase

/// Every frame's tracked faces in a whole clip: what `sketchease detect` lists for a clip,
/// what a plan's boxes are matched against, and what an edited clip is drawn from.
public struct ClipTracks: Sendable {
    public var frames: [TrackedFrame]
    public var width: Int
    public var height: Int
    public var frameRate: Double

    public init(frames: [TrackedFrame], width: Int, height: Int, frameRate: Double) {
        self.frames = frames; self.width = width; self.height = height; self.frameRate = frameRate
    }

    /// Every track id, in order.
    public var ids: [Int] { Array(Set(frames.flatMap { $0.faces.map(\.id) })).sorted() }

    /// The frame shown at `time` seconds (the last one starting at or before it).
    public func frame(at time: Double) -> Int {
        guard let after = frames.firstIndex(where: { $0.time > time + 1e-9 }) else { return max(0, frames.count - 1) }
        return max(0, after - 1)
    }

    /// Why `time` names no frame of the clip (it is at or past the clip's end), in a person's
    /// words; nil for a time within the clip. A time past the end was once put on the last frame
    /// without a word.
    public func pastTheEnd(_ time: Double) -> String? {
        guard let last = frames.last else { return nil }
        let end = last.time + 1 / max(frameRate, 1)
        guard time >= end - 1e-9 else { return nil }
        // "9", "0.95": seconds as a person writes them.
        func seconds(_ t: Double) -> String {
            var text = Rounding.text(t, places: 2)
            while text.contains("."), text.hasSuffix("0") || text.hasSuffix(".") { text.removeLast() }
            return text
        }
        return "@\(seconds(time)) is past the end of the clip: it is \(Rounding.text(end, places: 1)) s long "
            + "(its last frame shows from @\(seconds(last.time)))"
    }

    /// Why frame `n` is not in the clip, or nil when it is.
    public func pastTheEnd(frame n: Int) -> String? {
        n < frames.count ? nil : "frame \(n) is past the end of the clip: it has \(frames.count) frames (0 to \(frames.count - 1))"
    }

    /// The track whose box on `frame` overlaps `box` most, if any does by at least 0.3
    /// (intersection over union). Provisional ids (below 1: boxes being followed) do not count.
    public func track(on frame: Int, overlapping box: FaceBox) -> Int? {
        guard frames.indices.contains(frame) else { return nil }
        let best = frames[frame].faces.filter { $0.id > 0 }.max { $0.box.iou(box) < $1.box.iou(box) }
        guard let best, best.box.iou(box) >= 0.3 else { return nil }
        return best.id
    }

    /// A track's faces, frame by frame.
    public func faces(of id: Int) -> [(frame: Int, face: TrackedFace)] {
        frames.compactMap { f in f.faces.first { $0.id == id }.map { (f.index, $0) } }
    }

    /// The frame that shows a track best: fully drawn, confidently detected, large.
    public func bestFrame(of id: Int) -> (frame: Int, face: TrackedFace)? {
        faces(of: id).filter { $0.face.opacity >= 1 }.max {
            $0.face.score * $0.face.box.area.squareRoot() < $1.face.score * $1.face.box.area.squareRoot()
        } ?? faces(of: id).first
    }

    /// One more id than any track's.
    public var nextID: Int { (ids.max() ?? 0) + 1 }

    /// The tracks with the sizes their faces are drawn for (`DrawingSizes`, frame after frame
    /// from the first), so that a single frame drawn on its own (the clip player's) gets the
    /// size the export draws it at, where rounding its box alone could give the next step.
    public func holdingDrawingSizes() -> ClipTracks {
        var out = self, sizes = DrawingSizes()
        out.frames = frames.map { sizes.steady($0) }
        return out
    }

    /// Adds a followed box as track `id`, fading in and out over `fadeFrames` at its ends.
    public mutating func add(id: Int, boxes: [Int: FaceBox], fadeFrames: Int) {
        guard let first = boxes.keys.min(), let last = boxes.keys.max() else { return }
        let fade = Double(max(fadeFrames, 1))
        for (n, box) in boxes where frames.indices.contains(n) {
            let opacity = min(1, Double(n - first + 1) / fade, Double(last - n + 1) / fade)
            frames[n].faces.append(TrackedFace(id: id, box: box, score: 0, opacity: opacity))
        }
    }
}
