extension PixelRect {
    /// Which rectangles are drawn together: their indices in groups, so that overlapping
    /// rectangles (transitively) share a group; missing rectangles (faces wholly outside the
    /// picture) are left out. Groups in the order of their first rectangle, each in order.
    ///
    /// With `closed`, a group also takes in every rectangle that meets the rectangle holding
    /// all of its own, until no two groups' rectangles meet: each group can then be read out
    /// and put back as one rectangle (a clip's frames, the player's previews). Without it, a
    /// face inside another group's rectangle but touching none of its faces' stays a group of
    /// its own, and putting groups back must keep each other's drawings
    /// (`FaceCompositor.drawnPart`).
    public static func overlapGroups(_ rects: [PixelRect?], closed: Bool = false) -> [[Int]] {
        var parent = Array(rects.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for i in rects.indices {
            guard let a = rects[i] else { continue }
            for j in rects.indices where j > i {
                if let b = rects[j], a.intersects(b) { parent[root(j)] = root(i) }
            }
        }
        var members: [Int: [Int]] = [:]
        for i in rects.indices where rects[i] != nil { members[root(i), default: []].append(i) }
        var groups = members.values.map { group in
            (members: group, bounds: group.dropFirst().reduce(rects[group[0]]!) { $0.union(rects[$1]!) })
        }
        // Each merge here is one every grouping that keeps groups' rectangles apart must make,
        // so the order they are found in does not change the result.
        var merging = closed
        while merging {
            merging = false
            search: for a in groups.indices {
                for b in groups.indices where b > a && groups[a].bounds.intersects(groups[b].bounds) {
                    groups[a] = ((groups[a].members + groups[b].members).sorted(), groups[a].bounds.union(groups[b].bounds))
                    groups.remove(at: b)
                    merging = true
                    break search
                }
            }
        }
        return groups.map(\.members).sorted { $0[0] < $1[0] }
    }
}
