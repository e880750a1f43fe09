import SketchEase

/// The sizes a clip's faces are drawn for, frame after frame: each track's box size in steps
/// of an eighth of an octave (`FaceCompositor.sizeStep`), held until the box has grown or
/// shrunk past that step's edge by a further `margin` of a step. A tracked box breathes by a
/// pixel or two from frame to frame (a face of 160 px on the bench's panning portrait: 159 to
/// 173 px); rounded without holding, a box at a step's edge drew its face at one size and the
/// next in turn, every stroke changing with it.
public struct DrawingSizes: Sendable {
    /// How far past a step's edge a box must go before its face is drawn at the next step.
    static let margin = 0.15
    private var held: [Int: Double] = [:]

    public init() {}

    /// `frame`'s faces with the sizes they are drawn for; frames must come in order. A face
    /// that already has its size (tracks held before, `ClipTracks.holdingDrawingSizes`) keeps it.
    public mutating func steady(_ frame: TrackedFrame) -> TrackedFrame {
        var out = frame
        for i in out.faces.indices {
            let face = out.faces[i], side = FaceCompositor.drawnSize(of: face.box, landmarks: face.landmarks)
            guard face.drawingSize == nil, side > 1 else { continue }
            let step = FaceCompositor.sizeStep(of: side)
            let kept = held[face.id].flatMap { abs(step - $0) <= 0.5 + Self.margin ? $0 : nil } ?? step.rounded()
            held[face.id] = kept
            out.faces[i].drawingSize = FaceCompositor.size(ofStep: kept)
        }
        held = held.filter { id, _ in frame.faces.contains { $0.id == id } }
        return out
    }
}
