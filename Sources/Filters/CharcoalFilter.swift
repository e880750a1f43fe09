import Vips

/// Charcoal on textured paper: smudged edges and shadows broken up by diagonal grain.
///
/// ImageMagick's recipe (edge, blur, normalise, invert) gives the outlines; a smudged copy of
/// the photo's dark tones fills shadows the way the side of a stick would, and seeded streaky
/// grain lets the paper show through, more in the dark strokes than in the light ones.
public struct CharcoalFilter: SketchFilter {
    public let id = "charcoal"
    public let name = "Charcoal"
    public let summary = "Charcoal drawing: smudged edges and shadows on grainy paper."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.002...0.05, defaultValue: 0.008),
                        "Width of the edge strokes as a fraction of the face size."),
        FilterParameter("shading", .number(range: 0...1, defaultValue: 0.45),
                        "How strongly dark areas of the photo are filled with smudged charcoal."),
        FilterParameter("grain", .number(range: 0...1, defaultValue: 0.35),
                        "Paper texture breaking up the strokes."),
        FilterParameter("contrast", .number(range: 0.5...3, defaultValue: 1.7),
                        "Boost of the edge strokes after normalising (higher = blacker lines)."),
    ]

    public init() {}

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let stroke = max(0.6, settings.number("stroke") * face)
        let grey = try crop.luminance().softened(sigma: stroke)

        // Edges, blurred into strokes and normalised so the strongest 1% reach full black.
        let edges = try grey.gradientMagnitude().softened(sigma: stroke * 0.6)
        let edges8 = try edges.linear(255 * face * 0.05, 0).cast("uchar")
        let top = max(1, try edges8.percentile(98.5))
        let strokes = try edges8.linear(settings.number("contrast") / top, 0).linear(1.15, -0.15).clamped()

        // Smudged shadows from the photo's dark tones.
        let tone = try grey.softened(sigma: 0.01 * face).linear(-1, 1).math2("pow", constant: [1.6])
        let shadow = try tone.linear(settings.number("shading"), 0)
        // darkness = 1 - (1 - strokes)(1 - shadow)
        let darkness = try strokes.linear(-1, 1).multiply(shadow.linear(-1, 1)).linear(-1, 1)

        // Diagonal paper grain: the paper's tooth catches charcoal in short streaks.
        let length = max(3, Int(0.025 * face) | 1)
        let diagonal = (0..<length).map { row in (0..<length).map { $0 == length - 1 - row ? 1.0 / Double(length) : 0 } }
        let noise = try VipsImage.paperGrain(width: crop.width, height: crop.height, grainSize: 0.7, seed: context.seed)
            .embed(x: length, y: length, width: crop.width + 2 * length, height: crop.height + 2 * length, extend: "mirror")
            .convolve(VipsImage.matrix(diagonal))
            .crop(x: length, y: length, width: crop.width, height: crop.height)
            .linear(Double(length).squareRoot(), 0)
        let textured = try darkness.multiply(noise.linear(0.45 * settings.number("grain"), 1))
        return try textured.linear(-1, 1).clamped().unitToGreyRGB()
    }
}
