/// The limits beyond which the face report warns. The defaults suit sketching a face.
public struct FaceQualityThresholds: Sendable, Equatable, Codable {
    /// A face whose box's shorter side is below this many pixels is too small for a good sketch.
    public var minimumFaceSize: Double
    /// A face is cut off when more than this fraction of its expected extent (from its
    /// landmarks) lies outside the photo, or its box touches the photo's edge.
    public var maximumOutsideFraction: Double
    /// The two halves of the face may differ in mean luminance by at most this many stops
    /// (factors of two).
    public var maximumLightingStops: Double
    /// Below this Laplacian variance (grey levels², measured at a standard face size) the face
    /// is blurred.
    public var minimumSharpness: Double
    /// A head tilted more than this (degrees, from the line between the eyes) is strongly rotated.
    public var maximumRollDegrees: Double

    public init(minimumFaceSize: Double = 96, maximumOutsideFraction: Double = 0.03, maximumLightingStops: Double = 1.0,
                minimumSharpness: Double = 100, maximumRollDegrees: Double = 20) {
        self.minimumFaceSize = minimumFaceSize; self.maximumOutsideFraction = maximumOutsideFraction
        self.maximumLightingStops = maximumLightingStops; self.minimumSharpness = minimumSharpness
        self.maximumRollDegrees = maximumRollDegrees
    }
}

extension FaceQualityThresholds {
    /// Whether a face box is too small to sketch well: its shorter side, in whole pixels as
    /// shown, below `minimumFaceSize`.
    public func isTooSmall(_ box: FaceBox) -> Bool {
        Double(Rounding.pixels(min(box.width, box.height))) < minimumFaceSize
    }
}
