import FFmpeg
import Foundation
import SketchEase

/// Where each tracked face's drawing is made and where an earlier frame's drawing is carried
/// instead (the tracking stage, frame by frame in order): faces whose looks have not changed
/// since their drawing was made, but for where they are, get that drawing moved with them,
/// whole pixels at a time (`CarriedDrawing`). Faces whose regions meet are drawn as one group
/// on one crop, and carried as one: all of them, by the same offset, or none.
///
/// A face's look is a grey grid over its box (`Look`), compared with the grid of the frame
/// its drawing was made on at the offsets of up to `Look.search` pixels around where its box
/// moved: the best offset places the drawing, and a drawing is carried only where, there,
/// no cell differs by more than `Look.cellLevel` and the cells by no more than
/// `Look.meanLevel` on average. A face that blinks, speaks, turns, comes into the light or is
/// resized is drawn again, with the others of its group; so is a group whose faces moved apart
/// or changed, one whose style, held drawing size or head matte changed, one whose exposure
/// moved on by more than `Look.exposureChange` (the clip's light changing), one something covers,
/// one whose region meets the frame's edge or one in a style that draws outside the faces'
/// regions, and every group at least every `longest` frames.
public final class DrawingCarrier: @unchecked Sendable {  // used by one stage alone, one frame after another
    /// Draws as the frames are drawn, and groups their faces as they are grouped there.
    private let styler: FrameStyler
    private var compositor: FaceCompositor { styler.compositor }
    private let longest: Int
    /// The style a track is drawn in (nil: not drawn).
    private let style: @Sendable (Int) -> FaceStyle?
    /// The drawings made, by their faces' track ids.
    private var made: [[Int]: Made] = [:]

    struct Made {
        let drawing: CarriedDrawing
        let frame: Int
        /// The exposure it was drawn at.
        let exposure: Double
        /// Its faces as they were when it was made.
        let members: [FrameStyler.Face]
        let looks: [Look]
    }

    public init(compositor: FaceCompositor, longest: Int, style: @escaping @Sendable (Int) -> FaceStyle?) {
        styler = FrameStyler(compositor: compositor); self.longest = max(1, longest); self.style = style
    }

    /// The drawings of the faces `tracked` on frame number `index` (`frame`), drawn with the
    /// head mattes `mattes` at `exposure` (`FaceCompositor.exposure`), by track id: carried
    /// where their group has only moved since, otherwise made on this frame.
    public func drawings(for tracked: [TrackedFace], mattes: [Int: CarriedMatte], index: Int,
                         on frame: some MatteSource, exposure: Double = 1) -> [Int: CarriedDrawing.Placement] {
        guard compositor.options.background == nil else { made = [:]; return [:] }
        let bounds = (width: frame.width, height: frame.height)
        let faces = tracked.compactMap { face in style(face.id).map { FrameStyler.Face(face, style: $0, matte: mattes[face.id]) } }
        var out: [Int: CarriedDrawing.Placement] = [:]
        var kept: [[Int]: Made] = [:]
        // The groups the frame is drawn in.
        for (region, group) in styler.groups(faces, in: bounds, scale: 1) {
            let members = group.sorted { $0.face.id < $1.face.id }
            let ids = members.map(\.face.id)
            // A face partly outside the frame is drawn afresh as more of it comes into view.
            guard members.allSatisfy({ member in
                let reach = compositor.reach(of: member.face.box, landmarks: member.face.landmarks, carrying: member.matte)
                return member.face.cover == nil && Self.drawsWithinItsRegion(member.style, compositor)
                    && reach.x >= 0 && reach.y >= 0 && reach.maxX <= Double(bounds.width) && reach.maxY <= Double(bounds.height)
            }) else { continue }
            if let last = made[ids], carries(last, to: members, index: index), abs(log(exposure / last.exposure)) <= Look.exposureChange,
               let offset = Self.offset(of: last, to: members, on: frame) {
                for id in ids { out[id] = CarriedDrawing.Placement(last.drawing, offset: offset) }
                kept[ids] = last
                continue
            }
            let drawing = self.drawing(of: members, region: region, index: index, on: frame, exposure: exposure)
            kept[ids] = Made(drawing: drawing, frame: index, exposure: exposure, members: members,
                             looks: members.map { Look($0.face.box, on: frame) })
            for id in ids { out[id] = CarriedDrawing.Placement(drawing, offset: .zero) }
        }
        made = kept
        return out
    }

    /// Whether a style draws only within its faces' regions (what a carried drawing holds).
    private static func drawsWithinItsRegion(_ style: FaceStyle, _ compositor: FaceCompositor) -> Bool {
        (try? compositor.registry.filter(style.filterID))?.blendsThroughFaceMask ?? false
    }

    /// Whether `last` may be carried to `members` on frame `index`, as far as anything but the
    /// faces' looks goes.
    private func carries(_ last: Made, to members: [FrameStyler.Face], index: Int) -> Bool {
        guard index - last.frame < longest, members.count == last.members.count else { return false }
        return zip(last.members, members).allSatisfy { was, now in
            now.style == was.style && now.matte === was.matte && now.face.drawingSize == was.face.drawingSize
                && abs(now.face.box.width / was.face.box.width - 1) <= Look.sizeChange
                && abs(now.face.box.height / was.face.box.height - 1) <= Look.sizeChange
        }
    }

    /// Where every face of the group is its look moved by one offset, if each has only moved
    /// and all by as much.
    private static func offset(of last: Made, to members: [FrameStyler.Face], on frame: some MatteSource) -> SIMD2<Int>? {
        var offset: SIMD2<Int>?
        for (look, member) in zip(last.looks, members) {
            guard let moved = look.offset(to: member.face.box, on: frame), offset == nil || moved == offset else { return nil }
            offset = moved
        }
        return offset
    }

    /// The group's drawing over `region` of this frame at `exposure`, made from a copy of its
    /// pixels when first laid.
    private func drawing(of members: [FrameStyler.Face], region: PixelRect, index: Int, on frame: some MatteSource,
                         exposure: Double) -> CarriedDrawing {
        let pixels = frame.rgb(x: region.x, y: region.y, width: region.width, height: region.height)
        let local = members.map { FrameStyler.styled($0, in: region, scale: 1) }
        var compositor = self.compositor
        compositor.exposure = exposure
        return CarriedDrawing(frame: index) { try compositor.carriedLayer(of: local, on: pixels, region: region) }
    }

    /// A grey grid over a face's box (its cells each the mean of a few samples), sampled at
    /// whole pixels from the box's rounded corner.
    struct Look {
        static let cells = 12, samples = 3
        /// How far (pixels, each way) the face is looked for around where its box moved.
        static let search = 4
        /// The most any cell, and the cells on average, may differ (grey levels) for the face
        /// to have only moved.
        static let cellLevel = 10, meanLevel = 2.5
        /// Cells within this many grey levels (and a quarter of a level on average): the same
        /// picture, but for the encoder's noise.
        static let sameLevel = 2
        /// How much a box may have grown or shrunk for its drawing to be carried.
        static let sizeChange = 0.08
        /// How far (natural log of the gain: 3 % of the light, about one CIELAB L) the clip's
        /// exposure may have moved on for a drawing to be carried.
        static let exposureChange = 0.03

        let corner: SIMD2<Int>
        /// Sample positions from the corner.
        let xs: [Int], ys: [Int]
        let values: [Int]

        init(_ box: FaceBox, on frame: some MatteSource) {
            let corner = Self.corner(of: box)
            let n = Self.cells * Self.samples
            // Over the box grown by a tenth each way.
            let xs = (0..<n).map { Int((box.width * (-0.1 + 1.2 * (Double($0) + 0.5) / Double(n))).rounded(.down)) }
            let ys = (0..<n).map { Int((box.height * (-0.1 + 1.2 * (Double($0) + 0.5) / Double(n))).rounded(.down)) }
            self.corner = corner; self.xs = xs; self.ys = ys
            values = Self.cells(of: frame, xs: xs.map { $0 + corner.x }, ys: ys.map { $0 + corner.y })
        }

        /// The offsets searched, nearest first.
        static let steps: [SIMD2<Int>] = {
            var steps: [SIMD2<Int>] = []
            for y in -search...search { for x in -search...search { steps.append(SIMD2(x, y)) } }
            func order(_ s: SIMD2<Int>) -> (Int, Int, Int) { (s.x * s.x + s.y * s.y, s.y, s.x) }
            return steps.sorted { order($0) < order($1) }
        }()

        static func corner(of box: FaceBox) -> SIMD2<Int> { SIMD2(Int(box.x.rounded()), Int(box.y.rounded())) }

        /// The cells' means (times `samples`², kept whole).
        static func cells(of frame: some MatteSource, xs: [Int], ys: [Int]) -> [Int] {
            cells(of: frame.lumaGrid(xs: xs, ys: ys), width: xs.count, spread: 1, at: 0, 0)
        }

        /// The cells' sums from `grid`, `width` samples a row, where each sample position is
        /// `spread` neighbouring columns (and rows) and the one taken is `dx`, `dy` into them.
        static func cells(of grid: [UInt8], width: Int, spread: Int, at dx: Int, _ dy: Int) -> [Int] {
            var cells = [Int](repeating: 0, count: Self.cells * Self.cells)
            grid.withUnsafeBufferPointer { g in
                for row in 0..<(Self.cells * samples) {
                    let line = (row * spread + dy) * width + dx, cellRow = row / samples * Self.cells
                    for column in 0..<(Self.cells * samples) {
                        cells[cellRow + column / samples] += Int(g[line + column * spread])
                    }
                }
            }
            return cells
        }

        /// Where the face, at `box` on `frame`, is this look moved by whole pixels, if it has
        /// only moved: the offset from this look's corner, or nil where it changed.
        func offset(to box: FaceBox, on frame: some MatteSource) -> SIMD2<Int>? {
            let moved = Self.corner(of: box)
            let scale = Self.samples * Self.samples
            // Every sample at every offset, read at once: each sample position with the
            // `spread` columns and rows around it.
            let spread = 2 * Self.search + 1
            let wideXs = xs.flatMap { x in (-Self.search...Self.search).map { x + moved.x + $0 } }
            let wideYs = ys.flatMap { y in (-Self.search...Self.search).map { y + moved.y + $0 } }
            let grid = frame.lumaGrid(xs: wideXs, ys: wideYs)
            var best: (offset: SIMD2<Int>, total: Int, most: Int)?
            // Nearest first: of offsets that fit equally well, the one closest to the box's move.
            for step in Self.steps {
                let now = Self.cells(of: grid, width: wideXs.count, spread: spread, at: step.x + Self.search, step.y + Self.search)
                var total = 0, most = 0
                for (a, b) in zip(values, now) {
                    let d = abs(a - b)
                    total += d; most = max(most, d)
                }
                if best == nil || total < best!.total { best = (moved &+ step &- corner, total, most) }
                // The same picture but for the encoder's noise: no nearer place is needed.
                if most <= Self.sameLevel * scale && total <= values.count * scale / 4 { break }
            }
            guard let best else { return nil }
            let mean = Double(best.total) / Double(scale * values.count)
            return best.most <= Self.cellLevel * scale && mean <= Self.meanLevel ? best.offset : nil
        }
    }
}
