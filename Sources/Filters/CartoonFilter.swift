import Vips

/// Cartoon: flat areas of colour with bold black outlines.
///
/// libvips has no bilateral filter, so colours are flattened by repeated median filtering
/// (which keeps edges sharp; a large pass, then a smaller one), then lightness is posterised into a few bands in CIELAB while
/// hue and chroma stay smooth and slightly boosted. Outlines come from a thresholded
/// difference of gaussians, thickened with a minimum filter.
public struct CartoonFilter: SketchFilter {
    public let id = "cartoon"
    public let name = "Cartoon"
    public let summary = "Cartoon: flattened, posterised colours with bold black outlines."
    public let parameters: [FilterParameter] = [
        FilterParameter("levels", .integer(range: 2...12, defaultValue: 5),
                        "Number of lightness bands the colours are flattened into."),
        FilterParameter("smoothing", .number(range: 0.005...0.06, defaultValue: 0.02),
                        "Median filter size as a fraction of the face size: larger flattens more detail."),
        FilterParameter("outline", .number(range: 0...1, defaultValue: 0.7),
                        "How many edges get a black outline (0 = none)."),
        FilterParameter("thickness", .number(range: 0.002...0.03, defaultValue: 0.008),
                        "Outline width as a fraction of the face size."),
        FilterParameter("saturation", .number(range: 0...2, defaultValue: 1.25),
                        "Colour strength of the flattened areas (1 = as photographed)."),
    ]

    public init() {}

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        // Edge-preserving flattening: two passes of a median filter (odd size, at most 11).
        let size = min(11, max(3, Int(settings.number("smoothing") * face) | 1))
        let flat = try crop.median(size: size).median(size: max(3, (size / 2) | 1))

        // Posterise lightness; keep hue and chroma smooth, gently boosted.
        let lab = try flat.colourspace("lab")
        let step = 100 / Double(settings.integer("levels"))
        let lightness = try lab.extractBands(0).softened(sigma: max(0.5, 0.004 * face))
            .linear(1 / step, 0)
        // Bands span L 8...96: no blown-out white patches, and black is left to the outlines.
        let banded = try VipsCall.image("round", ["in": .image(lightness), "round": .nick("rint")]).linear(step * 0.88, 8)
        let chroma = try lab.extractBands(1, count: 2).softened(sigma: max(0.5, 0.006 * face)).linear(settings.number("saturation"), 0)
        let colours = try VipsImage.bandjoin([banded, chroma]).reinterpreted(as: "lab").colourspace("srgb").cast("uchar")

        // Outlines: where a difference of gaussians dips (dark side of an edge), thickened.
        let grey = try flat.luminance()
        let sigma = max(0.7, 0.009 * face)
        let dog = try grey.softened(sigma: sigma).subtract(grey.softened(sigma: sigma * 1.6))
        let threshold = 0.002 + (1 - settings.number("outline")) * 0.03
        let lines = try dog.relational("less", constant: [-threshold]).inverted() // 0 on lines, 255 paper
        let width = max(1, Int(settings.number("thickness") * face))
        let bold = width > 1 ? try lines.rank(size: width | 1, index: 0) : lines
        let ink = settings.number("outline") > 0 ? bold : try lines.linear(0, 255).cast("uchar")
        return try colours.multiply(ink.linear(1.0 / 255, 0)).cast("uchar").reinterpreted(as: "srgb")
    }
}
