import Vips

/// Colour-dodge pencil sketch: the grey image divided by its blurred negative.
///
/// Flat tones wash out to paper white while edges, where the blur differs from the image,
/// stay as graphite lines. Stroke width follows the face size.
public struct PencilFilter: SketchFilter {
    public let id = "pencil"
    public let name = "Pencil"
    public let summary = "Graphite pencil drawing (colour dodge of the blurred negative)."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.005...0.2, defaultValue: 0.03),
                        "Blur radius as a fraction of the face size: larger gives broader, softer strokes."),
        FilterParameter("darkness", .number(range: 0.5...4, defaultValue: 1.6),
                        "Gamma applied to the drawing: above 1 darkens the lines."),
    ]

    public init() {}

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let grey = try crop.colourspace("b-w").extractBands(0)
        let sigma = max(0.8, settings.number("stroke") * context.faceSize)
        let blurredNegative = try grey.inverted().gaussianBlur(sigma: sigma)
        // dodge = grey * 256 / (256 - blurredNegative), clipped to white
        let denominator = try blurredNegative.linear(-1, 256)
        let dodge = try grey.linear(256, 0).divide(denominator)
        let drawing = try dodge.linear(1.0 / 255, 0).math2("pow", constant: [settings.number("darkness")])
            .linear(255, 0).cast("uchar")
        return try VipsImage.bandjoin([drawing, drawing, drawing]).reinterpreted(as: "srgb")
    }
}
