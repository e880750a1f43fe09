import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// Two faces crossing, one passing behind the other: the face in front is drawn whole while the
/// other is behind it.
@Suite struct CrossingFacesTests {
    /// The standard scene made fast (2 s at 640 × 360, the faces ~20 px a frame), in pencil: on
    /// every frame where the face behind overlaps the face in front, the middle of the face in
    /// front is grey pencil, not the photo's colour. (Its matte, cut with the face behind it
    /// as background, had a hole where that face was, carried along with it: patches of the
    /// photo's colour on its cheek, mouth and chin.)
    @Test func theFaceInFrontIsDrawnWholeWhileTheOtherPassesBehind() throws {
        let folder = try TestAssets.temporaryFolder("crossing")
        let clip = SyntheticClip.standard(width: 640, height: 360, seconds: 2)
        let source = folder + "/walk.mp4", out = folder + "/out.mp4"
        let truths = try clip.write(to: source)
        let front = try #require(clip.sprites.firstIndex { $0.name == "cross-front" })
        let behind = try #require(clip.sprites.firstIndex { $0.name == "cross-behind" })
        let options = ClipOptions(encoding: EncodingSettings(crf: 12, preset: "ultrafast"),
                                  styles: TrackStyles(others: try .named("pencil")), overwrite: true)
        _ = try ClipFixtures.renderer(options).render(MediaSource(path: source), to: out)
        let after = try ClipRendererTests.frames(out)
        var crossing = 0
        var coloured: [String] = []
        for (n, frame) in after.enumerated() where n < truths.count {
            guard let face = truths[n].first(where: { $0.sprite == front }), face.visible,
                  let other = truths[n].first(where: { $0.sprite == behind }), other.box.intersectionArea(face.box) > 0 else { continue }
            crossing += 1
            // The middle of the face in front, in four quarters.
            for (qx, qy) in [(0.2, 0.2), (0.5, 0.2), (0.2, 0.5), (0.5, 0.5)] {
                // Even corners inside the frame, as a 4:2:0 frame is read.
                let x = max(0, Int(face.box.x + qx * face.box.width)) & ~1, y = max(0, Int(face.box.y + qy * face.box.height)) & ~1
                let w = min(Int(0.3 * face.box.width), frame.width - x) & ~1, h = min(Int(0.3 * face.box.height), frame.height - y) & ~1
                guard w > 0, h > 0 else { continue }
                let rgb = frame.rgb(x: x, y: y, width: w, height: h)
                var colour = 0
                for p in stride(from: 0, to: rgb.count, by: 3) {
                    colour += abs(Int(rgb[p]) - Int(rgb[p + 1])) + abs(Int(rgb[p + 1]) - Int(rgb[p + 2]))
                }
                let mean = Double(colour) / Double(w * h)
                if mean > 12 { coloured.append("frame \(n) at (\(x), \(y)): \(String(format: "%.0f", mean))") }
            }
        }
        print("crossing: \(crossing) frames, \(coloured.count) quarters of the front face in colour \(coloured.prefix(8))")
        #expect(crossing >= 10, "the faces cross on \(crossing) frames")
        #expect(coloured.isEmpty, "parts of the face in front left in the photo's colour: \(coloured.prefix(8))")
    }
}
