/// Something about a face a photographer would want to fix before sketching it.
public struct FaceQualityWarning: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case tooSmall = "too_small"
        case cutOff = "cut_off"
        case unevenLighting = "uneven_lighting"
        case blurred
        case rotated
    }

    public var kind: Kind
    /// The measured value, in the unit of `threshold`.
    public var value: Double
    public var threshold: Double
    /// One line for people, with the numbers: "face is 72 px across (below 96 px)".
    public var message: String

    public init(kind: Kind, value: Double, threshold: Double, message: String) {
        self.kind = kind; self.value = value; self.threshold = threshold; self.message = message
    }
}
