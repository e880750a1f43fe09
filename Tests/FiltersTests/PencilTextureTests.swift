import Foundation
import Testing
import Vips
@testable import Filters

/// The pencil texture is one tile repeated: no seam where tiles join, and no more work or
/// memory for a whole photo than for a face.
@Suite struct PencilTextureTests {
    /// Mean absolute step between neighbouring columns `x - 1` and `x`.
    static func columnStep(_ image: VipsImage, at x: Int) throws -> Double {
        let a = try image.crop(x: x - 1, y: 0, width: 1, height: image.height)
        let b = try image.crop(x: x, y: 0, width: 1, height: image.height)
        return try a.subtract(b).absolute().average()
    }

    @Test func tilesJoinWithoutASeam() throws {
        let texture = try PencilTexture(width: 1300, height: 400, strokeLength: 40, strokeWidth: 1.5, angle: -55, seed: 9)
        let image = texture.logBrightness
        #expect(image.width == 1300 && image.height == 400)
        // Repeats every 512 pixels...
        let first = try image.crop(x: 0, y: 0, width: 100, height: 400), again = try image.crop(x: 512, y: 0, width: 100, height: 400)
        #expect(try first.subtract(again).absolute().maximum() == 0)
        // ...and the join is like any other pair of neighbouring columns.
        let inside = try (100..<140).map { try Self.columnStep(image, at: $0) }.reduce(0, +) / 40
        let join = try Self.columnStep(image, at: 512)
        #expect(join < 1.5 * inside, "step at the join \(join), inside \(inside)")
    }

    @Test func shadingReachesEachToneOnAverage() throws {
        // On average in the log domain (Lu, Xu & Jia's fit): the geometric mean is the tone;
        // the plain mean lies a little above it (strokes with paper between), in the same order.
        let texture = try PencilTexture(width: 300, height: 300, strokeLength: 30, strokeWidth: 1, angle: -55, seed: 2)
        var means: [Double] = []
        for tone in [0.9, 0.6, 0.3] {
            let flat = try VipsImage.solid(width: 300, height: 300, pixel: [255]).cast(.float).linear(tone / 255, 0)
            let shaded = try texture.shading(flat)
            let geometric = exp(try shaded.math("log").average())
            #expect(abs(geometric - tone) < 0.02, "tone \(tone): geometric mean \(geometric)")
            means.append(try shaded.average())
            #expect(try shaded.deviation() > 0.05, "tone \(tone) is strokes, not a flat grey")
        }
        #expect(means[0] > means[1] + 0.1 && means[1] > means[2] + 0.1, "means \(means)")
    }
}
