import Testing
@testable import SketchEase

/// Boxes come from files (sessions, plans): any that cannot be drawn is refused with an error.
@Suite struct UnusableBoxTests {
    let size = ImageSize(width: 640, height: 480)
    let good = EditableFace(id: 1, box: FaceBox(x: 10, y: 10, width: 50, height: 60))

    @Test func sessionFacesMustHaveUsableBoxes() throws {
        for box in [FaceBox(x: 1e300, y: 0, width: 10, height: 10), FaceBox(x: 0, y: 0, width: -5, height: 10),
                    FaceBox(x: .infinity, y: 0, width: 10, height: 10)] {
            #expect(throws: EditError.self) { try EditHistory(detected: [EditableFace(id: 1, box: box)], edits: [], position: 0, imageSize: size) }
        }
        #expect(throws: Never.self) { try EditHistory(detected: [good], edits: [], position: 0, imageSize: size) }
    }

    @Test func editsMayNotPushABoxOutOfRange() throws {
        var history = EditHistory(detected: [good], imageSize: size)
        #expect(throws: EditError.self) { try history.perform(.move(face: 1, dx: 1e12, dy: 0)) }
        #expect(throws: EditError.self) { try history.perform(.resize(face: 1, width: 1e13, height: 5)) }
        #expect(history.faces == [good])
        try history.perform(.move(face: 1, dx: 5, dy: -5))
        #expect(history.face(1)?.box == FaceBox(x: 15, y: 5, width: 50, height: 60))
    }
}
