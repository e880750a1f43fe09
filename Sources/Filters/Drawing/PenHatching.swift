import Foundation
import Vips

/// Pen hatching as a line screen: parallel strokes whose width grows with the ink a tone asks
/// for, so a patch of hatching covers that fraction of the paper and is otherwise pure paper or
/// pure ink (antialiased over a pixel). The strokes wobble and swell a little with seeded smooth
/// noise, as a hand-held pen's do. All libvips operations, a handful per layer.
enum PenHatching {
    /// Ink coverage (float, 0...1: 1 = ink) of one layer of strokes at `angle` degrees, `spacing`
    /// pixels apart, as wide as `coverage` (float, 0...1, per pixel) asks.
    static func layer(coverage: VipsImage, angle: Double, spacing: Double, seed: Int) throws -> VipsImage {
        let w = coverage.width, h = coverage.height
        let radians = angle * .pi / 180
        // Across-stroke position in strokes (1 = one spacing); the band mean halves it, hence the 2.
        let across = try VipsImage.coordinates(width: w, height: h)
            .linear([-2 * sin(radians) / spacing, 2 * cos(radians) / spacing], [0, 0]).bandMean()
        // The pen's hand: strokes drift sideways (a tenth of a spacing) and swell along their length.
        let drift = try VipsImage.paperGrain(width: w, height: h, grainSize: max(4.5, 2.5 * spacing), seed: seed)
        let position = try across.add(drift.linear(0.1, 1000.25))
        // Distance from the nearest stroke's centre line in spacings, 0...0.5.
        let distance = try position.subtract(position.rounded()).absolute()
        let swell = try VipsImage.paperGrain(width: w, height: h, grainSize: max(4.5, 1.5 * spacing), seed: seed &+ 17)
        let width = try coverage.multiply(swell.linear(0.12, 1))
        // Signed distance (pixels) inside the stroke, +0.5: one pixel of antialiasing.
        return try width.linear(0.5 * spacing, 0.5).subtract(distance.linear(spacing, 0)).clamped()
    }
}
