/// The numbers the quality checks look at, for every face whether it passes or not.
public struct FaceQualityMeasurements: Sendable, Equatable, Codable {
    /// The face box's shorter side, pixels.
    public var faceSize: Double
    /// Fraction (0...1) of the face's expected extent, estimated from its landmarks, outside the photo.
    public var outsideFraction: Double
    /// Photo edges the face box touches: "left", "top", "right", "bottom".
    public var edgesTouched: [String]
    /// Photo edges the face's expected extent crosses.
    public var edgesCrossed: [String]
    /// Mean luminance (relative, 0...100) of the image-left and image-right halves of the face.
    public var leftLuminance: Double
    public var rightLuminance: Double
    /// Difference between the halves in stops: log2(brighter / darker).
    public var lightingStops: Double
    /// Variance of the Laplacian of the face in grey levels², at a standard face size
    /// (64 px between the eyes, never enlarged). Higher is sharper.
    public var sharpness: Double
    /// Head roll in degrees from the eye line (positive: clockwise in the picture).
    public var rollDegrees: Double

    enum CodingKeys: String, CodingKey {
        case faceSize = "face_size", outsideFraction = "outside_fraction", edgesTouched = "edges_touched", edgesCrossed = "edges_crossed"
        case leftLuminance = "left_luminance", rightLuminance = "right_luminance", lightingStops = "lighting_stops"
        case sharpness, rollDegrees = "roll_degrees"
    }
}
