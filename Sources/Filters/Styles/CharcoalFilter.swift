import Vips

/// Charcoal on textured paper: bold strokes along the face's edges, smudged shadows, and the
/// paper's tooth showing through in streaks that follow the form.
///
/// The strokes are coherent lines along the edge tangent flow (flow-based DoG, drawn on the dark
/// side of each edge only, so a thin feature gets one stroke, not a double outline), widened to
/// a charcoal stick. A smudged copy of the photo's dark tones fills shadows the way the side of
/// the stick would, and seeded streaks drawn along the flow let the paper show through.
/// With `colour`, the photo's colours are laid over the drawing (charcoal and pastel).
public struct CharcoalFilter: SketchFilter {
    public let id = "charcoal"
    public let name = "Charcoal"
    public let summary = "Charcoal drawing: bold strokes along the form and smudged shadows on grainy paper."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.002...0.05, defaultValue: 0.005),
                        "Width of the edge strokes as a fraction of the face size."),
        FilterParameter("shading", .number(range: 0...1, defaultValue: 0.5),
                        "How strongly dark areas of the photo are filled with smudged charcoal."),
        FilterParameter("grain", .number(range: 0...1, defaultValue: 0.4),
                        "Paper texture breaking up the strokes, in streaks along the form."),
        FilterParameter("contrast", .number(range: 0.5...3, defaultValue: 1.7),
                        "Boost of the edge strokes (higher = blacker lines)."),
        FilterParameter("colour", .number(range: 0...1, defaultValue: 0),
                        "How much of the photo's colour is laid over the drawing (0 = black charcoal, 1 = full pastel)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let stroke = max(0.6, settings.number("stroke") * face)
        let grey = try crop.colourspace("b-w").extractBands(0).softened(sigma: max(0.5, 0.004 * face), eightBit: true).inMemory()
        let flow = max(1, 0.03 * face)

        // Strokes: the flow lines, widened by a blur as a stick would, boosted by `contrast`.
        let lines = try PortraitOperations.flowLines(grey, flowSigma: flow, lineSigma: stroke, flowLength: max(2, 0.03 * face),
                                                     rho: 0.985, sharpness: 50)
        let strokes = try lines.softened(sigma: stroke * 0.5).linear(-settings.number("contrast") / 255, settings.number("contrast")).clamped()

        // Smudged shadows from the photo's dark tones.
        let tone = try grey.softened(sigma: max(1, 0.012 * face), eightBit: true).linear(-1.0 / 255, 1).math2("pow", constant: [1.6])
        let shadow = try tone.linear(settings.number("shading"), 0)
        // darkness = 1 - (1 - strokes)(1 - shadow)
        let darkness = try strokes.linear(-1, 1).multiply(shadow.linear(-1, 1)).linear(-1, 1)

        // The paper's tooth: streaks along the form (slightly across it) where the stick skipped.
        let streaks = try PortraitOperations.flowHatching(
            grey, density: VipsImage.constant(like: grey, 255), flowSigma: flow, angle: 20,
            length: max(4, 0.08 * face), width: max(0.8, 0.006 * face), seed: context.seed).linear(1.0 / 255, 0)
        let textured = try darkness.multiply(streaks.linear(-0.9 * settings.number("grain"), 1))
        return try textured.linear(-1, 1).clamped().unitToGreyRGB().tinted(like: crop, amount: settings.number("colour"))
    }
}
