import FFmpeg
import SketchEase

/// Where each tracked face's head matte is cut, frame by frame in order (the tracking stage):
/// when the face appears, when its head's look changes (`Look`: something passes in front of
/// it or behind its edge, it turns), while something covers part of it, when its box has grown
/// or shrunk by a quarter, and at least every `longest` frames; in between, the last cut is
/// carried with the box.
///
/// A cut copies the face's surroundings out of the frame at once (the frame is drawn on
/// later) and runs GrabCut lazily, once, when the first frame carrying it is drawn. GrabCut
/// on every frame cost ~44 ms per face per 1080p frame; on the bench clip a face is
/// now cut on about one frame in six. Clips carry mattes over their decoded frames, Live over
/// the camera's (any `MatteSource`).
public final class MatteCarrier: @unchecked Sendable {  // used by one stage alone, one frame after another
    private let compositor: FaceCompositor
    /// Whether a track's face is drawn (tracks without a style need no matte).
    private let draws: @Sendable (Int) -> Bool
    private var carried: [Int: Carried] = [:]

    struct Carried {
        var matte: CarriedMatte
        var box: FaceBox
        var frame: Int
        /// The head's reach as it looked when cut.
        var look: Look
        /// How far the head's reach went past the frame's edges when cut (`pastEdges`).
        var pastEdges: Double
    }
    /// A matte is cut again at the latest after this many frames, even on a face only followed.
    private let longest: Int
    /// Whether a head's look is compared only where the detector saw the face (Live, whose
    /// faces between detections are only where their motion says they are going: a box a few
    /// pixels off there changed the look as often as a real change did). False: on every frame.
    private let looksWhereDetected: Bool

    public init(compositor: FaceCompositor, longest: Int, looksWhereDetected: Bool = false, draws: @escaping @Sendable (Int) -> Bool) {
        self.compositor = compositor; self.longest = max(1, longest); self.looksWhereDetected = looksWhereDetected; self.draws = draws
    }

    /// The mattes the faces `tracked` on frame number `index` (`frame`) are drawn with, by
    /// track id; empty with the ellipse region.
    public func mattes(for tracked: [TrackedFace], index: Int, on frame: some MatteSource) -> [Int: CarriedMatte] {
        guard compositor.options.region != .ellipse else { return [:] }
        let faces = tracked.filter { draws($0.id) }
        var out: [Int: CarriedMatte] = [:]
        for face in faces {
            // Not looked at where only the detections' motion placed the face (`looksWhereDetected`).
            let look = looksWhereDetected && !face.detected ? nil : Look(face.box, on: frame)
            let past = Self.pastEdges(compositor.reach(of: face.box, landmarks: face.landmarks), width: frame.width, height: frame.height)
            if let last = carried[face.id], !Self.needsCut(face, since: last, frame: index, longest: longest, pastEdges: past),
               !(look?.differs(from: last.look) ?? false) {
                out[face.id] = last.matte
                continue
            }
            guard let matte = cut(face, among: faces, on: frame) else { carried[face.id] = nil; continue }
            carried[face.id] = Carried(matte: matte, box: face.box, frame: index, look: look ?? Look(face.box, on: frame), pastEdges: past)
            out[face.id] = matte
        }
        carried = carried.filter { entry in faces.contains { $0.id == entry.key } }
        return out
    }

    /// How far `reach` goes past the edges of a `width` × `height` frame, summed over its sides.
    static func pastEdges(_ reach: FaceBox, width: Int, height: Int) -> Double {
        max(0, -reach.x) + max(0, -reach.y) + max(0, reach.maxX - Double(width)) + max(0, reach.maxY - Double(height))
    }

    /// The style a face is given for cutting its matte (the cut does not depend on it).
    private static let anyStyle = FaceStyle(filterID: "none", settings: FilterSettings(parameters: []))

    static func needsCut(_ face: TrackedFace, since last: Carried, frame: Int, longest: Int, pastEdges: Double = 0) -> Bool {
        // A face something stands in front of is cut on every frame: what covers it moves.
        if face.cover != nil || frame - last.frame >= longest { return true }
        // A head cut where the frame's edge ran through its reach is cut again where the
        // detector sees it a quarter of its width further into view (carried, its matte goes
        // on past that edge only as its last column there); one staying at the edge is not.
        if face.detected && pastEdges < last.pastEdges - 0.25 * face.box.width { return true }
        let scale = face.box.width / last.box.width
        return scale > 1.25 || scale < 0.8
    }

    /// A coarse grey copy of a face's head reach, relative to its box (cells averaged over
    /// their area, so a box a pixel or two off moves a cell's value little): when something
    /// passes in front of the head, or behind its edge, the matte carried from an earlier frame
    /// no longer fits, and is cut again.
    struct Look {
        static let columns = 16, rows = 20, samples = 4
        /// A cell of the head differing by more than this many grey levels has changed; one
        /// changed cell is enough.
        static let level = 40
        let cells: [Int]

        init(_ box: FaceBox, on frame: some MatteSource) {
            let n = Self.samples
            let xs = (0..<(Self.columns * n)).map { i -> Int in
                let u: Double = -0.5 + 2.0 * (Double(i) + 0.5) / Double(Self.columns * n)
                return Int((box.x + box.width * u).rounded(.down))
            }
            let ys = (0..<(Self.rows * n)).map { i -> Int in
                let v: Double = -0.85 + 2.5 * (Double(i) + 0.5) / Double(Self.rows * n)
                return Int((box.y + box.height * v).rounded(.down))
            }
            let grid = frame.lumaGrid(xs: xs, ys: ys)
            var cells = [Int](repeating: 0, count: Self.columns * Self.rows)
            for (i, value) in grid.enumerated() {
                let row = i / xs.count / n, column = i % xs.count / n
                cells[row * Self.columns + column] += Int(value)
            }
            self.cells = cells.map { $0 / (n * n) }
        }

        /// Whether some cell of the head differs by more than `level` from the old look there
        /// and from each of its old neighbours: a box that lands a few pixels off the last one
        /// (a detector's boxes wander by a few pixels between frames) moves a cell's content
        /// into its neighbour, not away; something passing in front brings a value the
        /// neighbourhood did not have.
        func differs(from old: Look) -> Bool {
            Self.head.contains { i in
                let column = i % Self.columns, row = i / Self.columns
                for r in max(0, row - 1)...min(Self.rows - 1, row + 1) {
                    for c in max(0, column - 1)...min(Self.columns - 1, column + 1)
                    where abs(cells[i] - old.cells[r * Self.columns + c]) <= Self.level { return false }
                }
                return true
            }
        }

        /// The cells a head and its hair can cover (an ellipse around the box, taller than it):
        /// a change outside them is background, where the matte is empty anyway.
        static let head: [Int] = (0..<(columns * rows)).filter { i in
            let u = -0.5 + 2.0 * (Double(i % columns) + 0.5) / Double(columns)
            let v = -0.85 + 2.5 * (Double(i / columns) + 0.5) / Double(rows)
            let dx = (u - 0.5) / 0.9, dy = (v - 0.35) / 1.15
            return dx * dx + dy * dy <= 1
        }
    }

    /// The face's surroundings copied out of the frame now, cut when first drawn.
    private func cut(_ face: TrackedFace, among faces: [TrackedFace], on frame: some MatteSource) -> CarriedMatte? {
        guard let region = PixelRect(evenCornersAround: compositor.reach(of: face.box, landmarks: face.landmarks), in: (frame.width, frame.height)) else { return nil }
        let pixels = frame.rgb(x: region.x, y: region.y, width: region.width, height: region.height)
        let dx = Double(region.x), dy = Double(region.y)
        func local(_ f: TrackedFace) -> StyledFace {
            StyledFace(box: FaceBox(x: f.box.x - dx, y: f.box.y - dy, width: f.box.width, height: f.box.height),
                       style: Self.anyStyle, landmarks: f.landmarks.map { Point(x: $0.x - dx, y: $0.y - dy) })
        }
        let target = local(face)
        let others = faces.filter { $0.id != face.id }.map(local)
        let compositor = self.compositor
        let reach = FaceBox(x: Double(region.x), y: Double(region.y), width: Double(region.width), height: Double(region.height))
        return CarriedMatte(reaching: reach, for: face.box) { [region] in
            let image = try VipsImage.fromPixels(pixels, width: region.width, height: region.height, bands: 3)
            guard var cut = try compositor.cutMatte(for: target, others: others, in: image) else {
                // The reach missed the copy: nothing of the face to draw through.
                return CarriedMatte.Cut(matte: try VipsImage.solid(width: 1, height: 1, pixel: [0]), x: region.x, y: region.y, box: face.box)
            }
            cut.x += region.x; cut.y += region.y
            cut.box = face.box
            return cut
        }
    }
}
