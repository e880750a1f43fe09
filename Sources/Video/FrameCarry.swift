import SketchEase

/// What a frame's tracked faces carry from earlier frames, by track id: their head mattes
/// (`MatteCarrier`), and their drawings where they have only moved since (`DrawingCarrier`);
/// and the exposure the frame's drawings are made at, the clip's white followed to it
/// (`PictureExposure.Follower`).
struct FrameCarry: Sendable {
    var mattes: [Int: CarriedMatte] = [:]
    var drawings: [Int: CarriedDrawing.Placement] = [:]
    var exposure = 1.0
}
