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
