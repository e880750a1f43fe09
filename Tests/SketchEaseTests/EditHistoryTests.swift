import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct EditHistoryTests {
    let faces = [
        EditableFace(id: 1, box: FaceBox(x: 10, y: 20, width: 100, height: 120),
                     landmarks: [Point(x: 40, y: 60), Point(x: 80, y: 60)]),
        EditableFace(id: 2, box: FaceBox(x: 300, y: 40, width: 80, height: 90)),
        EditableFace(id: 3, box: FaceBox(x: 500, y: 50, width: 60, height: 70)),
    ]
    let size = ImageSize(width: 800, height: 600)
    let pencil = try! FaceStyle.named("pencil")
    let dark = FaceStyle(filterID: "pencil", settings: try! FilterRegistry.standard.settings(for: "pencil", assignments: ["darkness": "2.5"]))

    @Test func styleAssignSwitchAndRemoveAreUndoneInOrder() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.setStyle(faces: [2], style: pencil))
        #expect(h.face(2)?.style == pencil && h.face(1)?.style == nil)
        try h.perform(.setStyle(faces: [2], style: dark))       // switch parameters
        #expect(h.face(2)?.style == dark)
        try h.perform(.removeStyle(faces: [2]))
        #expect(h.face(2)?.style == nil)
        try h.undo()
        #expect(h.face(2)?.style == dark)
        try h.undo()
        #expect(h.face(2)?.style == pencil)
        try h.undo()
        #expect(h.faces == faces)
        #expect(throws: EditError.nothingToUndo) { try h.undo() }
        try h.redo(); try h.redo(); try h.redo()
        #expect(h.face(2)?.style == nil && h.position == 3)
        #expect(throws: EditError.nothingToRedo) { try h.redo() }
    }

    @Test func setAllStylesEveryFaceInOneUndoableStep() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.setStyle(faces: [1, 2, 3], style: pencil))
        #expect(h.faces.allSatisfy { $0.style == pencil })
        try h.undo()
        #expect(h.faces.allSatisfy { $0.style == nil })
    }

    @Test func moveShiftsBoxAndLandmarksAndUndoRestoresThem() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.move(face: 1, dx: 15, dy: -5))
        #expect(h.face(1)?.box == FaceBox(x: 25, y: 15, width: 100, height: 120))
        #expect(h.face(1)?.landmarks == [Point(x: 55, y: 55), Point(x: 95, y: 55)])
        try h.undo()
        #expect(h.face(1) == faces[0])
    }

    @Test func resizeKeepsTheCentreAndTheLandmarksOnTheirFeatures() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.resize(face: 1, width: 110, height: 60))
        let box = try #require(h.face(1)?.box)
        #expect(box.center == faces[0].box.center)
        #expect(box.width == 110 && box.height == 60)
        // Landmark (40, 60) stays where it is; the box now runs from y 50 to 110.
        #expect(h.face(1)?.landmarks.first == Point(x: 40, y: 60))
        // Shrunk past them, they are kept inside the box: (40, 60) in 20 × 20 about (60, 80).
        try h.perform(.resize(face: 1, width: 20, height: 20))
        #expect(h.face(1)?.landmarks.first == Point(x: 50, y: 70))
        try h.undo()
        #expect(throws: EditError.self) { try h.perform(.resize(face: 1, width: 0, height: 10)) }
        #expect(h.position == 1)
    }

    @Test func addGivesAFreshIDAndCanCarryAStyle() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        #expect(h.nextFaceID == 4)
        try h.perform(.add(face: 4, box: FaceBox(x: 0, y: 0, width: 50, height: 50), style: pencil))
        #expect(h.faces.map(\.id) == [1, 2, 3, 4] && h.face(4)?.style == pencil)
        #expect(throws: EditError.duplicateFace(4)) { try h.perform(.add(face: 4, box: FaceBox(x: 0, y: 0, width: 9, height: 9), style: nil)) }
        try h.undo()
        #expect(h.face(4) == nil)
        // An id once used is not handed out again, even while its face is undone.
        #expect(h.nextFaceID == 5)
    }

    @Test func undoPastADeletionRestoresTheFaceWithItsStyleAndNumber() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.setStyle(faces: [2], style: dark))
        try h.perform(.move(face: 2, dx: 3, dy: 4))
        try h.perform(.delete(faces: [2]))
        #expect(h.faces.map(\.id) == [1, 3])
        #expect(throws: EditError.noSuchFace(2, known: [1, 3])) { try h.perform(.setStyle(faces: [2], style: pencil)) }
        #expect(h.position == 3, "a failed edit changes nothing")
        try h.undo()
        let restored = try #require(h.face(2))
        #expect(restored.style == dark)
        #expect(restored.box == FaceBox(x: 303, y: 44, width: 80, height: 90))
        #expect(h.faces.map(\.id) == [1, 2, 3], "the face comes back in its place")
    }

    @Test func aNewEditAfterUndoDropsTheRedoBranch() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.setStyle(faces: [1], style: pencil))
        try h.perform(.delete(faces: [3]))
        try h.undo()
        #expect(h.canRedo)
        try h.perform(.setStyle(faces: [3], style: dark))
        #expect(!h.canRedo && h.edits.count == 2)
        #expect(h.face(3)?.style == dark)
    }

    @Test func redetectKeepsNumbersAndStylesOfFacesFoundAgain() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.setStyle(faces: [2], style: dark))
        let found = [DetectedFace(box: FaceBox(x: 302, y: 41, width: 80, height: 88), score: 0.9),
                     DetectedFace(box: FaceBox(x: 700, y: 40, width: 50, height: 50), score: 0.6)]
        let fresh = h.redetected(found)
        #expect(fresh.map(\.id) == [2, 4])
        #expect(fresh[0].style == dark && fresh[1].style == nil)
        try h.perform(.redetect(faces: fresh))
        #expect(h.faces.map(\.id) == [2, 4])
        try h.undo()
        #expect(h.faces.map(\.id) == [1, 2, 3])
    }

    @Test func rebuildingCheckedHistoryRejectsEditsThatDoNotApply() throws {
        #expect(throws: EditError.self) {
            try EditHistory(detected: faces, edits: [.delete(faces: [3]), .move(face: 3, dx: 1, dy: 1)], position: 0, imageSize: size)
        }
        #expect(throws: EditError.self) { try EditHistory(detected: faces, edits: [], position: 1, imageSize: size) }
        let h = try EditHistory(detected: faces, edits: [.delete(faces: [3]), .setStyle(faces: [1], style: pencil)], position: 1, imageSize: size)
        #expect(h.faces.map(\.id) == [1, 2] && h.face(1)?.style == nil && h.canRedo)
    }

    @Test func boxesFollowOneRuleForEveryEdit() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        // Entirely off the photo: refused, whatever the edit, and nothing changes.
        #expect(throws: EditError.offPhoto(size)) { try h.perform(.move(face: 1, dx: 5000, dy: 0)) }
        #expect(throws: EditError.offPhoto(size)) { try h.perform(.add(face: 4, box: FaceBox(x: 900, y: 10, width: 50, height: 50), style: nil)) }
        #expect(throws: EditError.offPhoto(size)) { try h.perform(.move(face: 3, dx: 0, dy: -119)) }
        #expect(h.faces == faces && h.edits.isEmpty)
        // Partly off: cut off at the edge, and said so.
        #expect(try h.perform(.move(face: 3, dx: 280, dy: 0)))
        #expect(h.face(3)?.box == FaceBox(x: 780, y: 50, width: 20, height: 70))
        #expect(try h.perform(.resize(face: 2, width: 2000, height: 90)))
        #expect(h.face(2)?.box == FaceBox(x: 0, y: 40, width: 800, height: 90))
        #expect(try h.perform(.add(face: 4, box: FaceBox(x: -10, y: -10, width: 50, height: 50), style: nil)))
        #expect(h.face(4)?.box == FaceBox(x: 0, y: 0, width: 40, height: 40))
        #expect(!(try h.perform(.move(face: 1, dx: 1, dy: 1))), "inside the photo nothing is cut")
        // A session whose faces lie off the photo is refused when it is read back.
        #expect(throws: EditError.offPhoto(size)) {
            try EditHistory(detected: [EditableFace(id: 1, box: FaceBox(x: 900, y: 0, width: 40, height: 40))], edits: [],
                            position: 0, imageSize: size)
        }
    }

    @Test func deleteTakesSeveralFacesInOneStep() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        try h.perform(.delete(faces: [3, 1]))
        #expect(h.faces.map(\.id) == [2])
        try h.undo()
        #expect(h.faces == faces)
    }

    @Test func theBackgroundIsTheLastBackgroundEditInEffect() throws {
        var h = EditHistory(detected: faces, imageSize: size)
        let start = try FaceStyle.named("blur")
        #expect(h.background(from: start) == start && h.background(from: nil) == nil)
        try h.perform(.background(style: pencil))
        try h.perform(.setStyle(faces: [1], style: dark))
        try h.perform(.background(style: nil))
        #expect(h.faces.map(\.box) == faces.map(\.box), "the faces are not moved")
        #expect(h.background(from: start) == nil, "as photographed")
        try h.undo(); try h.undo()
        #expect(h.background(from: start) == pencil)
        #expect(h.rendering(RenderOptions(background: start)).background == pencil)
        try h.undo()
        #expect(h.background(from: start) == start)
        #expect(Edit.background(style: nil).summary == "the photo around the faces: as photographed")
        let coded = try JSONDecoder().decode(Edit.self, from: JSONEncoder().encode(Edit.background(style: dark)))
        #expect(coded == .background(style: dark))
    }
}
