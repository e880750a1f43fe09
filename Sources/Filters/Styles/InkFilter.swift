import Vips

/// Pen and ink: coherent lines that follow the face's form, over a wash of ink for the shadows.
///
/// The lines are the flow-based difference of gaussians (Kang, Lee & Chui 2007): an edge
/// tangent flow is computed from the smoothed structure tensor, a DoG is taken across it and
/// accumulated along it, so lines are long and unbroken where edges are, and noise does not
/// become specks. Under them a wash in two strengths gives the shadows their weight (mid tones
/// a light grey, deep shadows solid ink) instead of leaving the face white.
public struct InkFilter: SketchFilter {
    public let id = "ink"
    public let name = "Ink"
    public let summary = "Pen and ink: flowing lines along the face's edges over a grey wash for the shadows."
    public let parameters: [FilterParameter] = [
        FilterParameter("line", .number(range: 0.001...0.03, defaultValue: 0.0035),
                        "Line width as a fraction of the face size."),
        FilterParameter("detail", .number(range: 1...100, defaultValue: 20),
                        "How faint an edge still gets a line: higher draws more and finer lines."),
        FilterParameter("threshold", .number(range: 0...1.5, defaultValue: 0.35),
                        "Tone below which shadows get the wash (deep shadows, below half of it, solid ink)."),
        FilterParameter("sharpness", .number(range: 1...200, defaultValue: 40),
                        "How crisp the lines are: higher is nearer pure black, lower is greyer and softer."),
        FilterParameter("wash", .number(range: 0...1, defaultValue: 0.6),
                        "Strength of the grey wash in the shadows (0 = lines on white paper only)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let grey = try crop.colourspace("b-w").extractBands(0).softened(sigma: max(0.5, 0.004 * face), eightBit: true).inMemory()
        let lines = try PortraitOperations.flowLines(
            grey, flowSigma: max(1, 0.02 * face), lineSigma: max(0.5, settings.number("line") * face),
            flowLength: max(1.5, 0.025 * face), rho: 1 - 0.2 / settings.number("detail"),
            sharpness: settings.number("sharpness") * 2).linear(1.0 / 255, 0)

        // The wash: tones from a smooth copy, in two steps with soft edges (a brush, not a threshold).
        let tone = try grey.softened(sigma: max(1, 0.012 * face), eightBit: true).linear(1.0 / 255, 0)
        let threshold = settings.number("threshold"), wash = settings.number("wash")
        let light = try tone.linear(-1 / 0.06, threshold / 0.06).clamped()          // 1 below the threshold
        let deep = try tone.linear(-1 / 0.05, threshold * 0.45 / 0.05).clamped()   // 1 in deep shadow
        let paper = try light.linear(-0.3 * wash, 1).subtract(deep.linear(0.55 * wash, 0))
        return try lines.multiply(paper).clamped().unitToGreyRGB()
    }
}
