import Vips

/// Clean line art by the extended difference of gaussians (XDoG, Winnemöller et al. 2012).
///
/// Two gaussians of the grey image, sigma and 1.6 sigma, are combined as
/// `(1 + p) G(sigma) - p G(1.6 sigma)` and soft-thresholded with `1 + tanh(phi (D - epsilon))`:
/// flat tones become white paper, edges and strong shadows become solid ink.
public struct InkFilter: SketchFilter {
    public let id = "ink"
    public let name = "Ink"
    public let summary = "Pen-and-ink line art (XDoG: sharpened difference of gaussians, soft threshold)."
    public let parameters: [FilterParameter] = [
        FilterParameter("line", .number(range: 0.001...0.03, defaultValue: 0.008),
                        "Line width (the smaller gaussian) as a fraction of the face size."),
        FilterParameter("detail", .number(range: 1...100, defaultValue: 20),
                        "Edge sharpening p: higher draws more and finer lines."),
        FilterParameter("threshold", .number(range: 0...1.5, defaultValue: 0.35),
                        "Tone below which the picture turns to ink: higher fills more shadow in black."),
        FilterParameter("sharpness", .number(range: 1...200, defaultValue: 40),
                        "Steepness phi of the tanh threshold: higher is crisper, nearer pure black and white."),
    ]

    public init() {}

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let sigma = max(0.5, settings.number("line") * context.faceSize)
        let grey = try crop.luminance()
        let narrow = try grey.softened(sigma: sigma)
        let wide = try grey.softened(sigma: sigma * 1.6)
        let p = settings.number("detail")
        let difference = try narrow.linear(1 + p, 0).subtract(wide.linear(p, 0))
        let epsilon = settings.number("threshold"), phi = settings.number("sharpness")
        // Above epsilon: paper (1). Below: 1 + tanh(phi (D - epsilon)), falling quickly to 0.
        let soft = try difference.linear(phi, -phi * epsilon).math("tanh").linear(1, 1)
        let ink = try difference.relational("moreeq", constant: [epsilon]).ifThenElse(VipsImage.constant(like: crop, 1), soft)
        return try ink.clamped().unitToGreyRGB()
    }
}
