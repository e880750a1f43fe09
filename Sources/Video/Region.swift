import SketchEase

/// A rectangle of a frame with even corners (4:2:0 chroma covers 2x2 pixels).
struct Region: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The even-cornered rectangle around `box`, clipped to the frame; nil if nothing is left.
    init?(enclosing box: FaceBox, in frame: (width: Int, height: Int)) {
        guard box.isUsable else { return nil }
        let x0 = max(0, Int(box.x.rounded(.down)) & ~1), y0 = max(0, Int(box.y.rounded(.down)) & ~1)
        let x1 = min(frame.width, (Int(box.maxX.rounded(.up)) + 1) & ~1)
        let y1 = min(frame.height, (Int(box.maxY.rounded(.up)) + 1) & ~1)
        guard x1 - x0 >= 2, y1 - y0 >= 2 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    var maxX: Int { x + width }
    var maxY: Int { y + height }

    func intersects(_ o: Region) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }

    func union(_ o: Region) -> Region {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return Region(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    /// Indices of regions grouped so that overlapping regions (transitively) share a group;
    /// missing regions (faces wholly outside the frame) are left out.
    static func overlapGroups(_ regions: [Region?]) -> [[Int]] {
        var groups: [(region: Region, members: [Int])] = []
        for (i, r) in regions.enumerated() {
            guard var merged = r else { continue }
            var members = [i]
            // Merging can make a group reach others: repeat until nothing more overlaps.
            var changed = true
            while changed {
                changed = false
                for g in groups.indices.reversed() where groups[g].region.intersects(merged) {
                    merged = merged.union(groups[g].region)
                    members = groups[g].members + members
                    groups.remove(at: g)
                    changed = true
                }
            }
            groups.append((merged, members.sorted()))
        }
        return groups.map(\.members).sorted { $0[0] < $1[0] }
    }
}
