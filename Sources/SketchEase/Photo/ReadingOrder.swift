/// Faces in the order people read a photo: rows from top to bottom, each row left to right.
///
/// Two faces share a row when either one's centre lies within the other's height; a row is
/// anchored on its top-most face, so a diagonal line of faces does not chain into one row.
/// Every command numbers faces this way (detect, report, edit, plans, sessions), so face 1 is
/// the top-left face of a group photo whatever the detector's confidence in it.
public enum ReadingOrder {
    public static func sorted<T>(_ items: [T], by box: (T) -> FaceBox) -> [T] {
        let byTop = items.indices.sorted {
            let a = box(items[$0]).center, b = box(items[$1]).center
            return a.y != b.y ? a.y < b.y : a.x < b.x
        }
        var rows: [[Int]] = []
        for i in byTop {
            let face = box(items[i])
            if let anchor = rows.last?.first, sameRow(box(items[anchor]), face) {
                rows[rows.count - 1].append(i)
            } else {
                rows.append([i])
            }
        }
        return rows.flatMap { row in row.sorted { box(items[$0]).center.x < box(items[$1]).center.x } }.map { items[$0] }
    }

    private static func sameRow(_ a: FaceBox, _ b: FaceBox) -> Bool {
        (a.y...a.maxY).contains(b.center.y) || (b.y...b.maxY).contains(a.center.y)
    }
}

extension Array where Element == DetectedFace {
    /// These faces numbered as people read the photo (see `ReadingOrder`).
    public var inReadingOrder: [DetectedFace] { ReadingOrder.sorted(self, by: \.box) }
}
