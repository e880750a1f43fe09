import Testing
import TestSupport
import Vips
@testable import SketchEase

/// `RenderMemo`: an editor's previews redraw only what changed, and come out as a fresh drawing would.
@Suite struct RenderMemoTests {
    let photo: Photo
    let first = FaceBox(x: 175, y: 132, width: 182, height: 205) // Grace Hopper's face
    let second = FaceBox(x: 20, y: 420, width: 90, height: 100)

    init() throws {
        photo = try Photo.load(path: TestAssets.graceHopper)
    }

    func faces(darkness: String) throws -> [StyledFace] {
        let dark = FaceStyle(filterID: "pencil", settings: try FilterRegistry.standard.settings(for: "pencil", assignments: ["darkness": darkness]))
        return [StyledFace(box: first, style: dark), StyledFace(box: second, style: try .named("ink"))]
    }

    /// With a background style, a change to one face's style keeps the background's drawing and
    /// the other face's group, and the preview equals a drawing made afresh, pixel for pixel.
    @Test func aStyleChangeRedrawsThatFaceAloneOverTheSameBackground() throws {
        let options = RenderOptions(background: try .named("pencil"))
        let memo = RenderMemo()
        let remembering = FaceCompositor(options: options, memo: memo)
        let fresh = FaceCompositor(options: options)
        for darkness in ["1.3", "2.5", "1.3"] {
            let previewed = try remembering.render(photo.rgb, faces: try faces(darkness: darkness))
            let drawn = try fresh.render(photo.rgb, faces: try faces(darkness: darkness))
            #expect(try PixelStats.meanAbsoluteDifference(previewed, drawn, x: 0, y: 0, width: photo.rgb.width, height: photo.rgb.height) == 0,
                    "darkness \(darkness)")
        }
        let background = try remembering.background(for: photo.rgb, faces: try faces(darkness: "2.5"))
        #expect(try background === remembering.background(for: photo.rgb, faces: try faces(darkness: "1.3")),
                "the background does not depend on the faces' styles")
        let moved = try faces(darkness: "1.3").map { var f = $0; f.box = f.box.grown(by: 1.2); return f }
        #expect(try background !== remembering.background(for: photo.rgb, faces: moved), "its strokes follow the faces' size")
    }
}
