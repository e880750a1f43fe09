import FFmpeg
import SketchEase

/// Where something covers part of a tracked face on one frame: a coarse mask over the face's
/// head reach (cells of a grey copy, 255 = covered), in frame pixels. The face's style is not
/// drawn there (`FrameStyler`). Only made for a face part of whose box is clearly covered.
public struct FaceCover: Sendable, Equatable {
    /// The mask's top-left corner and the size of one cell, in frame pixels.
    public var x: Double, y: Double, cellWidth: Double, cellHeight: Double
    public var columns: Int, rows: Int
    /// Row-major, 0 (the face, drawn) ... 255 (covered, not drawn).
    public var cells: [UInt8]

    public init(x: Double, y: Double, cellWidth: Double, cellHeight: Double, columns: Int, rows: Int, cells: [UInt8]) {
        self.x = x; self.y = y; self.cellWidth = cellWidth; self.cellHeight = cellHeight
        self.columns = columns; self.rows = rows; self.cells = cells
    }

    /// How much of the style is kept at frame pixel (px, py), 0...1: bilinear between cell
    /// centres, 1 outside the mask.
    public func keep(atX px: Double, y py: Double) -> Double {
        let u = (px - x) / cellWidth - 0.5, v = (py - y) / cellHeight - 0.5
        guard u > -1, v > -1, u < Double(columns), v < Double(rows) else { return 1 }
        let c0 = Int(u.rounded(.down)), r0 = Int(v.rounded(.down))
        let fu = u - Double(c0), fv = v - Double(r0)
        func at(_ c: Int, _ r: Int) -> Double {
            guard c >= 0, r >= 0, c < columns, r < rows else { return 0 }
            return Double(cells[r * columns + c]) / 255
        }
        let top = at(c0, r0) * (1 - fu) + at(c0 + 1, r0) * fu
        let bottom = at(c0, r0 + 1) * (1 - fu) + at(c0 + 1, r0 + 1) * fu
        return 1 - (top * (1 - fv) + bottom * fv)
    }
}

extension FaceMotion {
    /// What a face's head looked like when it was clearly seen (grey, sampled relative to its
    /// box over the head's reach), to tell on a later frame which of its pixels are still the
    /// face and where something else now stands in front of it.
    struct Appearance {
        /// The reach, relative to the box: x from `left` to `left + across` box widths, y from
        /// `top` to `top + down` box heights (the compositor's head reach).
        static let left = -0.5, across = 2.0, top = -0.85, down = 2.5
        let pixels: [UInt8]
        let columns: Int, rows: Int

        /// Sampled from `plane` around `box`; nil when the reach is not wholly inside it.
        init?(_ box: FaceBox, in plane: GreyPlane) {
            let k = plane.scale
            let columns = max(8, Int((Self.across * box.width * k).rounded())), rows = max(8, Int((Self.down * box.height * k).rounded()))
            let grid = Grid(box, columns, rows, plane)
            guard !grid.xs.contains(-1), !grid.ys.contains(-1) else { return nil }
            pixels = grid.values(plane).map { UInt8($0) }
            self.columns = columns; self.rows = rows
        }

        /// Where the cells of `box`'s reach sample the plane: each cell column's pixel column
        /// and each cell row's pixel row, -1 outside the plane. (A cell's column depends only on
        /// its column and its row only on its row: each is computed once, not once a cell.)
        struct Grid {
            let xs: [Int], ys: [Int]

            init(_ box: FaceBox, _ columns: Int, _ rows: Int, _ plane: GreyPlane) {
                xs = (0..<columns).map { c in
                    let u = left + across * (Double(c) + 0.5) / Double(columns)
                    let px = Int(((box.x + u * box.width) * plane.scale).rounded(.down))
                    return px >= 0 && px < plane.width ? px : -1
                }
                ys = (0..<rows).map { r in
                    let v = top + down * (Double(r) + 0.5) / Double(rows)
                    let py = Int(((box.y + v * box.height) * plane.scale).rounded(.down))
                    return py >= 0 && py < plane.height ? py : -1
                }
            }

            /// The plane's pixel under each cell, row by row; -1 where a cell falls outside it.
            func values(_ plane: GreyPlane) -> [Int] {
                var out = [Int](repeating: -1, count: xs.count * ys.count)
                plane.pixels.withUnsafeBufferPointer { p in
                    out.withUnsafeMutableBufferPointer { o in
                        for (r, py) in ys.enumerated() where py >= 0 {
                            let row = py * plane.width, at = r * xs.count
                            for (c, px) in xs.enumerated() where px >= 0 { o[at + c] = Int(p[row + px]) }
                        }
                    }
                }
                return out
            }
        }

        /// Grey difference (after allowing a cell of misalignment and averaging over 3 × 3
        /// cells) beyond which a cell is "something else", well past what expression, turning
        /// or light change on a face between sightings.
        static let coverLevel = 40.0
        /// The part of the face's box that must be something else before any cell is cut.
        static let least = 0.06

        /// Where something else stands over the face at `box` in `plane`: the cells far from
        /// this appearance that connect to a covered part of the face's box (at least `least`
        /// of it), grown by a cell; nil when the face is not covered that much.
        func cover(_ box: FaceBox, in plane: GreyPlane) -> FaceCover? {
            let n = columns * rows
            let current = Grid(box, columns, rows, plane).values(plane)
            // Per cell: the smallest difference over a cell of shift (misalignment, not change).
            var raw = [Int](repeating: 0, count: n)
            pixels.withUnsafeBufferPointer { seen in
                current.withUnsafeBufferPointer { now in
                    raw.withUnsafeMutableBufferPointer { raw in
                        for r in 0..<rows {
                            let r0 = max(0, r - 1), r1 = min(rows - 1, r + 1)
                            for c in 0..<columns {
                                let here = now[r * columns + c]
                                guard here >= 0 else { continue }
                                let c0 = max(0, c - 1), c1 = min(columns - 1, c + 1)
                                var best = Int.max
                                for rr in r0...r1 {
                                    for cc in c0...c1 { best = min(best, abs(Int(seen[rr * columns + cc]) - here)) }
                                }
                                raw[r * columns + c] = best
                            }
                        }
                    }
                }
            }
            // Far: the mean of those over 3 × 3 cells above `coverLevel`.
            var far = [Bool](repeating: false, count: n)
            raw.withUnsafeBufferPointer { raw in
                for r in 0..<rows {
                    let r0 = max(0, r - 1), r1 = min(rows - 1, r + 1)
                    for c in 0..<columns {
                        let c0 = max(0, c - 1), c1 = min(columns - 1, c + 1)
                        var sum = 0
                        for rr in r0...r1 { for cc in c0...c1 { sum += raw[rr * columns + cc] } }
                        far[r * columns + c] = Double(sum) / Double((r1 - r0 + 1) * (c1 - c0 + 1)) > Self.coverLevel
                    }
                }
            }
            // The face's box in cells.
            let c0 = Int((-Self.left / Self.across * Double(columns)).rounded()), c1 = Int(((1 - Self.left) / Self.across * Double(columns)).rounded())
            let r0 = Int((-Self.top / Self.down * Double(rows)).rounded()), r1 = Int(((1 - Self.top) / Self.down * Double(rows)).rounded())
            var seeds: [Int] = []
            for r in r0..<min(r1, rows) { for c in c0..<min(c1, columns) where far[r * columns + c] { seeds.append(r * columns + c) } }
            guard Double(seeds.count) >= Self.least * Double((c1 - c0) * (r1 - r0)) else { return nil }
            // What covers it: the far cells joined to those in its box.
            var covered = [Bool](repeating: false, count: n)
            var stack = seeds
            for s in seeds { covered[s] = true }
            while let i = stack.popLast() {
                let r = i / columns, c = i % columns
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let rr = r + dr, cc = c + dc
                    guard rr >= 0, cc >= 0, rr < rows, cc < columns else { continue }
                    let j = rr * columns + cc
                    if far[j], !covered[j] { covered[j] = true; stack.append(j) }
                }
            }
            // Grown by a cell: the cut is made on the face's side of the cover's edge.
            var cells = [UInt8](repeating: 0, count: n)
            for r in 0..<rows {
                for c in 0..<columns {
                    var any = false
                    for rr in max(0, r - 1)...min(rows - 1, r + 1) where !any {
                        for cc in max(0, c - 1)...min(columns - 1, c + 1) where covered[rr * columns + cc] { any = true; break }
                    }
                    if any { cells[r * columns + c] = 255 }
                }
            }
            return FaceCover(x: box.x + Self.left * box.width, y: box.y + Self.top * box.height,
                             cellWidth: Self.across * box.width / Double(columns), cellHeight: Self.down * box.height / Double(rows),
                             columns: columns, rows: rows, cells: cells)
        }
    }
}
