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
