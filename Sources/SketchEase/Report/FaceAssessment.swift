import Foundation

/// What the face report says about one face: where it is, what to fix, and its skin tone.
public struct FaceAssessment: Sendable, Equatable, Encodable {
    /// 1-based position in the photo's face list.
    public var index: Int
    public var face: DetectedFace
    /// True when the detector gave no landmarks and they were placed at typical positions in the box.
    public var landmarksEstimated: Bool
    public var measurements: FaceQualityMeasurements
    /// Empty for a face that is fine to sketch.
    public var warnings: [FaceQualityWarning]
    /// Nil when no skin patch lies inside the photo.
    public var skinTone: SkinTone?

    public var isGood: Bool { warnings.isEmpty }

    /// A few lines for a terminal or the preview: the face, each warning, the skin tone.
    public var summaryLines: [String] { summaryLines(showingScore: true) }

    /// The summary; without the detector's confidence for boxes that did not come straight
    /// from the detector (edited or drawn by hand).
    public func summaryLines(showingScore: Bool) -> [String] {
        let b = face.box
        let score = showingScore ? face.score.map { ", confidence \(Rounding.score($0))" } ?? "" : ""
        var lines = ["face \(index): \(Rounding.size(b)) px at (\(Rounding.corner(b)))" + score
            + (landmarksEstimated ? ", landmarks estimated" : "")]
        if warnings.isEmpty {
            // Landmarks placed at their typical positions are upright by construction: a tilt
            // read from them would be a claim, not a measurement.
            lines.append(landmarksEstimated
                ? "  good: size, framing, lighting and sharpness fine (tilt not measured: no landmarks)"
                : "  good: size, framing, lighting, sharpness and tilt all fine")
        } else {
            lines += warnings.map { "  warning: \($0.message)" }
        }
        if let tone = skinTone {
            let lab = tone.lab.map { Rounding.text($0, places: 1) }
            lines.append("  skin tone \(tone.hex) (L* \(lab[0]), a* \(lab[1]), b* \(lab[2])) from \(tone.pixelCount) px, "
                + "σL* \(Rounding.text(tone.labStandardDeviation[0], places: 1)), mean ΔE \(Rounding.text(tone.meanDeltaE, places: 1))")
        } else {
            lines.append("  skin tone: not measured (no skin patch inside the photo)")
        }
        return lines
    }

    enum CodingKeys: String, CodingKey {
        case index, box, score, landmarks, landmarksEstimated = "landmarks_estimated", measurements, warnings
        case skinTone = "skin_tone", good
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .index)
        try c.encode(face.box.array.map { Rounding.decimals($0, 1) }, forKey: .box)
        try c.encode(face.score.map { Rounding.decimals($0, 3) }, forKey: .score)
        try c.encode(Self.landmarkTable(face.landmarks), forKey: .landmarks)
        try c.encode(landmarksEstimated, forKey: .landmarksEstimated)
        try c.encode(measurements, forKey: .measurements)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(skinTone, forKey: .skinTone)
        try c.encode(isGood, forKey: .good)
    }

    /// `{"left_eye": [x, y], ...}` in `Landmark` order's names.
    public static func landmarkTable(_ points: [Point]) -> [String: [Double]] {
        var table: [String: [Double]] = [:]
        for mark in Landmark.allCases where points.indices.contains(mark.rawValue) {
            table[mark.name] = [Rounding.decimals(points[mark.rawValue].x, 1), Rounding.decimals(points[mark.rawValue].y, 1)]
        }
        return table
    }
}
