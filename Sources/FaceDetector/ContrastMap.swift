/// How much detail each small square of an image holds: the standard deviation of its luma
/// over its mean (plus 16, so that near-black noise does not count for much).
///
/// A face, however small or dark, has eyes, brows and a mouth darker than its skin; sky, a
/// studio backdrop or a blank wall has next to no variation. Tiles are only searched where
/// some cell holds detail (see `TileLayout`). Measured with 16 px cells on group photos made
/// from the examples, faces 12–16 px across: the most detailed cell of every face scored at
/// least 0.23 (0.29 in a copy darkened to a third), smooth backdrops at most 0.015.
struct ContrastMap {
    /// Side of a cell in pixels.
    let cell: Int
    let columns: Int
    let rows: Int
    /// Per cell, row after row: luma deviation / (mean + 16), luma on a 0...255 scale.
    let contrast: [Float]

    init(_ pixels: RGBPixels, cell: Int) {
        self.cell = cell
        let columns = (pixels.width + cell - 1) / cell, rows = (pixels.height + cell - 1) / cell
        self.columns = columns
        self.rows = rows
        var sum = [Float](repeating: 0, count: columns * rows)
        var squares = [Float](repeating: 0, count: columns * rows)
        var counts = [Float](repeating: 0, count: columns * rows)
        pixels.bytes.withUnsafeBufferPointer { p in
            for y in 0..<pixels.height {
                let rowStart = y * pixels.rowBytes
                let cellRow = (y / cell) * columns
                var x = 0
                while x < pixels.width {
                    let end = min(pixels.width, x + cell)
                    var s: Float = 0, q: Float = 0
                    for i in x..<end {
                        let o = rowStart + i * 3
                        // Rec. 601 luma, integer weights (sum 256).
                        let luma = Float((77 * Int(p[o]) + 150 * Int(p[o + 1]) + 29 * Int(p[o + 2])) >> 8)
                        s += luma; q += luma * luma
                    }
                    let c = cellRow + x / cell
                    sum[c] += s; squares[c] += q; counts[c] += Float(end - x)
                    x = end
                }
            }
        }
        contrast = (0..<(columns * rows)).map { i in
            let n = max(counts[i], 1), mean = sum[i] / n
            return max(0, squares[i] / n - mean * mean).squareRoot() / (mean + 16)
        }
    }

    /// The regions that may hold a face: each group of touching cells with a contrast above
    /// `minimumContrast` (and the cells next to them), as its bounding rectangle in pixels,
    /// grown by `margin` and clipped to `width` × `height`. Overlapping regions are joined.
    /// Cells lying wholly inside one of `faces` count as flat: no other face is inside a face.
    func detailedRegions(minimumContrast: Float, margin: Int, width: Int, height: Int,
                         ignoring faces: [FaceBox] = []) -> [PixelRect] {
        var detailed = contrast.map { $0 > minimumContrast }
        for face in faces {
            let c0 = Int((face.x / Double(cell)).rounded(.up)), r0 = Int((face.y / Double(cell)).rounded(.up))
            let c1 = Int((face.maxX / Double(cell)).rounded(.down)), r1 = Int((face.maxY / Double(cell)).rounded(.down))
            for r in max(0, r0)..<max(0, r0, min(rows, r1)) {
                for c in max(0, c0)..<max(0, c0, min(columns, c1)) { detailed[r * columns + c] = false }
            }
        }
        var active = detailed
        // One cell more all round: a face's edge may sit in a quiet cell.
        let seed = detailed
        for r in 0..<rows {
            for c in 0..<columns where seed[r * columns + c] {
                for dr in -1...1 {
                    for dc in -1...1 {
                        let rr = r + dr, cc = c + dc
                        if rr >= 0, rr < rows, cc >= 0, cc < columns { active[rr * columns + cc] = true }
                    }
                }
            }
        }
        // Connected groups (8-neighbours), by flood fill.
        var seen = [Bool](repeating: false, count: active.count)
        var regions: [PixelRect] = []
        for start in active.indices where active[start] && !seen[start] {
            var stack = [start]
            seen[start] = true
            var (c0, r0, c1, r1) = (Int.max, Int.max, Int.min, Int.min)
            while let i = stack.popLast() {
                let r = i / columns, c = i % columns
                c0 = min(c0, c); c1 = max(c1, c); r0 = min(r0, r); r1 = max(r1, r)
                for dr in -1...1 {
                    for dc in -1...1 {
                        let rr = r + dr, cc = c + dc
                        guard rr >= 0, rr < rows, cc >= 0, cc < columns else { continue }
                        let j = rr * columns + cc
                        if active[j], !seen[j] { seen[j] = true; stack.append(j) }
                    }
                }
            }
            let x = c0 * cell, y = r0 * cell
            let box = PixelRect(x: x, y: y, width: min(width, (c1 + 1) * cell) - x, height: min(height, (r1 + 1) * cell) - y)
            regions.append(box.grown(by: margin, within: width, height))
        }
        return Self.joined(regions)
    }

    /// Overlapping rectangles replaced by their union until none overlap.
    static func joined(_ rects: [PixelRect]) -> [PixelRect] {
        var result = rects
        var changed = true
        while changed {
            changed = false
            outer: for i in result.indices {
                for j in result.indices where j > i && result[i].intersects(result[j]) {
                    result[i] = result[i].union(result[j])
                    result.remove(at: j)
                    changed = true
                    break outer
                }
            }
        }
        return result
    }
}
