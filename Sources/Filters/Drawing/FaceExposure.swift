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
        let counts = try histogram(of: ToneMatch.rgb(crop.cast(.uchar)), over: faces, across: 0.2...0.8, down: 0.15...0.85)
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

    /// `crop` brightened by `gain` in linear light (highlights clip), 8-bit sRGB: each level
    /// of each band looked up in one table, over the crop's bytes.
    public static func apply(_ crop: VipsImage, gain: Double) throws -> VipsImage {
        guard gain > 1 else { return crop }
        let rgb = try ToneMatch.rgb(crop.cast(.uchar))
        let table = try LinearLight.brightened(by: gain)
        var bytes = try rgb.pixels()
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeMutableBufferPointer { bytes in
                for i in bytes.indices { bytes[i] = table[Int(bytes[i])] }
            }
        }
        return try VipsImage.fromPixels(bytes, width: rgb.width, height: rgb.height, bands: 3)
    }

    /// The grey levels (libvips' "b-w") of the windows of `faces` (shares of each box, across
    /// and down) in an RGB crop: 256 counts.
    static func histogram(of rgb: VipsImage, over faces: [FaceRegion], across: ClosedRange<Double>,
                          down: ClosedRange<Double>) throws -> [Int] {
        let width = rgb.width, height = rgb.height
        let windows = faces.compactMap { face -> (x: Range<Int>, y: Range<Int>)? in
            let x0 = max(0, Int(face.x + across.lowerBound * face.width)), y0 = max(0, Int(face.y + down.lowerBound * face.height))
            let x1 = min(width, Int(face.x + across.upperBound * face.width)), y1 = min(height, Int(face.y + down.upperBound * face.height))
            return x1 - x0 >= 2 && y1 - y0 >= 2 ? (x0..<x1, y0..<y1) : nil
        }
        guard !windows.isEmpty else { return [Int](repeating: 0, count: 256) }
        return try LinearLight.greyHistogram(of: rgb.pixels(), width: width, windows: windows)
    }

    /// sRGB-encoded value (0...1) to linear light.
    static func linear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
}
