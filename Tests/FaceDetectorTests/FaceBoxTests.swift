import Testing
@testable import FaceDetector

@Suite struct FaceBoxTests {
    @Test func growsAboutItsCentre() {
        let box = FaceBox(x: 10, y: 20, width: 100, height: 50).grown(by: 2)
        #expect(box == FaceBox(x: -40, y: -5, width: 200, height: 100))
    }

    @Test func intersectionOverUnion() {
        let a = FaceBox(x: 0, y: 0, width: 10, height: 10)
        #expect(a.iou(a) == 1)
        #expect(a.iou(FaceBox(x: 5, y: 0, width: 10, height: 10)) == 50.0 / 150.0)
        #expect(a.iou(FaceBox(x: 20, y: 20, width: 5, height: 5)) == 0)
    }
}
