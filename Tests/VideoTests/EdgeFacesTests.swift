import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// A face at the edge of the frame, coming in or going out, is drawn up to the edge.
@Suite struct EdgeFacesTests {
    /// The standard scene made fast (2 s at 640 × 360): a face comes in on the right, pauses and
    /// leaves again. Its head matte is cut where the frame's edge runs through its reach; carried
    /// further into view, the matte went only as far as the edge had been, and the part of the
    /// face that came in after was left in the photo's colour, cut off by a straight line.
    @Test func aFaceComingInAtTheEdgeIsDrawnUpToIt() throws {
        let folder = try TestAssets.temporaryFolder("edge-faces")
        let clip = SyntheticClip.standard(width: 640, height: 360, seconds: 2)
        let source = folder + "/walk.mp4", out = folder + "/out.mp4"
        let truths = try clip.write(to: source)
        let visitor = try #require(clip.sprites.firstIndex { $0.name == "visitor" })
        let tracks = try OcclusionTrackingTests.tracked(source)
        let options = ClipOptions(encoding: EncodingSettings(crf: 12, preset: "ultrafast"),
                                  styles: TrackStyles(others: try .named("pencil")), overwrite: true)
        _ = try ClipFixtures.renderer(options).render(MediaSource(path: source), to: out)
        let after = try ClipRendererTests.frames(out)
        var checked = 0
        var coloured: [String] = []
        for (n, frame) in after.enumerated() where n < truths.count && n < tracks.frames.count {
            guard let face = truths[n].first(where: { $0.sprite == visitor }), face.inside > 0.3, face.inside < 1,
                  tracks.frames[n].faces.contains(where: { $0.opacity >= 0.99 && $0.box.iou(OcclusionTrackingTests.box(face.box)) >= 0.5 })
            else { continue }
            checked += 1
            // The part of the face nearest the edge: its middle rows, its last 30 % in the frame.
            let visible = min(Double(frame.width), face.box.maxX) - face.box.x
            let x = Int(face.box.x + 0.7 * visible) & ~1, y = Int(face.box.y + 0.3 * face.box.height) & ~1
            let w = min(frame.width - x, Int(0.3 * visible)) & ~1, h = Int(0.4 * face.box.height) & ~1
            guard w > 0, h > 0 else { continue }
            let rgb = frame.rgb(x: x, y: y, width: w, height: h)
            var colour = 0
            for p in stride(from: 0, to: rgb.count, by: 3) {
                colour += abs(Int(rgb[p]) - Int(rgb[p + 1])) + abs(Int(rgb[p + 1]) - Int(rgb[p + 2]))
            }
            let mean = Double(colour) / Double(w * h)
            if mean > 12 { coloured.append("frame \(n) (\(Int(face.inside * 100)) % in): \(String(format: "%.0f", mean))") }
        }
        print("edge: \(checked) frames with the face partly in, drawn in full; \(coloured.count) left in colour at the edge \(coloured.prefix(6))")
        #expect(checked >= 3, "the face is partly in the frame and drawn in full on \(checked) frames")
        #expect(coloured.isEmpty, "the face's part nearest the edge left in the photo's colour: \(coloured.prefix(6))")
    }
}
