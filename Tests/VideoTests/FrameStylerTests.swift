import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Vips
import Video

/// A frame's faces drawn into the frame (the export) and onto a picture of it (the player's
/// preview in the browser): the same drawing, fades included.
@Suite struct FrameStylerTests {
    /// Grace Hopper's photo as a one-frame clip, that frame, and her face fading in.
    static func fadingFace(opacity: Double) throws -> (frame: VideoFrame, picture: VipsImage, faces: [FrameStyler.Face]) {
        let clip = try TestAssets.temporaryFolder("frame-styler") + "/grace.mp4"
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "0.1", "-i", TestAssets.graceHopper,
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip])
        let frame = try #require(try ClipRendererTests.frames(clip).first)
        let picture = try VipsImage.fromPixels(frame.rgb(x: 0, y: 0, width: frame.width, height: frame.height),
                                               width: frame.width, height: frame.height, bands: 3).reinterpreted(as: .srgb)
        let face = TrackedFace(id: 1, box: FaceBox(x: 175, y: 132, width: 182, height: 205), opacity: opacity)
        return (frame, picture, [FrameStyler.Face(face, style: try .named("pencil"))])
    }

    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(a.count)
    }

    @Test func aPreviewAtTheFramesSizeIsTheFrameAsExported() throws {
        let (frame, picture, faces) = try Self.fadingFace(opacity: 0.4)
        let styler = FrameStyler(compositor: FaceCompositor())
        let exported = try frame.reference()
        try styler.draw(faces, into: exported)
        let preview = try styler.draw(faces, on: picture, scale: 1).pixels()
        let apart = Self.meanDifference(exported.rgb(x: 0, y: 0, width: frame.width, height: frame.height), preview)
        // The export is written back in 4:2:0 YUV, the preview stays RGB: a level or so apart.
        print("preview and export: \(apart) levels apart")
        #expect(apart < 1.5, "the preview is \(apart) levels from the exported frame")
    }

    @Test func aFaceFadingInIsPreviewedAtItsOpacity() throws {
        let (_, picture, faces) = try Self.fadingFace(opacity: 0.4)
        let half = try picture.resize(scale: 0.5)
        let styler = FrameStyler(compositor: FaceCompositor())
        var full = faces
        full[0].face.opacity = 1
        let original = try half.pixels()
        let fading = Self.meanDifference(try styler.draw(faces, on: half, scale: 0.5).pixels(), original)
        let whole = Self.meanDifference(try styler.draw(full, on: half, scale: 0.5).pixels(), original)
        print("fading at 0.4: \(fading / whole) of the whole drawing's difference (\(whole) levels)")
        #expect(whole > 5, "the face is drawn: \(whole) levels from the picture")
        #expect(abs(fading / whole - 0.4) < 0.05, "at 40 % opacity the drawing is \(fading / whole) of the way there")
    }
}

/// Where a face behind another is covered, its style is cut back to the picture, but not where
/// the face in front is drawn: all of that face's matte, below its box too (its neck and
/// collar kept the photo's colour in cells where the face behind it was covered).
@Suite struct FrameStylerCoverTests {
    @Test func aCoveredFaceIsCutBackButNotOverTheFaceInFrontOfIt() throws {
        // A flat orange picture: what is cut back is orange, what is drawn in pencil is grey.
        let picture = try VipsImage.solid(width: 200, height: 200, pixel: [220, 120, 60]).reinterpreted(as: .srgb)
        func block(x: Int, y: Int, width: Int, height: Int, box: FaceBox) throws -> CarriedMatte {
            let matte = try VipsImage.solid(width: width, height: height, pixel: [255])
            return CarriedMatte { CarriedMatte.Cut(matte: matte, x: x, y: y, box: box) }
        }
        // In front: its matte reaches 65 px below its box (its neck and collar).
        let frontBox = FaceBox(x: 60, y: 40, width: 80, height: 80)
        let front = FrameStyler.Face(TrackedFace(id: 1, box: frontBox, detected: true), style: try .named("pencil"),
                                     matte: try block(x: 50, y: 30, width: 100, height: 155, box: frontBox))
        // Behind it, lower down, and covered everywhere; its matte wider than the front face's.
        let behindBox = FaceBox(x: 70, y: 100, width: 60, height: 60)
        let cover = FaceCover(x: 0, y: 0, cellWidth: 10, cellHeight: 10, columns: 20, rows: 20, cells: Array(repeating: 255, count: 400))
        let behind = FrameStyler.Face(TrackedFace(id: 2, box: behindBox, detected: false, cover: cover), style: try .named("pencil"),
                                      matte: try block(x: 20, y: 100, width: 160, height: 60, box: behindBox))
        let drawn = try FrameStyler(compositor: FaceCompositor()).draw([front, behind], on: picture, scale: 1)
        func colour(x: Int, y: Int, width: Int, height: Int) throws -> Double {
            let rgb = try drawn.crop(x: x, y: y, width: width, height: height).pixels()
            var sum = 0
            for p in stride(from: 0, to: rgb.count, by: 3) { sum += abs(Int(rgb[p]) - Int(rgb[p + 1])) + abs(Int(rgb[p + 1]) - Int(rgb[p + 2])) }
            return Double(sum) / Double(width * height)
        }
        // The front face's matte below its box (y 130-175): drawn, grey.
        #expect(try colour(x: 65, y: 130, width: 70, height: 45) < 40, "the face in front is drawn below its box")
        // The face behind, beside the front face's matte (x 25-45): cut back to the picture.
        #expect(try colour(x: 25, y: 110, width: 20, height: 40) > 120, "the covered face's style is cut back")
    }
}
