/// Turns the detections of every pass and tile into one face each.
///
/// The same face is often found more than once: in two overlapping tiles, at two search
/// levels (with boxes that differ by a few pixels, or framed a little lower), or by the coarse
/// pass and a tile. Two detections are taken for the same face when their boxes overlap by
/// more than `iou` (intersection over union), when they are of a size (within 2×) and half of
/// the smaller lies inside the other, or when their eyes agree (each eye within a third of the
/// distance between the eyes); the higher score stays. A detection lying mostly inside a face at least twice its size is
/// a feature of that face seen at too fine a scale (an eye, a pattern on a shirt) and is dropped,
/// and so is one whose eyes lie in one better face and its mouth in another: two neighbours'
/// faces framed as one (in a dense crowd, a box across two faces with one's eyes and the
/// other's mouth).
struct FaceMerger {
    var iou: Double

    /// One detection per face, best first. With `droppingInner`, detections inside a face
    /// twice their size go too (right for faces that all passed the threshold; a doubtful
    /// large box must not hide a real face).
    func merged(_ faces: [DetectedFace], droppingInner: Bool = true) -> [DetectedFace] {
        let outer = !droppingInner ? faces : faces.filter { f in
            !faces.contains { big in
                big.box.shorterSide >= 2 * f.box.shorterSide && f.box.overlapOfSmaller(big.box) >= 0.5
            }
        }
        var kept: [DetectedFace] = []
        for face in outer.sorted(by: Self.better) where !kept.contains(where: { sameFace($0, face) }) {
            if droppingInner && Self.framesTwo(face, among: kept) { continue }
            kept.append(face)
        }
        return kept
    }

    /// Whether `face` has its eyes in one of `better` (faces scored above it) and its mouth in
    /// another: two faces framed as one. A face's own eyes and mouth lie in no other face's box
    /// unless two neighbours cover all of it.
    static func framesTwo(_ face: DetectedFace, among better: [DetectedFace]) -> Bool {
        guard let le = face.landmark(.leftEye), let re = face.landmark(.rightEye),
              let ml = face.landmark(.mouthLeft), let mr = face.landmark(.mouthRight) else { return false }
        let mouth = Point(x: (ml.x + mr.x) / 2, y: (ml.y + mr.y) / 2)
        guard let eyes = better.firstIndex(where: { $0.box.contains(le) && $0.box.contains(re) }) else { return false }
        return better.indices.contains { $0 != eyes && better[$0].box.contains(mouth) && !better[eyes].box.contains(mouth) }
    }

    func sameFace(_ a: DetectedFace, _ b: DetectedFace) -> Bool {
        let sizes = max(a.box.shorterSide, b.box.shorterSide) / max(1e-9, min(a.box.shorterSide, b.box.shorterSide))
        return a.box.iou(b.box) > iou || (sizes < 2 && a.box.overlapOfSmaller(b.box) >= 0.5) || Self.eyesAgree(a, b)
    }

    static func eyesAgree(_ a: DetectedFace, _ b: DetectedFace) -> Bool {
        guard let al = a.landmark(.leftEye), let ar = a.landmark(.rightEye),
              let bl = b.landmark(.leftEye), let br = b.landmark(.rightEye) else { return false }
        let spread = max(distance(al, ar), distance(bl, br))
        return spread > 0 && max(distance(al, bl), distance(ar, br)) < spread / 3
    }

    static func distance(_ p: Point, _ q: Point) -> Double { ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }

    /// Higher score first; the larger box breaks ties.
    static func better(_ a: DetectedFace, _ b: DetectedFace) -> Bool {
        let sa = a.score ?? 0, sb = b.score ?? 0
        return sa != sb ? sa > sb : a.box.area > b.box.area
    }
}
