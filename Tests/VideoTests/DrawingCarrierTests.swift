import FaceDetector
import SketchEase
import Testing
import TestSupport
import Vips
@testable import Video

/// A face that only moves keeps the drawing made on an earlier frame, moved with it by whole
/// pixels, and so do faces drawn as a group, together; a face whose look changes and one
/// something covers are drawn on their own frame.
@Suite struct DrawingCarrierTests {
    static let portrait = try! VipsImage.load(path: TestAssets.graceHopper).extractBands(0, count: 3).inMemory()
    static let found: DetectedFace = {
        let detector = try! OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        return try! detector.detect(in: portrait)[0]
    }()
    static let pencil = try! FaceStyle.named("pencil")
    static let compositor = FrameStyler(compositor: FaceCompositor(options: RenderOptions())).compositor

    /// The portrait on a wall at (`x`, `y`), optionally changed first.
    static func frame(x: Int, y: Int, portrait: VipsImage = portrait) throws -> VipsImage {
        let wall = try VipsImage.solid(width: 1100, height: 1100, pixel: [150, 140, 128])
        return try wall.inserting(portrait, x: x, y: y).inMemory()
    }

    /// The face of the portrait at (`x`, `y`), its box `lag` pixels behind (a tracker's
    /// smoothed box is not exactly on the face).
    static func face(x: Int, y: Int, lag: Double = 0, id: Int = 1) -> TrackedFace {
        let b = found.box
        var face = TrackedFace(id: id, box: FaceBox(x: b.x + Double(x) - lag, y: b.y + Double(y), width: b.width, height: b.height),
                               landmarks: found.landmarks.map { Point(x: $0.x + Double(x) - lag, y: $0.y + Double(y)) }, detected: true)
        face.drawingSize = min(b.width, b.height)
        return face
    }

    func carrier() -> DrawingCarrier {
        DrawingCarrier(compositor: Self.compositor, longest: 60, style: { _ in Self.pencil })
    }

    @Test func aFaceThatOnlyMovesKeepsItsDrawingMovedWithIt() throws {
        let carrier = carrier()
        let styler = FrameStyler(compositor: Self.compositor)
        var drawn: [VipsImage] = []
        var placements: [CarriedDrawing.Placement] = []
        // Moving 3 px right and 2 px down a frame, the box a pixel or two behind on some frames.
        for (k, lag) in [0.0, 1.4, -0.6, 2.0].enumerated() {
            let picture = try Self.frame(x: 200 + 3 * k, y: 250 + 2 * k)
            let face = Self.face(x: 200 + 3 * k, y: 250 + 2 * k, lag: lag)
            let placement = try #require(carrier.drawings(for: [face], mattes: [:], index: k, on: try RGBPixels(picture))[1])
            placements.append(placement)
            drawn.append(try styler.draw([FrameStyler.Face(face, style: Self.pencil, drawing: placement)], on: picture, scale: 1))
        }
        #expect(placements.allSatisfy { $0.drawing === placements[0].drawing }, "one drawing, made once")
        #expect(placements.map(\.offset) == [SIMD2(0, 0), SIMD2(3, 2), SIMD2(6, 4), SIMD2(9, 6)], "moved as the face moved")
        // The face's drawing and everything around it, moved by whole pixels: the same bytes.
        let box = Self.face(x: 200, y: 250).box
        let (x, y, w, h) = (Int(box.x - box.width * 0.6), Int(box.y - box.height * 0.9), Int(box.width * 2.2), Int(box.height * 2.6))
        let first = try drawn[0].crop(x: x, y: y, width: w, height: h).pixels()
        #expect(first != (try Self.frame(x: 200, y: 250).crop(x: x, y: y, width: w, height: h).pixels()), "the face is drawn")
        for k in 1..<4 {
            #expect(try drawn[k].crop(x: x + 3 * k, y: y + 2 * k, width: w, height: h).pixels() == first, "frame \(k)")
        }
    }

    @Test func aFaceWhoseLookChangesIsDrawnAgain() throws {
        let carrier = carrier()
        let face = Self.face(x: 200, y: 250)
        let first = try #require(carrier.drawings(for: [face], mattes: [:], index: 0, on: try RGBPixels(Self.frame(x: 200, y: 250)))[1])
        // Eyes shut: a band of skin tone over them (a blink).
        let b = Self.found.box
        let lid = try VipsImage.solid(width: Int(b.width * 0.7), height: Int(b.height * 0.1), pixel: [196, 150, 130])
        let blinked = try Self.portrait.inserting(lid, x: Int(b.x + b.width * 0.15), y: Int(b.y + b.height * 0.3))
        let second = try #require(carrier.drawings(for: [face], mattes: [:], index: 1,
                                                   on: try RGBPixels(Self.frame(x: 200, y: 250, portrait: blinked)))[1])
        #expect(second.drawing !== first.drawing && second.offset == .zero)
        // Brighter light on the whole face.
        let lit = try Self.portrait.linear([1.08, 1.08, 1.08], [6, 6, 6]).cast(.uchar)
        let third = try #require(carrier.drawings(for: [face], mattes: [:], index: 2, on: try RGBPixels(Self.frame(x: 200, y: 250, portrait: lit)))[1])
        #expect(third.drawing !== second.drawing)
        let picture = try RGBPixels(Self.frame(x: 200, y: 250, portrait: lit))
        #expect(carrier.drawings(for: [face], mattes: [:], index: 3, on: picture)[1]?.drawing === third.drawing, "lit as before: carried")
    }

    /// The style a track is drawn in, changed between frames.
    final class Chosen: @unchecked Sendable {
        var style: FaceStyle
        init(_ style: FaceStyle) { self.style = style }
    }

    /// The clip's exposure drifting by a hair (its light followed, `PictureExposure.Follower`)
    /// keeps a drawing; moved on by more than a few per cent, the face is drawn again, at it.
    @Test func aFaceIsDrawnAgainWhenTheClipsExposureMovesOn() throws {
        let carrier = DrawingCarrier(compositor: Self.compositor, longest: 60, style: { _ in Self.pencil })
        let picture = try RGBPixels(Self.frame(x: 200, y: 250))
        let face = Self.face(x: 200, y: 250)
        let first = try #require(carrier.drawings(for: [face], mattes: [:], index: 0, on: picture, exposure: 1.5)[1])
        #expect(carrier.drawings(for: [face], mattes: [:], index: 1, on: picture, exposure: 1.52)[1]?.drawing === first.drawing)
        let again = try #require(carrier.drawings(for: [face], mattes: [:], index: 2, on: picture, exposure: 1.8)[1])
        #expect(again.drawing !== first.drawing)
        // Drawn at the exposure asked for: lighter than at 1.5.
        let lighter = try #require(try again.drawing.layer()), before = try #require(try first.drawing.layer())
        let mean = { (layer: CarriedDrawing.Layer) in Double(layer.drawing.reduce(0) { $0 + Int($1) }) / Double(layer.drawing.count) }
        #expect(mean(lighter) > mean(before) + 3, "\(mean(lighter)) against \(mean(before))")
    }

    @Test func aFaceWhoseStyleChangesIsDrawnAgain() throws {
        let chosen = Chosen(Self.pencil)
        let carrier = DrawingCarrier(compositor: Self.compositor, longest: 60, style: { _ in chosen.style })
        let picture = try RGBPixels(Self.frame(x: 200, y: 250))
        let face = Self.face(x: 200, y: 250)
        let first = try #require(carrier.drawings(for: [face], mattes: [:], index: 0, on: picture)[1])
        #expect(carrier.drawings(for: [face], mattes: [:], index: 1, on: picture)[1]?.drawing === first.drawing)
        chosen.style = try FaceStyle.named("ink")
        #expect(carrier.drawings(for: [face], mattes: [:], index: 2, on: picture)[1]?.drawing !== first.drawing)
    }

    @Test func aFaceIsDrawnAgainAfterTheLongestCarry() throws {
        let carrier = DrawingCarrier(compositor: Self.compositor, longest: 3, style: { _ in Self.pencil })
        let picture = try RGBPixels(Self.frame(x: 200, y: 250))
        let face = Self.face(x: 200, y: 250)
        let drawings = (0..<4).compactMap { carrier.drawings(for: [face], mattes: [:], index: $0, on: picture)[1]?.drawing }
        #expect(drawings.count == 4 && drawings[1] === drawings[0] && drawings[2] === drawings[0] && drawings[3] !== drawings[0])
    }

    /// Two portraits side by side, their faces' regions meeting, at (`x`, `y`) and `gap` further right.
    static func pair(x: Int, y: Int, gap: Int) throws -> VipsImage {
        let wall = try VipsImage.solid(width: 1500, height: 1100, pixel: [150, 140, 128])
        return try wall.inserting(portrait, x: x, y: y).inserting(portrait, x: x + gap, y: y).inMemory()
    }

    @Test func facesDrawnAsAGroupAreCarriedTogether() throws {
        let carrier = carrier()
        let styler = FrameStyler(compositor: Self.compositor)
        let gap = Int(Self.found.box.width * 1.5)
        func faces(_ x: Int, _ y: Int, second: Int = 0) -> [TrackedFace] {
            [Self.face(x: x, y: y), Self.face(x: x + gap + second, y: y, id: 2)]
        }
        func draw(_ k: Int, _ x: Int, _ y: Int, second: Int = 0) throws -> (VipsImage, [Int: CarriedDrawing.Placement]) {
            let picture = try Self.pair(x: x, y: y, gap: gap + second)
            let tracked = faces(x, y, second: second)
            let placed = carrier.drawings(for: tracked, mattes: [:], index: k, on: try RGBPixels(picture))
            return (try styler.draw(tracked.map { FrameStyler.Face($0, style: Self.pencil, drawing: placed[$0.id]) }, on: picture, scale: 1), placed)
        }
        let (first, made) = try draw(0, 200, 250)
        let one = try #require(made[1])
        #expect(made[2] == one, "one drawing for the group")
        let (moved, carried) = try draw(1, 204, 253)
        #expect(carried[1] == CarriedDrawing.Placement(one.drawing, offset: SIMD2(4, 3)) && carried[2] == carried[1])
        let box = Self.face(x: 200, y: 250).box
        let (x, y, w, h) = (Int(box.x - box.width * 0.6), Int(box.y - box.height * 0.9), gap + Int(box.width * 2.2), Int(box.height * 2.6))
        #expect(try moved.crop(x: x + 4, y: y + 3, width: w, height: h).pixels() == first.crop(x: x, y: y, width: w, height: h).pixels(),
                "the pair's drawing moved with it, byte for byte")
        // The second face moves on alone: the group is drawn afresh.
        let (_, apart) = try draw(2, 204, 253, second: 6)
        #expect(apart[1]?.drawing !== one.drawing && apart[2]?.drawing === apart[1]?.drawing)
    }

    @Test func coveredFacesAndFacesAtTheEdgeAreNotCarried() throws {
        let carrier = carrier()
        let picture = try RGBPixels(Self.frame(x: 200, y: 250))
        var covered = Self.face(x: 200, y: 250)
        covered.cover = FaceCover(x: covered.box.x, y: covered.box.y, cellWidth: 10, cellHeight: 10, columns: 1, rows: 1, cells: [255])
        #expect(carrier.drawings(for: [covered], mattes: [:], index: 0, on: picture).isEmpty)
        // A face at the frame's edge, its head reaching past it.
        #expect(carrier.drawings(for: [Self.face(x: -200, y: 250)], mattes: [:], index: 2, on: picture).isEmpty)
        // A face left as filmed is not drawn at all.
        let none = DrawingCarrier(compositor: Self.compositor, longest: 60, style: { _ in try? FaceStyle.named("none") })
        #expect(none.drawings(for: [Self.face(x: 200, y: 250)], mattes: [:], index: 0, on: picture).isEmpty)
    }
}
