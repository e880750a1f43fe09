import Testing
@testable import FaceDetector

@Suite struct FaceMergerTests {
    let merger = FaceMerger(iou: 0.3)

    func face(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ score: Double?, eyes: (Point, Point)? = nil) -> DetectedFace {
        let marks = eyes.map { [$0.0, $0.1, Point(x: x + w / 2, y: y + h / 2), Point(x: x + w / 3, y: y + h * 0.8),
                                Point(x: x + w * 2 / 3, y: y + h * 0.8)] } ?? []
        return DetectedFace(box: FaceBox(x: x, y: y, width: w, height: h), score: score, landmarks: marks)
    }

    @Test func theSameFaceFromTwoTilesIsOne() {
        let merged = merger.merged([face(100, 100, 40, 52, 0.8), face(101, 99, 41, 52, 0.9)])
        #expect(merged.count == 1)
        #expect(merged.first?.score == 0.9)
    }

    @Test func aFaceFramedLowerAtAnotherLevelIsOne() {
        // Half of the smaller box inside the other (intersection over union only 0.3).
        let merged = merger.merged([face(100, 100, 60, 80, 0.9), face(100, 140, 60, 80, 0.7)])
        #expect(merged.count == 1)
    }

    @Test func facesWhoseEyesAgreeAreOne() {
        let eyes = (Point(x: 115, y: 120), Point(x: 135, y: 120))
        let merged = merger.merged([face(100, 100, 50, 60, 0.8, eyes: eyes), face(104, 110, 44, 90, 0.7, eyes: eyes)])
        #expect(merged.count == 1)
    }

    @Test func neighboursInACrowdStayTwo() {
        let merged = merger.merged([face(100, 100, 40, 52, 0.8), face(136, 104, 40, 52, 0.7)])
        #expect(merged.count == 2)
    }

    /// As in the sideways group photo searched every way round: a box across two neighbours in
    /// a crowd, with one's eyes and the other's mouth (0.546 beside their 0.734 and 0.723), is no
    /// face; the two faces stay, and so does a face whose own eyes and mouth are its own.
    @Test func twoFacesFramedAsOneAreDropped() {
        func marked(_ box: [Double], eyes: [Double], mouth: [Double], _ score: Double) -> DetectedFace {
            DetectedFace(box: FaceBox(x: box[0], y: box[1], width: box[2], height: box[3]), score: score,
                         landmarks: [Point(x: eyes[0], y: eyes[1]), Point(x: eyes[2], y: eyes[3]), Point(x: (eyes[0] + mouth[0]) / 2, y: (eyes[1] + mouth[1]) / 2),
                                     Point(x: mouth[0], y: mouth[1]), Point(x: mouth[2], y: mouth[3])])
        }
        let upper = marked([439.6, 732.2, 37.8, 29.1], eyes: [461.5, 740.2, 461.4, 753.4], mouth: [448.3, 741.3, 448.2, 752], 0.734)
        let lower = marked([388.8, 754.6, 43.2, 34.6], eyes: [413.9, 762.3, 414.8, 778.8], mouth: [398.7, 764.5, 399.5, 778], 0.723)
        let across = marked([422.2, 744.5, 47.2, 34.6], eyes: [452.8, 754.8, 456.1, 761.1], mouth: [424.3, 758.5, 427.5, 764.2], 0.546)
        #expect(merger.merged([across, upper, lower]) == [upper, lower])
        // Its own neighbours' eyes and mouth are their own: both stay whatever scores higher.
        #expect(merger.merged([upper, lower].map { DetectedFace(box: $0.box, score: 0.5, landmarks: $0.landmarks) }).count == 2)
        // Kept where doubtful boxes are merged for a second look (nothing is final there).
        #expect(merger.merged([across, upper, lower], droppingInner: false).count == 3)
    }

    @Test func aFaceInsideAFaceTwiceItsSizeIsDropped() {
        let big = face(100, 100, 200, 260, 0.6), eye = face(140, 160, 40, 40, 0.9)
        #expect(merger.merged([big, eye]) == [big])
        // A doubtful large box must not hide a real face.
        #expect(merger.merged([big, eye], droppingInner: false).count == 2)
    }

    @Test func noScoreSortsLast() {
        let merged = merger.merged([face(0, 0, 10, 10, nil), face(100, 0, 10, 10, 0.2)])
        #expect(merged.map(\.score) == [0.2, nil])
    }
}
