import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct BatchPlanTests {
    func plan(_ text: String) throws -> String {
        let folder = try TestAssets.temporaryFolder("plan")
        let path = folder + "/plan.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func error(_ text: String) throws -> String {
        let path = try plan(text)
        do {
            _ = try BatchPlan.read(from: path)
            return ""
        } catch let e as SessionError {
            #expect(e.description.hasPrefix(path + ": "))
            return e.description
        }
    }

    let header = "\"format\": \"sketchease-plan\", \"version\": 1"

    @Test func readsFacesByNumberAndByBoxWithPathsRelativeToThePlan() throws {
        let path = try plan("""
            {\(header), "photos": [{"path": "group.jpg", "faces": [
                {"face": 2, "style": {"filter": "pencil", "parameters": {"darkness": 2}}},
                {"box": [10, 20, 30, 40], "style": {"filter": "pencil"}},
                {"face": 1, "style": null}],
              "others": {"filter": "pencil"}}]}
            """)
        let p = try BatchPlan.read(from: path)
        let folder = (path as NSString).deletingLastPathComponent
        #expect(p.photos.count == 1 && p.photos[0].path == folder + "/group.jpg")
        #expect(p.photos[0].faces.map(\.target) == [.number(2), .box(FaceBox(x: 10, y: 20, width: 30, height: 40)), .number(1)])
        #expect(p.photos[0].faces[0].style?.settings.number("darkness") == 2)
        #expect(p.photos[0].faces[2].style == nil)
        #expect(p.photos[0].others?.filterID == "pencil")
        #expect(p.entry(for: folder + "/./group.jpg") != nil && p.inputFiles.map { $0.outputName() } == ["group.png"])
    }

    @Test func mistakesGiveOneLineSayingWhere() throws {
        let photo = { (faces: String) in "{\(self.header), \"photos\": [{\"path\": \"a.jpg\", \"faces\": [\(faces)]}]}" }
        #expect(try error(photo("{\"style\": {\"filter\": \"pencil\"}}")).contains("photos[0]: faces[0]: give either \"face\""))
        #expect(try error(photo("{\"face\": 1, \"box\": [1,2,3,4]}")).contains("give either"))
        #expect(try error(photo("{\"face\": 0}")).contains("numbers start at 1"))
        #expect(try error(photo("{\"box\": [1, 2, 3]}")).contains("[x, y, width, height]"))
        #expect(try error(photo("{\"face\": 1, \"style\": {\"filter\": \"crayon\"}}")).contains("unknown filter 'crayon'"))
        // The place of a bad style is named too.
        #expect(try error(photo("{\"face\": 1, \"style\": {\"filter\": \"pencel\"}}"))
            .contains("did you mean 'pencil'? available: pencil, graphite, charcoal, ink, hatching, cartoon, relief, pixelate, blur, chroma, none, mask) at photos[0].faces[0].style.filter"))
        #expect(try error(photo("{\"face\": 1, \"style\": {\"filter\": \"pencil\", \"parameters\": {\"darkness\": 99}}}"))
            .contains("darkness=99"))
        #expect(try error(photo("{\"face\": \"two\"}")).contains("wrong type"))
        #expect(try error("{\(header), \"photos\": [{\"path\": \"a.jpg\"}, {\"path\": \"./a.jpg\"}]}").contains("listed twice"))
        #expect(try error("{\(header)}").contains("missing \"photos\""))
        #expect(try error("{\"format\": \"sketchease-plan\", \"version\": 2, \"photos\": []}").contains("newer SketchEase"))
        #expect(try error("{\"photos\": []}").contains("not a sketchease-plan file"))
        #expect(try error("photos:\n - a.jpg").contains("not valid JSON"))
    }

    /// Issue 22 (7): a plan with several mistakes said only the first; mended, the next one
    /// showed. Now every mistake is said at once, each at its place.
    @Test func severalMistakesAreSaidAtOnce() throws {
        let text = try error("""
            {\(header), "photos": [
              {"path": "a.jpg", "faces": [{"face": 0}, {"face": 1, "style": {"filter": "pencl"}}]},
              {"path": "b.jpg", "faces": [{"box": [1, 2, 3]}], "others": {"filter": "pencil", "parameters": {"darkness": 99}}},
              {"path": "./a.jpg"}]}
            """)
        #expect(text.contains("5 mistakes:"), "\(text)")
        #expect(text.contains("photos[0]: faces[0]: \"face\" numbers start at 1"))
        #expect(text.contains("did you mean 'pencil'?") && text.contains("at photos[0].faces[1].style.filter"))
        #expect(text.contains("photos[1]: faces[0]: \"box\" must be [x, y, width, height]"))
        #expect(text.contains("darkness=99") && text.contains("at photos[1].others.parameters"))
        #expect(text.contains("photos[2]: ./a.jpg is listed twice"))
        // A mistake a photo's faces show (numbers not found) is said at once too.
        let detected = [EditableFace(id: 1, box: FaceBox(x: 0, y: 0, width: 100, height: 100))]
        let entry = BatchPlan.PhotoEntry(path: "/x/a.jpg", faces: [.init(target: .number(7), style: nil),
                                                                   .init(target: .number(1), style: nil),
                                                                   .init(target: .number(1), style: nil)], others: nil)
        let thrown = #expect(throws: SessionError.self) {
            try entry.edits(for: EditHistory(detected: detected, imageSize: ImageSize(width: 500, height: 500)), plan: "p.json")
        }
        #expect(thrown?.description == "p.json: invalid content (a.jpg: 2 mistakes: faces[0]: no face 7 (1 found); "
            + "faces[2]: face 1 is face 1, already listed at faces[1])")
    }

    @Test func entriesBecomeEditsOnTheDetectedFaces() throws {
        let detected = [
            EditableFace(id: 1, box: FaceBox(x: 0, y: 0, width: 100, height: 100)),
            EditableFace(id: 2, box: FaceBox(x: 200, y: 0, width: 100, height: 100)),
            EditableFace(id: 3, box: FaceBox(x: 400, y: 0, width: 100, height: 100)),
        ]
        let pencil = try FaceStyle.named("pencil")
        let entry = BatchPlan.PhotoEntry(path: "/x/a.jpg", faces: [
            .init(target: .number(3), style: pencil),
            .init(target: .box(FaceBox(x: 210, y: 5, width: 95, height: 100)), style: nil),  // matches face 2: left alone
            .init(target: .box(FaceBox(x: 700, y: 0, width: 80, height: 80)), style: pencil), // matches nothing: added
        ], others: pencil)
        let history = EditHistory(detected: detected, imageSize: ImageSize(width: 1000, height: 600))
        let edits = try entry.edits(for: history, plan: "p.json")
        #expect(edits == [.setStyle(faces: [3], style: pencil),
                          .add(face: 4, box: FaceBox(x: 700, y: 0, width: 80, height: 80), style: pencil),
                          .setStyle(faces: [1], style: pencil)])
        let missing = BatchPlan.PhotoEntry(path: "/x/a.jpg", faces: [.init(target: .number(9), style: pencil)], others: nil)
        #expect(throws: SessionError.self) { try missing.edits(for: history, plan: "p.json") }
        // One face named twice, by number and by a box over it, is a mistake the plan is told about.
        let twice = BatchPlan.PhotoEntry(path: "/x/a.jpg", faces: [
            .init(target: .number(2), style: pencil),
            .init(target: .box(FaceBox(x: 205, y: 0, width: 100, height: 100)), style: nil),
        ], others: nil)
        #expect(throws: SessionError(path: "p.json", reason: .invalid(
            "a.jpg: faces[1]: the box [205, 0, 100, 100] is face 2, already listed at faces[0]"))) {
            try twice.edits(for: history, plan: "p.json")
        }
        let off = BatchPlan.PhotoEntry(path: "/x/a.jpg", faces: [.init(target: .box(FaceBox(x: 5000, y: 0, width: 80, height: 80)), style: pencil)],
                                       others: nil)
        #expect(throws: SessionError(path: "p.json", reason: .invalid(
            "a.jpg: faces[0]: the box [5000, 0, 80, 80] is outside the photo (1000×600)"))) {
            try off.edits(for: history, plan: "p.json")
        }
    }
}
