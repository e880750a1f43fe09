import Foundation
import Vips

/// Brings an under-exposed face up to a normal exposure before a style draws it.
///
/// A face in a dark room reaches a style with its tones crowded into the bottom of the range:
/// edge detectors find no edges, posterised bands collapse into one, a relief has no depth.
/// So the crop is brightened in linear light (as a longer exposure would) until the face's
/// bright tones (its 95th percentile of luminance, inside the boxes shrunk to the skin) reach
/// the lightness of a well-lit face, by at most `maximumGain`. A face that is already lit
/// normally is returned as it is. `ToneMatch` later brings the drawing back to the photo's
/// own lightness, so the face stays as dark as it was, drawn with all its detail.
public enum FaceExposure {
    /// The luminance (linear, 0...1) the face's bright tones are brought up to (CIELAB L ≈ 72).
    public static let targetLuminance = 0.44
    /// At most this much brighter (in linear light): ~4.5 stops.
    public static let maximumGain = 24.0
    /// Gains below this leave the crop alone.
    static let smallestGain = 1.2

    /// The gain (linear light) that brings the faces in `crop` to a normal exposure; 1 when
    /// they are lit well enough, or when there are no faces to measure.
    public static func gain(for crop: VipsImage, faces: [FaceRegion]) throws -> Double {
        // The middle of each box: skin, eyes and mouth, little hair or background.
        let counts = try crop.colourspace(.bw).extractBands(0).cast(.uchar)
            .histogram(over: faces, across: 0.2...0.8, down: 0.15...0.85)
        let total = counts.reduce(0, +)
        guard total > 0 else { return 1 }
        var seen = 0, bright = 255
        for (value, count) in counts.enumerated() {
            seen += count
            if Double(seen) >= 0.95 * Double(total) { bright = value; break }
        }
        let luminance = linear(Double(max(bright, 1)) / 255)
        let gain = min(maximumGain, targetLuminance / luminance)
        return gain >= smallestGain ? gain : 1
    }

    /// `crop` brightened by `gain` in linear light (highlights clip), 8-bit sRGB.
    public static func apply(_ crop: VipsImage, gain: Double) throws -> VipsImage {
        guard gain > 1 else { return crop }
        return try crop.colourspace(.scrgb).linear(gain, 0).colourspace(.srgb).cast(.uchar).reinterpreted(as: .srgb)
    }

    /// sRGB-encoded value (0...1) to linear light.
    static func linear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
}
