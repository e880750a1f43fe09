import Foundation
import Vips

/// Pen hatching: the photo's tones drawn as layers of parallel lines, crossed for darker tones.
///
/// Tone is measured on a smoothed grey copy. The lightest tones stay paper; each darker band
/// adds one more layer of lines at a new angle (diagonal, counter-diagonal, horizontal,
/// vertical), each fading in over a short range of tone so layers do not start with a hard
/// edge. Lines wobble slightly along seeded low-frequency noise, like a hand-held pen, and a
/// thin pen outline keeps the contours. Line spacing follows the face size.
public struct HatchingFilter: SketchFilter {
    public let id = "hatching"
    public let name = "Hatching"
    public let summary = "Pen hatching: parallel lines for mid tones, cross-hatching for darker ones."
    public let parameters: [FilterParameter] = [
        FilterParameter("spacing", .number(range: 0.008...0.08, defaultValue: 0.035),
                        "Distance between lines as a fraction of the face size."),
        FilterParameter("angle", .number(range: 0...180, defaultValue: 45),
                        "Direction of the first (lightest) layer of lines, in degrees."),
        FilterParameter("layers", .integer(range: 1...4, defaultValue: 4),
                        "How many crossing layers the darkest tones get."),
        FilterParameter("outline", .number(range: 0...1, defaultValue: 0.6),
                        "Strength of the contour lines drawn over the hatching."),
        FilterParameter("lightness", .number(range: -0.3...0.3, defaultValue: 0),
                        "Shifts tones before hatching: positive leaves more paper, negative hatches more."),
    ]

    /// Tone below which each layer starts, lightest layer first, and its angle offset.
    static let layerTones: [Double] = [0.7, 0.5, 0.34, 0.2]
    static let layerAngles: [Double] = [0, 90, -45, 45]

    public init() {}

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let spacing = max(3, settings.number("spacing") * face)
        let grey = try crop.luminance()
        let tone = try grey.softened(sigma: max(1, 0.012 * face)).linear(1, settings.number("lightness"))
        let coords = try VipsImage.coordinates(width: crop.width, height: crop.height)
        let x = try coords.extractBands(0), y = try coords.extractBands(1)

        var paper = try VipsImage.constant(like: crop, 1)
        for layer in 0..<settings.integer("layers") {
            let degrees = settings.number("angle") + Self.layerAngles[layer]
            let radians = degrees * .pi / 180
            // Distance across the lines, wobbling over a few line spacings like a hand-held pen.
            let wobble = try VipsImage.paperGrain(width: crop.width, height: crop.height,
                                                  grainSize: spacing * 3, seed: context.seed &+ layer)
            let across = try x.linear(cos(radians), 0).add(y.linear(sin(radians), 0))
                .add(wobble.linear(spacing * 0.25, 0))
            // A line where the phase is near its peak: about a third of each period, antialiased.
            let wave = try across.linear(360 / spacing, 0).math("sin")
            let line = try wave.linear(1 / 0.4, -0.6 / 0.4).clamped()
            // The layer fades in over 0.12 of tone below its threshold.
            let weight = try tone.linear(-1 / 0.12, Self.layerTones[layer] / 0.12).clamped()
            paper = try paper.multiply(line.multiply(weight).linear(-0.8, 1))
        }

        // Contours as pen lines: the dark side of a difference of gaussians, like ink's XDoG.
        let sigma = max(0.7, 0.006 * face)
        let contour = try grey.softened(sigma: sigma).subtract(grey.softened(sigma: sigma * 1.6))
            .linear(-40, -0.4).clamped()
        paper = try paper.multiply(contour.linear(-settings.number("outline"), 1))
        return try paper.clamped().unitToGreyRGB()
    }
}
