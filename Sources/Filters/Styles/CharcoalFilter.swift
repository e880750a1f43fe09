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
public struct CharcoalFilter: SketchFilter {
    public let id = "charcoal"
    public let name = "Charcoal"
    public let summary = "Charcoal drawing: velvety blacks, smudged mid tones on toothed paper, bold strokes along the form."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.002...0.015, defaultValue: 0.006),
                        "Width of the edge strokes as a fraction of the face size."),
        FilterParameter("shading", .number(range: 0...1, defaultValue: 0.8),
                        "How strongly the photo's tones are filled in with smudged charcoal (0 = strokes only)."),
        FilterParameter("grain", .number(range: 0...1, defaultValue: 0.3),
                        "How much of the paper's tooth shows through the charcoal as light specks and texture."),
        FilterParameter("contrast", .number(range: 0.5...3, defaultValue: 1.7),
                        "Steepness of the tones and boost of the strokes: higher gives blacker blacks and whiter lights."),
        FilterParameter("colour", .number(range: 0...1, defaultValue: 0),
                        "How much of the photo's colour is laid over the drawing (0 = black charcoal, 1 = full pastel)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize, pixel = max(1, context.photoPixel)
        let contrast = settings.number("contrast"), grain = settings.number("grain")
        // A face in a dark room arrives brightened to a normal exposure (`FaceExposure`).
        let lightness = try crop.luminance().inMemory()
        let grey = try lightness.linear(255, 0).softened(sigma: max(0.5, 0.004 * face), eightBit: true).inMemory()
        let w = crop.width, h = crop.height

        // Strokes: flow lines as wide as the stick, made bold by `contrast`.
        let stroke = max(0.7 * pixel, settings.number("stroke") * face)
        let lines = try PortraitOperations.flowLines(grey, flowSigma: max(1, 0.03 * face), lineSigma: stroke,
                                                     flowLength: max(2, 0.03 * face), rho: 0.985, sharpness: 50)
        let strokes = try lines.softened(sigma: 0.7 * stroke).linear(-contrast / 120, contrast * 248 / 120).clamped()

        // Tone: a broad smudge of the photo with some of its detail, mottled as the side of the
        // stick leaves it, then the curve: darkness about 0.35 is the middle.
        let broad = try grey.softened(sigma: max(1.5, 0.02 * face), eightBit: true)
        let near = try grey.softened(sigma: max(1, 0.009 * face), eightBit: true)
        let smudge = try broad.linear(0.55 / 255, 0).add(near.linear(0.45 / 255, 0))
        let mottle = try VipsImage.paperGrain(width: w, height: h, grainSize: max(6, 0.05 * face), seed: context.seed &+ 5, origin: context.origin)
        let darkness = try smudge.linear(-1, 1).add(mottle.linear(0.03, 0))
        let tone = try darkness.linear(contrast, 0.5 - 0.45 * contrast).clamped()
            .linear(settings.number("shading") / 0.8, 0).clamped()
        // darkness of both = 1 - (1 - strokes)(1 - tone)
        let drawn = try strokes.linear(-1, 1).multiply(tone.linear(-1, 1)).linear(-1, 1)

        // The paper's tooth: grain a little over a photo pixel, with some finer. Charcoal takes
        // on its peaks: the mid tones are mottled by it, and its deepest pits
        // stay light as specks (the lowest twentieth or so), fewer and greyer in the blackest areas.
        let coarse = try VipsImage.paperGrain(width: w, height: h, grainSize: 1.3 * pixel, seed: context.seed, origin: context.origin)
        let fine = try VipsImage.paperGrain(width: w, height: h, grainSize: 0.6 * pixel, seed: context.seed &+ 1, origin: context.origin)
        let tooth = try coarse.linear(0.85, 0).add(fine.linear(0.5, 0)).inMemory()
        let middle = try drawn.multiply(drawn.linear(-1, 1))                    // d (1 - d), 0...0.25
        let pits = try tooth.linear(-1.5, -1.5 * 1.4).clamped()               // 1 below -2.1 deviations
        let specks = try pits.multiply(drawn.linear(-0.7 * grain, 0.9 * grain))
        let textured = try drawn.add(middle.multiply(tooth).linear(0.5 * grain, 0)).multiply(specks.linear(-1, 1))
        return try textured.linear(-1, 1).clamped().unitToGreyRGB().tinted(like: crop, amount: settings.number("colour"))
    }
}
