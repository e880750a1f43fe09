import TestSupport
import Vips
@testable import Filters

/// Runs registered filters on real and synthetic images for the per-filter tests.
enum FilterBench {
    /// Grace Hopper's face with some hair, hat and backdrop: a real photo crop.
    static func faceCrop() throws -> VipsImage {
        try VipsImage.load(path: TestAssets.graceHopper).crop(x: 120, y: 60, width: 280, height: 340)
    }

    /// A flat 3-band 8-bit image of one grey level.
    static func flat(_ level: Double, size: Int = 96) throws -> VipsImage {
        try VipsImage.solid(width: size, height: size, pixel: [level, level, level]).reinterpreted(as: .srgb)
    }

    static func render(_ id: String, _ crop: VipsImage, _ values: [String: String] = [:],
                       faceSize: Double = 180, seed: Int = 7) throws -> VipsImage {
        let registry = FilterRegistry.standard
        let settings = try registry.settings(for: id, assignments: values)
        return try registry.filter(id).apply(to: crop, settings: settings, context: FilterContext(faceSize: faceSize, seed: seed))
    }

    /// Mean of the first band, 0...255.
    static func meanLevel(_ image: VipsImage) throws -> Double {
        try image.extractBands(0).average()
    }

    /// Fraction of pixels whose first band is below `level`.
    static func fractionBelow(_ level: Double, in image: VipsImage) throws -> Double {
        try image.extractBands(0).relational("less", constant: [level]).average() / 255
    }

    /// Mean absolute Laplacian of the grey image: how much fine detail (high frequency) there is.
    static func highFrequencyEnergy(_ image: VipsImage) throws -> Double {
        let laplacian = try VipsImage.matrix([[0, -1, 0], [-1, 4, -1], [0, -1, 0]])
        return try image.colourspace(.bw).extractBands(0).cast(.float).convolve(laplacian).absolute().average()
    }

    /// How many of the 16×16×16 RGB histogram bins are used: a count of distinct colours.
    static func coloursUsed(_ image: VipsImage) throws -> Int {
        let histogram = try VipsCall.image("hist_find_ndim", ["in": .image(image), "bins": .int(16)])
        let used = try histogram.relational("more", constant: [0]).average() / 255
        return Int((used * 4096).rounded())
    }
}
