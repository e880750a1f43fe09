/// How faces are searched for.
public struct DetectionOptions: Sendable, Equatable {
    /// Detection runs on a copy whose longest side is at most this (pixels); boxes are mapped back.
    public var maxSide: Int
    /// Minimum confidence (0...1) for a face to be kept. Ignored by the cascade fallback.
    public var threshold: Double
    /// Boxes overlapping more than this (intersection over union) are merged by non-maximum suppression.
    public var nmsIoU: Double

    public init(maxSide: Int = 640, threshold: Double = 0.5, nmsIoU: Double = 0.3) {
        self.maxSide = maxSide; self.threshold = threshold; self.nmsIoU = nmsIoU
    }
}
