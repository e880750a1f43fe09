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
            var pixels = [UInt8](repeating: 0, count: columns * rows)
            for r in 0..<rows {
                for c in 0..<columns {
                    guard let p = Self.sample(box, c, r, columns, rows, plane) else { return nil }
                    pixels[r * columns + c] = p
                }
            }
            self.pixels = pixels; self.columns = columns; self.rows = rows
        }

        /// The plane's pixel under cell (c, r) of `box`'s reach, or nil outside the plane.
        static func sample(_ box: FaceBox, _ c: Int, _ r: Int, _ columns: Int, _ rows: Int, _ plane: GreyPlane) -> UInt8? {
            let u = left + across * (Double(c) + 0.5) / Double(columns), v = top + down * (Double(r) + 0.5) / Double(rows)
            let px = Int(((box.x + u * box.width) * plane.scale).rounded(.down))
            let py = Int(((box.y + v * box.height) * plane.scale).rounded(.down))
            guard px >= 0, py >= 0, px < plane.width, py < plane.height else { return nil }
            return plane.pixels[py * plane.width + px]
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
            // Per cell: the smallest difference over a cell of shift (misalignment, not change).
            var raw = [Double](repeating: 0, count: n)
            var current = [Int](repeating: -1, count: n)
            for r in 0..<rows {
                for c in 0..<columns {
                    if let p = Self.sample(box, c, r, columns, rows, plane) { current[r * columns + c] = Int(p) }
                }
            }
            for r in 0..<rows {
                for c in 0..<columns {
                    let here = current[r * columns + c]
                    guard here >= 0 else { continue }
                    var best = Int.max
                    for dr in -1...1 {
                        for dc in -1...1 {
                            let rr = r + dr, cc = c + dc
                            guard rr >= 0, cc >= 0, rr < rows, cc < columns else { continue }
                            best = min(best, abs(Int(pixels[rr * columns + cc]) - here))
                        }
                    }
                    raw[r * columns + c] = Double(best)
                }
            }
            var far = [Bool](repeating: false, count: n)
            for r in 0..<rows {
                for c in 0..<columns {
                    var sum = 0.0, count = 0.0
                    for rr in max(0, r - 1)...min(rows - 1, r + 1) {
                        for cc in max(0, c - 1)...min(columns - 1, c + 1) { sum += raw[rr * columns + cc]; count += 1 }
                    }
                    far[r * columns + c] = sum / count > Self.coverLevel
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
