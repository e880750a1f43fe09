import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// Two faces crossing, one passing behind the other: the face in front is drawn whole while the
/// other is behind it.
@Suite struct CrossingFacesTests {
    /// The fast scene (`ClipFixtures.FastScene`) in pencil: on every frame where the face behind
    /// overlaps the face in front, the middle of the face in front is grey pencil, not the
    /// photo's colour. (Its matte, cut with the face behind it as background, had a hole where
    /// that face was, carried along with it: patches of colour on its cheek, mouth and chin.)
    @Test func theFaceInFrontIsDrawnWholeWhileTheOtherPassesBehind() throws {
        let scene = try ClipFixtures.FastScene("crossing")
        let front = try scene.sprite("cross-front"), behind = try scene.sprite("cross-behind")
        let drawn = try scene.drawnInPencil()
        var crossing = 0
        var coloured: [String] = []
        for (n, frame) in drawn.enumerated() where n < scene.truths.count {
            guard let face = scene.truths[n].first(where: { $0.sprite == front }), face.visible,
                  let other = scene.truths[n].first(where: { $0.sprite == behind }), other.box.intersectionArea(face.box) > 0 else { continue }
            crossing += 1
            // The middle of the face in front, in four quarters.
            for (qx, qy) in [(0.2, 0.2), (0.5, 0.2), (0.2, 0.5), (0.5, 0.5)] {
                let x = face.box.x + qx * face.box.width, y = face.box.y + qy * face.box.height
                guard let colour = ClipFixtures.colour(of: frame, x: x, y: y, width: 0.3 * face.box.width, height: 0.3 * face.box.height)
                else { continue }
                if colour > 12 { coloured.append("frame \(n) at (\(Int(x)), \(Int(y))): \(String(format: "%.0f", colour))") }
            }
        }
        print("crossing: \(crossing) frames, \(coloured.count) quarters of the front face in colour \(coloured.prefix(8))")
        #expect(crossing >= 10, "the faces cross on \(crossing) frames")
        #expect(coloured.isEmpty, "parts of the face in front left in the photo's colour: \(coloured.prefix(8))")
    }
}
