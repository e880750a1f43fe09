import CPortrait
import Vips

/// Charcoal on toothed paper: velvety blacks in the deep shadows, broad smudged tone in the
/// middle, bold strokes along the form, and the paper's tooth showing through as light specks.
///
/// The tone is the photo's lightness, smudged broadly (as with the side of the stick, mottled by
/// seeded smooth noise) and pushed through a steep curve (`contrast`): deep shadows go to solid
/// black, lights to paper. The strokes are coherent lines along the edge tangent flow (flow-based
/// DoG), widened to a stick. The paper is seeded grain at two scales: charcoal builds up on its
/// peaks, so mid tones come out textured and the pits stay light where the stick skipped them,
/// while the deepest blacks fill in.
/// With `colour`, the photo's colours are laid over the drawing (charcoal and pastel).
/// Drawn in one pass (`sk_charcoal`), in place of some thirty libvips operations.
public struct CharcoalFilter: SketchFilter {
    public let id = "charcoal"
    public let name = "Charcoal"
    public let summary = "Charcoal drawing: velvety blacks, smudged mid tones on toothed paper, bold strokes along the form."
    public let judged: String? = "Judged blind against ImageMagick's `-charcoal` on 21 faces (13 of 80 px or less), each run on the whole photo: level with it (1.50 each; 53 to 52), ahead on faces of 80 px or less (39 to 26) and behind on larger ones (14 to 26)."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.002...0.015, defaultValue: 0.006),
                        "Width of the edge strokes as a fraction of the face size."),
        FilterParameter("shading", .number(range: 0...1, defaultValue: 0.8),
                        "How strongly the photo's tones are filled in with smudged charcoal (0 = strokes only)."),
        FilterParameter("grain", .number(range: 0...1, defaultValue: 0.3),
                        "How much of the paper's tooth shows through the charcoal as light specks and texture."),
        FilterParameter("contrast", .number(range: 0.5...3, defaultValue: 1.7),
                        "Steepness of the tones and boost of the strokes: higher gives blacker blacks and whiter lights."),
        FilterParameter("detail", .number(range: 0...1, defaultValue: 0.6),
                        "How much the small forms (irises, nostrils, lips, teeth) keep their darks and lights."),
        FilterParameter("colour", .number(range: 0...1, defaultValue: 0),
                        "How much of the photo's colour is laid over the drawing (0 = black charcoal, 1 = full pastel)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize, pixel = max(1, context.photoPixel)
        // A face in a dark room arrives brightened to a normal exposure (`FaceExposure`).
        let stroke = max(0.7 * pixel, settings.number("stroke") * face)
        // The noise tile's points for the mottle and the two grains, each from its own seed.
        let at = [context.seed &+ 5, context.seed, context.seed &+ 1].map { NoiseTile.offset(seed: $0) }
        let noise = try NoiseTile.bytes()
        let greySigma = max(0.5, 0.004 * face)
        let drawing = try noise.withUnsafeBufferPointer { noise in
            let plan = sk_charcoal_plan(
                grey_sigma: Float(greySigma),
                // Strokes: flow lines as wide as the stick, made bold by `contrast`.
                flow_sigma: Float(max(1, 0.03 * face)), stroke_sigma: Float(stroke),
                flow_length: Float(max(2, 0.03 * face)), stroke_soften: Float(0.7 * stroke),
                // Tone: a broad smudge of the photo with some of its detail, mottled as the side
                // of the stick leaves it, then the curve: darkness about 0.35 is the middle.
                broad_sigma: Float(max(1.5, 0.02 * face)), near_sigma: Float(max(1, 0.009 * face)),
                mottle_size: Float(max(6, 0.05 * face)),
                // The paper's tooth: grain a little over a photo pixel, with some finer.
                coarse_grain: Float(1.3 * pixel), fine_grain: Float(0.6 * pixel),
                contrast: Float(settings.number("contrast")), shading: Float(settings.number("shading")),
                grain: Float(settings.number("grain")),
                noise: noise.baseAddress, noise_side: Int32(NoiseTile.side),
                noise_x: (Int32(at[0].x), Int32(at[1].x), Int32(at[2].x)),
                noise_y: (Int32(at[0].y), Int32(at[1].y), Int32(at[2].y)),
                detail: SmallForms.plan(face: face, pixel: pixel, greySigma: greySigma, amount: settings.number("detail")),
                origin_x: Int32(context.origin.x), origin_y: Int32(context.origin.y))
            return try PortraitOperations.drawn(crop, plan: plan, operation: "charcoal", by: sk_charcoal)
        }
        return try drawing.tinted(like: crop, amount: settings.number("colour"))
    }
}
