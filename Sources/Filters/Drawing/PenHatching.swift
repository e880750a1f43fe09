import Foundation
import Vips

/// Pen hatching as a line screen: parallel strokes whose width grows with the ink a tone asks
/// for, so a patch of hatching covers that fraction of the paper and is otherwise pure paper or
/// pure ink (antialiased over under a pixel). The strokes wobble and swell a little with seeded smooth
/// noise, as a hand-held pen's do. All libvips operations, a handful per layer.
struct PenHatching {
    /// Smooth noise for the hand's drift (sideways) and the pen's swell (width, from the same
    /// noise: one field is half the cost of two), made once and shared by every layer of a drawing.
    let hand: VipsImage
    /// Where the crop's corner lies on the canvas the strokes are laid on (`FilterContext.origin`).
    let origin: SIMD2<Int>

    init(width: Int, height: Int, spacing: Double, seed: Int, origin: SIMD2<Int> = .zero) throws {
        // Seeded noise made small, softened and enlarged linearly (about unit deviation: white
        // noise blurred by 2 keeps 1 / (4 sqrt(pi)) of it): smooth over about two spacings.
        // Made from the canvas's corner (libvips' noise at a pixel depends only on the seed and
        // the pixel's position), with a margin beyond the far edges, where the softening
        // mirrors it: a crop at `origin` gets what the whole canvas has there.
        let factor = max(2.25, spacing)
        let small = try VipsImage.gaussianNoise(width: Int(Double(width + origin.x) / factor) + 8,
                                                height: Int(Double(height + origin.y) / factor) + 8,
                                                mean: 0, sigma: 7.09, seed: seed).softened(sigma: 2)
        hand = try small.resize(scale: factor, kernel: "linear").crop(x: origin.x, y: origin.y, width: width, height: height).inMemory()
        self.origin = origin
    }

    /// Ink coverage (float, 0...1: 1 = ink) of one layer of strokes at `angle` degrees, `spacing`
    /// pixels apart, as wide as `coverage` (float, 0...1, per pixel) asks. `sway` scales and
    /// signs the drift, so layers do not wobble in step.
    func layer(coverage: VipsImage, angle: Double, spacing: Double, sway: Double = 1) throws -> VipsImage {
        let radians = angle * .pi / 180
        // Across-stroke position in strokes (1 = one spacing); the band mean halves it, hence the 2.
        let across = try VipsImage.coordinates(width: coverage.width, height: coverage.height)
            .linear([-2 * sin(radians) / spacing, 2 * cos(radians) / spacing],
                    [-2 * sin(radians) / spacing * Double(origin.x), 2 * cos(radians) / spacing * Double(origin.y)]).bandMean()
        // The pen's hand: strokes drift sideways (a tenth of a spacing) and swell along their length.
        let position = try across.add(hand.linear(0.1 * sway, 1000.25))
        // Distance from the nearest stroke's centre line in pixels, 0...spacing / 2.
        let distance = try position.subtract(position.rounded()).absolute().linear(spacing, 0)
        let width = try coverage.multiply(hand.linear(-0.12 * sway, 1)).linear(spacing, 0)
        // The part of a pixel a stroke `width` wide covers, at most `width`: about width / 2 + 0.5
        // - distance, its edge steepened a little (less grey, and no jagged steps to see).
        let edge = try width.linear(0.8, 0.5).subtract(distance.linear(1.6, 0))
        return try VipsImage.bandrank([edge, width], index: 0).clamped()
    }
}
