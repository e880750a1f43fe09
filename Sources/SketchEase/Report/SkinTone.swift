/// A face's skin colour: the per-channel median of small cheek and forehead patches.
public struct SkinTone: Sendable, Equatable, Codable {
    /// The median colour as 8-bit sRGB, `#rrggbb`.
    public var hex: String
    /// The same colour in CIELAB (D65): L* 0...100, a*, b*.
    public var lab: [Double]
    /// How many pixels the patches held.
    public var pixelCount: Int
    /// Standard deviation of L*, a* and b* over those pixels.
    public var labStandardDeviation: [Double]
    /// Mean colour difference (CIE76 ΔE) of those pixels from the median colour.
    public var meanDeltaE: Double
    /// The patches measured, in photo pixels: `[x, y, width, height]` (cheek, cheek, forehead).
    public var patches: [[Int]]

    public init(hex: String, lab: [Double], pixelCount: Int, labStandardDeviation: [Double], meanDeltaE: Double, patches: [[Int]]) {
        self.hex = hex; self.lab = lab; self.pixelCount = pixelCount
        self.labStandardDeviation = labStandardDeviation; self.meanDeltaE = meanDeltaE; self.patches = patches
    }

    enum CodingKeys: String, CodingKey {
        case hex, lab, pixelCount = "pixel_count", labStandardDeviation = "lab_standard_deviation"
        case meanDeltaE = "mean_delta_e", patches
    }
}
