import Foundation

/// Measures skin tone from patches placed by the landmarks, in libvips.
///
/// Patches: each cheek, 0.55 interocular distances out from the face's centre line and 0.5
/// below the eyes (below glasses, beside the nose), 0.24 across; and the forehead, 0.5 above
/// the eyes, 0.36 wide and 0.18 high. The median per channel ignores the odd hair, eyebrow or
/// glasses rim that strays into a patch.
enum SkinToneMeter {
    static func patches(for frame: LandmarkFrame, width: Int, height: Int) -> [PixelRect] {
        let specs: [(across: Double, down: Double, w: Double, h: Double)] = [
            (-0.55, 0.5, 0.24, 0.24), (0.55, 0.5, 0.24, 0.24), (0, -0.5, 0.36, 0.18),
        ]
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        return specs.compactMap { spec in
            let c = frame.point(across: spec.across, down: spec.down)
            let w = max(2, spec.w * frame.interocular), h = max(2, spec.h * frame.interocular)
            let box = FaceBox(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h)
            guard let rect = PixelRect(enclosing: box)?.clipped(to: bounds), rect.width >= 2, rect.height >= 2 else { return nil }
            return rect
        }
    }

    /// Nil when no patch lies inside the photo.
    static func measure(_ rgb: VipsImage, frame: LandmarkFrame) throws -> SkinTone? {
        let rects = patches(for: frame, width: rgb.width, height: rgb.height)
        guard !rects.isEmpty else { return nil }
        let crops = try rects.map { try rgb.crop(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        // Per-channel median from the patches' summed histograms.
        var counts = Array(repeating: Array(repeating: 0, count: 256), count: 3)
        for crop in crops {
            for (band, histogram) in try crop.histogram().enumerated() where band < 3 {
                for (value, n) in histogram.enumerated() { counts[band][value] += n }
            }
        }
        let total = counts[0].reduce(0, +)
        let median = counts.map { histogram -> Int in
            var running = 0
            for (value, n) in histogram.enumerated() {
                running += n
                if 2 * running >= total { return value }
            }
            return 255
        }
        let colour = RGBColour(red: UInt8(median[0]), green: UInt8(median[1]), blue: UInt8(median[2]))
        let lab = try labOf(colour)
        // Spread: pooled Lab mean and variance, and mean ΔE from the median colour.
        var sums = [Double](repeating: 0, count: 3), squares = [Double](repeating: 0, count: 3)
        var deltaSum = 0.0
        for crop in crops {
            let n = Double(crop.width * crop.height)
            let cropLab = try crop.colourspace(.lab).inMemory() // read seven times below
            for band in 0..<3 {
                let channel = try cropLab.extractBands(band)
                let mean = try channel.average(), sd = try channel.deviation()
                sums[band] += mean * n
                // libvips' deviation divides by n - 1.
                squares[band] += (sd * sd * (n - 1) / n + mean * mean) * n
            }
            let offset = try cropLab.linear([1], lab.map { -$0 })
            let delta = try offset.multiply(offset).bandMean().linear(3, 0).math2("pow", constant: [0.5])
            deltaSum += try delta.average() * n
        }
        let n = Double(total)
        let spread = (0..<3).map { b -> Double in
            let mean = sums[b] / n
            return max(0, squares[b] / n - mean * mean).squareRoot()
        }
        return SkinTone(hex: colour.hex, lab: lab, pixelCount: total, labStandardDeviation: spread,
                        meanDeltaE: deltaSum / n, patches: rects.map { [$0.x, $0.y, $0.width, $0.height] })
    }

    /// CIELAB of one sRGB colour, converted by libvips.
    static func labOf(_ colour: RGBColour) throws -> [Double] {
        let pixel = try VipsImage.fromPixels([colour.red, colour.green, colour.blue], width: 1, height: 1, bands: 3)
            .reinterpreted(as: .srgb).colourspace(.lab)
        return try (0..<3).map { try pixel.extractBands($0).average() }
    }
}
