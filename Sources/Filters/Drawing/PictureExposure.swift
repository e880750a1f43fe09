import Foundation
import Vips

/// How much brighter than an under-exposed picture its drawings are made: a gain in linear
/// light, as a longer exposure would give, for `ToneMatch`.
///
/// The tone match sets a drawing's lightness to the photo's, so a face drawn in a dim bar, a
/// dark room or against the light came out as dark as it was taken: "murky", "nearly black",
/// "hard to read", said in every blind panel of such faces, where the drawings put first read
/// on their paper. How a picture was exposed shows in its white: the luminance its brightest
/// thousandth of pixels reaches (`white(of:)`). A picture with anything white in it (a shirt,
/// teeth, a lit wall, a lamp) reaches CIELAB L `whiteLightness` and is exposed well; its
/// drawings are matched to it as it is, so dark skin in good light is drawn as dark as it is.
/// A picture with nothing that bright is lifted until its white would reach it, by at most
/// `maximumGain`. A gain a little above 1 is eased in (`smallestGain` to `fullGain`), so a clip
/// whose light drifts across it does not jump.
///
/// Blind panels (five judges each, `docs/look-panel.md`, 2026-11-30): on the 21 usual faces
/// the lifted drawing won every judgement on the dark room's and the backlit copy's sheets;
/// on dark-skinned faces in a dark room or against the light, 50 judgements to 10.
public enum PictureExposure {
    /// The lightness (CIELAB L) a well-exposed picture's white reaches.
    public static let whiteLightness = 90.0
    /// At most this much brighter (linear light): two stops.
    public static let maximumGain = 4.0
    /// Gains up to this leave the picture as it is; from here to `fullGain` they are eased in.
    public static let smallestGain = 1.2
    public static let fullGain = 1.44
    /// The share of a picture's pixels darker than its white.
    static let whiteShare = 0.999
    /// The white is measured on a copy reduced to this many pixels on its longer side, each
    /// pixel the mean of what it covers: a lamp's or a tooth's few pixels count as they look at
    /// that size, whatever the picture's (a smaller picture is measured as it is).
    public static let side = 256

    /// The gain for a picture whose white is `white` (linear luminance, 0...1).
    public static func gain(white: Double) -> Double {
        let wanted = luminance(ofLightness: whiteLightness)
        let full = min(maximumGain, wanted / max(white, 1e-6))
        guard full > smallestGain else { return 1 }
        let eased = min(1, log(full / smallestGain) / log(fullGain / smallestGain))
        return exp(eased * log(full))
    }

    /// The gain for `image` (8-bit sRGB, or grey).
    public static func gain(of image: VipsImage) throws -> Double {
        gain(white: try white(of: image))
    }

    /// The white of `image` (8-bit sRGB, or grey): measured on a copy reduced to `side` pixels
    /// on its longer side (by whole blocks as far as they go, streamed over the picture once,
    /// then by area: `PortraitOperations.resampled`).
    public static func white(of image: VipsImage) throws -> Double {
        var rgb = try ToneMatch.rgb(image.cast(.uchar))
        let factor = max(rgb.width, rgb.height) / side
        if factor > 1 { rgb = try rgb.shrunk(by: factor).cast(.uchar) }
        let longer = max(rgb.width, rgb.height)
        if longer > side {
            let scale = Double(side) / Double(longer)
            rgb = try PortraitOperations.resampled(rgb, width: max(1, Int((Double(rgb.width) * scale).rounded())),
                                                   height: max(1, Int((Double(rgb.height) * scale).rounded())))
        }
        return try white(ofRGB: rgb.pixels())
    }

    /// The white of packed 8-bit sRGB pixels (a copy already about `side` pixels long): the
    /// luminance (linear, 0...1) that all but a thousandth of them stay under.
    public static func white(ofRGB pixels: [UInt8]) throws -> Double {
        let count = pixels.count / 3
        guard count > 0 else { return 0 }
        let linear = try LinearLight.levels()
        let bins = 4096
        var counts = [Int](repeating: 0, count: bins)
        for i in 0..<count {
            let y = 0.2126 * Double(linear[Int(pixels[3 * i])]) + 0.7152 * Double(linear[Int(pixels[3 * i + 1])])
                + 0.0722 * Double(linear[Int(pixels[3 * i + 2])])
            counts[min(bins - 1, max(0, Int(y * Double(bins))))] += 1
        }
        let below = Int((whiteShare * Double(count - 1)).rounded(.down))
        var seen = 0
        for (bin, n) in counts.enumerated() {
            seen += n
            if seen > below { return (Double(bin) + 0.5) / Double(bins) }
        }
        return 1
    }

    /// Linear luminance (0...1) of a CIELAB lightness.
    static func luminance(ofLightness l: Double) -> Double {
        let f = (l + 16) / 116
        return f > 6.0 / 29 ? f * f * f : 108.0 / 841 * (f - 4.0 / 29)
    }

    /// The white of the frames of a moving picture (a clip, Live) followed from frame to frame:
    /// each frame's eased in over about `settle` seconds, in stops, as an eye adapts, so a
    /// white shirt walking through a dim room does not make its faces' drawings flicker.
    public struct Follower: Sendable {
        /// Seconds to come about two thirds of the way to a new white.
        public static let settle = 1.0
        /// Seconds between two measurements (`gain(at:white:)`): at most six a second, whatever
        /// the frame rate (every fifth frame at 30, every third at 15), a fraction of `settle`.
        public static let interval = 1.0 / 6
        private var stops: Double?
        private var time: Double?
        private var measuredAt: Double?

        public init() {}

        /// The gain at a frame at `time` (seconds), its white measured (`white`) only where
        /// `interval` has passed since the last frame measured (or time went back).
        public mutating func gain(at time: Double, white: () throws -> Double) rethrows -> Double {
            if let last = measuredAt, time >= last, time - last < Self.interval - 1e-9 { return gain }
            measuredAt = time
            return gain(white: try white(), at: time)
        }

        /// The gain after a frame at `time` (seconds) whose white is `white`.
        public mutating func gain(white: Double, at time: Double) -> Double {
            let measured = log2(max(white, 1e-6))
            if let stops, let last = self.time, time > last {
                let k = 1 - exp(-(time - last) / Self.settle)
                self.stops = stops + (measured - stops) * k
            } else if stops == nil {
                stops = measured
            }
            self.time = max(time, self.time ?? time)
            return gain
        }

        /// The gain for the white followed so far (1 before any frame).
        public var gain: Double {
            stops.map { PictureExposure.gain(white: exp2($0)) } ?? 1
        }
    }
}
