import FFmpeg
import SketchEase

/// How a face moves between frames, measured on small grey copies (`GreyPlane`): block
/// matching of the middle half of its box, which holds the eyes, nose and mouth and little of
/// the background.
public enum FaceMotion {
    /// How far (frame pixels) the middle half of `box` moved from `before` to `after`, searching
    /// around `predicted` (frame pixels); nil when there is too little texture to tell, or the
    /// best match is poor.
    public static func measure(_ box: FaceBox, from before: GreyPlane, to after: GreyPlane,
                               predicted: (Double, Double), radius least: Int = 6) -> (dx: Double, dy: Double)? {
        let k = before.scale
        let expected = (predicted.0 * k).magnitude + (predicted.1 * k).magnitude
        let radius = min(widest, max(least, Int(expected.rounded(.up)) + 3))
        if let moved = measure(box, from: before, to: after, radius: radius) { return moved }
        // A face that sets off fast (someone walking out of the picture: a quarter of the face's
        // width a frame) is past the search around where it was expected: look once more, as
        // far as the search goes. (Not found there, its box lagged behind it, and its style
        // stayed on the wall where it had been.)
        return radius < widest ? measure(box, from: before, to: after, radius: widest) : nil
    }

    /// The farthest a face's middle is looked for from where it was expected (grey pixels).
    static let widest = 16

    private static func measure(_ box: FaceBox, from before: GreyPlane, to after: GreyPlane, radius: Int) -> (dx: Double, dy: Double)? {
        let k = before.scale
        // A face cut by the frame's edge is followed by what is left of its middle (with room
        // to search around it), as long as that is a good part of it.
        guard let (x, y, w, h) = visibleMiddle(of: box, in: before, margin: radius) else { return nil }
        let texture = before.texture(x: x, y: y, width: w, height: h)
        guard texture >= 2, let m = before.motion(to: after, x: x, y: y, width: w, height: h, radius: radius),
              m.cost <= max(3, 0.5 * texture),
              abs(m.dx) < Double(radius), abs(m.dy) < Double(radius) else { return nil }
        return (m.dx / k, m.dy / k)
    }

    /// The middle half of `box` in `plane`'s pixels, cut to the plane less `margin` on each
    /// side; nil when less than `least` of it (or under 6 × 6 pixels) is left.
    static func visibleMiddle(of box: FaceBox, in plane: GreyPlane, margin: Int = 0,
                              least: Double = 0.4) -> (x: Int, y: Int, width: Int, height: Int)? {
        let (x, y, w, h) = middle(of: box, scale: plane.scale)
        let x0 = max(x, margin), y0 = max(y, margin)
        let x1 = min(x + w, plane.width - margin), y1 = min(y + h, plane.height - margin)
        guard x1 - x0 >= 6, y1 - y0 >= 6, Double((x1 - x0) * (y1 - y0)) >= least * Double(w * h) else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The middle half of a box, in a plane's pixels.
    static func middle(of box: FaceBox, scale k: Double) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = max(6, Int((box.width * 0.5 * k).rounded())), h = max(6, Int((box.height * 0.5 * k).rounded()))
        return (Int((box.center.x * k).rounded()) - w / 2, Int((box.center.y * k).rounded()) - h / 2, w, h)
    }

    /// What the middle of a face looked like, to tell it from what may move in front of it.
    struct Template {
        let pixels: [UInt8]
        let width: Int, height: Int
        let texture: Double

        /// The middle half of `box` in `plane`; nil when it is not inside the plane.
        init?(_ box: FaceBox, in plane: GreyPlane) {
            let (x, y, w, h) = middle(of: box, scale: plane.scale)
            guard let block = plane.block(x: x, y: y, width: w, height: h) else { return nil }
            pixels = block; width = w; height = h
            texture = plane.texture(x: x, y: y, width: w, height: h)
        }

        /// Whether the middle of `box` in `plane` still looks like this (the face, not something
        /// in front of it).
        func resembles(_ box: FaceBox, in plane: GreyPlane) -> Bool {
            guard let difference = difference(box, in: plane) else { return false }
            return difference <= max(8, 0.8 * texture)
        }

        /// Whether something else is where the middle of `box` should be in `plane`, near
        /// enough (`search` plane pixels around it) that the face cannot have moved away: far
        /// from what the face looked like anywhere there, well beyond how a face changes
        /// between sightings (turning, talking, light). False when too little of it is in the
        /// plane to tell.
        func isCovered(_ box: FaceBox, in plane: GreyPlane, search: Int = 2) -> Bool {
            guard let difference = difference(box, in: plane, search: search) else { return false }
            return difference > max(Self.coveredLevel, 2 * texture)
        }

        /// Mean grey difference at least this large says "not the face" whatever its texture.
        static let coveredLevel = 24.0

        /// The mean absolute difference between this and the middle of `box` in `plane` (the
        /// smallest over shifts of up to `search` plane pixels), over the part in the plane;
        /// nil when under `least` of it is.
        func difference(_ box: FaceBox, in plane: GreyPlane, search: Int = 0, least: Double = 0.4) -> Double? {
            let k = plane.scale
            let x = Int((box.center.x * k).rounded()) - width / 2, y = Int((box.center.y * k).rounded()) - height / 2
            var best: Double?
            for oy in -search...search {
                for ox in -search...search {
                    let px = x + ox, py = y + oy
                    let c0 = max(0, -px), r0 = max(0, -py)
                    let c1 = min(width, plane.width - px), r1 = min(height, plane.height - py)
                    guard c1 - c0 >= 4, r1 - r0 >= 4, Double((c1 - c0) * (r1 - r0)) >= least * Double(width * height) else { continue }
                    var sum = 0
                    plane.pixels.withUnsafeBufferPointer { p in
                        for row in r0..<r1 {
                            let t = row * width, q = (py + row) * plane.width + px
                            for col in c0..<c1 { sum += abs(Int(pixels[t + col]) - Int(p[q + col])) }
                        }
                    }
                    let d = Double(sum) / Double((c1 - c0) * (r1 - r0))
                    if d < best ?? .infinity { best = d }
                }
            }
            return best
        }
    }
}

/// Follows a box given on one frame (a face the detector does not find, added by hand) through
/// the frames around it by its motion, for as long as it still looks as it did there.
struct BoxFollower {
    let id: Int
    let startFrame: Int
    private(set) var boxes: [Int: FaceBox] = [:]
    private var box: FaceBox
    private var velocity = (0.0, 0.0)
    private let template: FaceMotion.Template?
    private(set) var lost = false

    /// Starts at `box` on `frame`, whose grey copy is `plane`, and follows it back through
    /// `earlier` (the frames just before, newest first) as far as it goes.
    init(id: Int, box: FaceBox, frame: Int, plane: GreyPlane, earlier: [(frame: Int, plane: GreyPlane)]) {
        self.id = id; self.box = box; startFrame = frame
        template = FaceMotion.Template(box, in: plane)
        boxes[frame] = box
        var current = box, here = plane
        for (n, before) in earlier {
            guard let m = FaceMotion.measure(current, from: here, to: before, predicted: (0, 0), radius: 8) else { break }
            current.x += m.dx; current.y += m.dy
            if let template, !template.resembles(current, in: before) { break }
            boxes[n] = current
            here = before
        }
    }

    /// Follows it onto the next frame.
    mutating func step(frame: Int, from before: GreyPlane, to after: GreyPlane) {
        guard !lost else { return }
        guard let m = FaceMotion.measure(box, from: before, to: after, predicted: velocity) else { lost = true; return }
        var moved = box
        moved.x += m.dx; moved.y += m.dy
        if let template, !template.resembles(moved, in: after) { lost = true; return }
        velocity = (m.dx, m.dy)
        box = moved
        boxes[frame] = moved
    }
}
