import Foundation
import SketchEase
import Testing
@testable import Video

/// The sizes a clip's faces are drawn for, held while their boxes breathe.
@Suite struct DrawingSizesTests {
    func frame(_ index: Int, _ faces: [(id: Int, side: Double)]) -> TrackedFrame {
        TrackedFrame(index: index, time: Double(index) / 30,
                     faces: faces.map { TrackedFace(id: $0.id, box: FaceBox(x: 100, y: 100, width: $0.side, height: $0.side * 1.2)) })
    }

    func sizes(_ sides: [Double]) -> [Double] {
        var steady = DrawingSizes()
        return sides.enumerated().map { steady.steady(frame($0.offset, [(1, $0.element)])).faces[0].drawingSize! }
    }

    /// A box around a step's edge (158.97 px, 58.5 eighths of an octave: the edge between
    /// steps 58 and 59) is drawn at one size, where rounding alone flipped it.
    @Test func aBoxBreathingAtAStepsEdgeKeepsOneSize() {
        let sides = [159.6, 158.9, 159.0, 159.4, 158.7, 159.8, 158.8]
        let rounded = Set(sides.map { FaceCompositor.size(ofStep: FaceCompositor.sizeStep(of: $0).rounded()) })
        #expect(rounded.count == 2)
        #expect(Set(sizes(sides)).count == 1)
    }

    /// A face that grows is drawn at its new size once its box is past the step's edge by the
    /// margin, and stays there.
    @Test func aGrowingFaceMovesToTheNextStepAndStays() {
        // Step 59 holds up to 59.65 steps (176.3 px): 175 px is held, 177 px moves on, and
        // 176 px is then held at step 60.
        let out = sizes([160, 168, 175, 177, 180, 178, 176])
        #expect(out[0] == FaceCompositor.size(ofStep: 59) && out[1] == out[0] && out[2] == out[0])
        #expect(out[3] == FaceCompositor.size(ofStep: 60) && out[3...].allSatisfy { $0 == out[3] })
    }

    /// Each track holds its own size; a track gone from a frame starts afresh when it comes back.
    @Test func tracksHoldTheirOwnSizes() {
        var steady = DrawingSizes()
        let first = steady.steady(frame(0, [(1, 159.6), (2, 80)]))
        let second = steady.steady(frame(1, [(1, 158.9), (2, 80.5)]))
        #expect(second.faces.map(\.drawingSize) == first.faces.map(\.drawingSize))
        _ = steady.steady(frame(2, [(2, 80)]))
        let back = steady.steady(frame(3, [(1, 158.9), (2, 80)]))
        #expect(back.faces[0].drawingSize == FaceCompositor.size(ofStep: 58))
    }

    /// The clip player draws one frame at a time: its tracks carry the sizes held from the
    /// clip's first frame, the export's, where its box alone would round to the next step on
    /// some frames. Sizes already held are kept when the export holds them again.
    @Test func aClipsTracksCarryTheSizesTheExportDrawsAt() {
        let sides = [159.6, 158.9, 159.0, 159.4, 158.7, 159.8, 158.8]
        let tracks = ClipTracks(frames: sides.enumerated().map { frame($0.offset, [(1, $0.element)]) }, width: 640, height: 360, frameRate: 30)
        let held = tracks.holdingDrawingSizes()
        let sizes = held.frames.map { $0.faces[0].drawingSize }
        #expect(sizes == self.sizes(sides).map { Optional($0) })
        #expect(Set(sizes).count == 1, "\(sizes)")
        // One frame on its own, as the player draws it: the size held, not its box's rounding.
        #expect(FaceCompositor.size(ofStep: FaceCompositor.sizeStep(of: 158.7).rounded()) != sizes[4])
        var again = DrawingSizes()
        #expect(held.frames.map { again.steady($0).faces[0].drawingSize } == sizes)
    }
}
