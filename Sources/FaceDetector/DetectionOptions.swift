/// How faces are searched for.
public struct DetectionOptions: Sendable, Equatable {
    /// The coarse pass runs on a copy whose longest side is at most this (pixels); it finds
    /// the faces larger than about 1/50 of that side.
    public var maxSide: Int
    /// Minimum confidence (0...1) for a face to be kept. Ignored by the cascade fallback.
    public var threshold: Double
    /// Boxes overlapping more than this (intersection over union) are merged by non-maximum suppression.
    public var nmsIoU: Double
    /// The smallest face wanted, in pixels of the photo (the shorter side of its box). Where
    /// the coarse pass cannot see faces this small, the photo is also searched in tiles at
    /// the resolution they need. 0: the coarse pass only.
    public var minFace: Int
    /// Whether to look for faces turned by a quarter or half turn as well (a photo lying on
    /// its side without an orientation tag).
    public var rotations: RotationSearch

    public init(maxSide: Int = 640, threshold: Double = 0.5, nmsIoU: Double = 0.3, minFace: Int = 24,
                rotations: RotationSearch = .off) {
        self.maxSide = maxSide; self.threshold = threshold; self.nmsIoU = nmsIoU
        self.minFace = minFace; self.rotations = rotations
    }
}

/// When the photo is also searched turned by 90°, 180° and 270°.
public enum RotationSearch: String, Sendable, Equatable, Codable, CaseIterable {
    /// Upright only.
    case off
    /// Turned as well when no face is found upright: the first turn that finds faces wins.
    case fallback
    /// Every turn, always; faces found in several are merged.
    case always
}
