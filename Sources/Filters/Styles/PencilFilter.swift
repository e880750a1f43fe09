import Vips

/// Colour-dodge pencil sketch on paper.
///
/// The grey image divided by its blurred negative gives graphite lines where the blur differs
/// from the image. Colour dodge alone leaves flat areas blank and turns dark ones white, so a
/// soft tone layer shades the darks back in, a light edge layer keeps contours in flat areas,
/// and seeded paper grain shows through the graphite. Everything scales with the face size.
/// With `colour`, the drawing takes the photo's hue and chroma (coloured pencil).
public struct PencilFilter: SketchFilter {
    public let id = "pencil"
    public let name = "Pencil"
    public let summary = "Graphite pencil drawing: colour-dodge lines, shading and paper grain."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.005...0.2, defaultValue: 0.03),
                        "Blur radius as a fraction of the face size: larger gives broader, softer strokes."),
        FilterParameter("darkness", .number(range: 0.5...4, defaultValue: 1.6),
                        "Gamma applied to the drawing: above 1 darkens the lines."),
        FilterParameter("shading", .number(range: 0...1, defaultValue: 0.55),
                        "How much of the photo's dark tones are shaded in (0 = lines only, blacks wash out)."),
        FilterParameter("edges", .number(range: 0...1, defaultValue: 0.3),
                        "Strength of the light outline layer that keeps contours in flat areas."),
        FilterParameter("grain", .number(range: 0...1, defaultValue: 0.3),
                        "Paper grain showing through the graphite."),
        FilterParameter("colour", .number(range: 0...1, defaultValue: 0),
                        "Coloured pencil: how much of the photo's colour the drawing takes (0 = graphite)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        // Lightly smoothed first: the dodge amplifies sensor and JPEG noise in dark areas.
        // The blurs run on 8-bit layers with libvips' integer kernel (three times faster than
        // float, within 2 levels of it: nothing that shows in a drawing). The grey layer feeds
        // four others, so it is computed once, into memory the size of the crop.
        let grey = try crop.smoothedGrey(sigma: max(0.5, 0.003 * face))
        let sigma = max(0.8, settings.number("stroke") * face)
        let blurredNegative = try grey.inverted().softened(sigma: sigma, eightBit: true)
        // dodge = grey * 256 / (256 - blurredNegative), in 0...1 after clipping
        let dodge = try grey.linear(256.0 / 255, 0).divide(blurredNegative.linear(-1, 256)).clamped()
        var drawing = try dodge.math2("pow", constant: [settings.number("darkness")])

        // Tone: shade dark areas (which the dodge washes to white) with a soft version of the photo.
        let tone = try grey.softened(sigma: max(1, 0.015 * face), eightBit: true).linear(-1.0 / 255, 1)
        let shadow = try tone.multiply(tone) // 1 in blacks, 0 in highlights
        // Light shading is smudged graphite, smooth; the rest (below 0.88 of the paper's
        // brightness: hair, shadows) is laid in with pencil strokes, after Lu, Xu & Jia 2012:
        // a seeded texture of slanted strokes raised to the power that gives each area its
        // brightness on average, so light areas get a few strokes and dark ones many.
        // Read four times below (directly, and through `smudged` and `rest`): computed once, into
        // memory. A libvips image read by several operations is computed again for each of them.
        let target = try shadow.linear(-settings.number("shading"), 1).clamped(0.02, 1).inMemory()
        let smudged = try target.clamped(0.88, 1)
        let texture = try PencilTexture(width: crop.width, height: crop.height, strokeLength: 0.2 * face,
                                        strokeWidth: max(1, 0.005 * face), angle: -55, seed: context.seed)
        // Two parts strokes to one part smudge (the same tone): strokes without scratches.
        let rest = try target.divide(smudged)
        let stroked = try texture.shading(rest).linear(0.65, 0).add(rest.linear(0.35, 0))
        drawing = try drawing.multiply(smudged).multiply(stroked)

        // Light edges: gradient of a slightly smoothed grey image, as faint outlines.
        let smooth = try grey.softened(sigma: max(0.7, 0.006 * face), eightBit: true).linear(1.0 / 255, 0)
        let edge = try smooth.gradientMagnitude().linear(face * 0.05, -0.05).clamped()
        drawing = try drawing.multiply(edge.linear(-settings.number("edges"), 1))

        // Paper grain: fine seeded noise, stronger where there is graphite to break up.
        // Read twice: computed once.
        let grain = try VipsImage.paperGrain(width: crop.width, height: crop.height,
                                             grainSize: max(0.5, 0.003 * face), seed: context.seed).inMemory()
        // drawing + k grain (0.2 + 0.8 (1 - drawing)), arranged to read the drawing once.
        let k = 0.12 * settings.number("grain")
        let textured = try drawing.multiply(grain.linear(-0.8 * k, 1)).add(grain.linear(k, 0))
        // Its 8-bit cast clips to 0...1.
        return try textured.unitToGreyRGB().tinted(like: crop, amount: settings.number("colour"))
    }
}
