import SketchEase

/// What a frame's tracked faces carry from earlier frames, by track id: their head mattes
/// (`MatteCarrier`), and their drawings where they have only moved since (`DrawingCarrier`).
struct FrameCarry: Sendable {
    var mattes: [Int: CarriedMatte] = [:]
    var drawings: [Int: CarriedDrawing.Placement] = [:]
}
