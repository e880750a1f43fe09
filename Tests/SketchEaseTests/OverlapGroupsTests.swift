import SketchEase
import Testing
import TestSupport

/// Which faces are drawn together: rectangles that overlap share a group; closed groups also
/// take in whatever meets their combined rectangle (a clip's frames and the player).
@Suite struct OverlapGroupsTests {
    /// Two faces overlapping on a diagonal, a third in the corner they leave.
    static let corner = [PixelRect(x: 150, y: 10, width: 70, height: 70), PixelRect(x: 0, y: 0, width: 120, height: 120),
                         PixelRect(x: 110, y: 110, width: 120, height: 120)]

    @Test func aFaceInTheCornerOfAPairIsItsOwnGroupUnlessClosed() {
        #expect(PixelRect.overlapGroups(Self.corner) == [[0], [1, 2]])
        #expect(PixelRect.overlapGroups(Self.corner, closed: true) == [[0, 1, 2]])
    }

    @Test func missingRectanglesAreLeftOut() {
        let rects: [PixelRect?] = [nil, Self.corner[1], nil, Self.corner[2], PixelRect(x: 500, y: 500, width: 5, height: 5)]
        #expect(PixelRect.overlapGroups(rects) == [[1, 3], [4]])
        #expect(PixelRect.overlapGroups(rects, closed: true) == [[1, 3], [4]])
        #expect(PixelRect.overlapGroups([nil, nil]).isEmpty)
    }

    /// Closed groups as a clip's frames grouped them before there was one function for both:
    /// each rectangle in turn, merged with every group its growing rectangle meets.
    static func closedOneByOne(_ rects: [PixelRect?]) -> [[Int]] {
        var groups: [(rect: PixelRect, members: [Int])] = []
        for (i, r) in rects.enumerated() {
            guard var merged = r else { continue }
            var members = [i], changed = true
            while changed {
                changed = false
                for g in groups.indices.reversed() where groups[g].rect.intersects(merged) {
                    merged = merged.union(groups[g].rect)
                    members = groups[g].members + members
                    groups.remove(at: g)
                    changed = true
                }
            }
            groups.append((merged, members.sorted()))
        }
        return groups.map(\.members).sorted { $0[0] < $1[0] }
    }

    @Test func closedGroupsAreTheOnesFoundOneByOne() {
        var random = SplitMix(seed: 7)
        for round in 0..<300 {
            let count = 1 + Int(random.next() % 12)
            let rects: [PixelRect?] = (0..<count).map { _ in
                random.next() % 9 == 0 ? nil : PixelRect(x: Int(random.next() % 400), y: Int(random.next() % 400),
                                                         width: 1 + Int(random.next() % 90), height: 1 + Int(random.next() % 90))
            }
            let closed = PixelRect.overlapGroups(rects, closed: true)
            #expect(closed == Self.closedOneByOne(rects), "round \(round)")
            // No two closed groups' rectangles meet; every open group lies within one closed group.
            let bounds = closed.map { g in g.dropFirst().reduce(rects[g[0]]!) { $0.union(rects[$1]!) } }
            for a in bounds.indices { for b in bounds.indices where b > a { #expect(!bounds[a].intersects(bounds[b])) } }
            for group in PixelRect.overlapGroups(rects) {
                #expect(closed.contains { Set(group).isSubset(of: $0) }, "round \(round)")
            }
        }
    }
}
