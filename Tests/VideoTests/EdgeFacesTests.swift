import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// A face at the edge of the frame, coming in or going out, is drawn up to the edge.
@Suite struct EdgeFacesTests {
    /// The fast scene (`ClipFixtures.FastScene`): a face comes in on the right, pauses and
    /// leaves again. Its head matte is cut where the frame's edge runs through its reach; carried
    /// further into view, the matte went only as far as the edge had been, and the part of the
    /// face that came in after was left in the photo's colour, cut off by a straight line.
    @Test func aFaceComingInAtTheEdgeIsDrawnUpToIt() throws {
        let scene = try ClipFixtures.FastScene("edge-faces")
        let visitor = try scene.sprite("visitor")
        let tracks = try OcclusionTrackingTests.tracked(scene.path)
        let drawn = try scene.drawnInPencil()
        var checked = 0
        var coloured: [String] = []
        for (n, frame) in drawn.enumerated() where n < scene.truths.count && n < tracks.frames.count {
            guard let face = scene.truths[n].first(where: { $0.sprite == visitor }), face.inside > 0.3, face.inside < 1,
                  tracks.frames[n].faces.contains(where: { $0.opacity >= 0.99 && $0.box.iou(OcclusionTrackingTests.box(face.box)) >= 0.5 })
            else { continue }
            checked += 1
            // The part of the face nearest the edge: its middle rows, its last 30 % in the frame.
            let visible = min(Double(frame.width), face.box.maxX) - face.box.x
            guard let colour = ClipFixtures.colour(of: frame, x: face.box.x + 0.7 * visible, y: face.box.y + 0.3 * face.box.height,
                                                   width: 0.3 * visible, height: 0.4 * face.box.height) else { continue }
            if colour > 12 { coloured.append("frame \(n) (\(Int(face.inside * 100)) % in): \(String(format: "%.0f", colour))") }
        }
        print("edge: \(checked) frames with the face partly in, drawn in full; \(coloured.count) left in colour at the edge \(coloured.prefix(6))")
        #expect(checked >= 3, "the face is partly in the frame and drawn in full on \(checked) frames")
        #expect(coloured.isEmpty, "the face's part nearest the edge left in the photo's colour: \(coloured.prefix(6))")
    }
}
