import Foundation
import Vips

/// A pencil drawing as an artist lays one into a photo: outlines drawn as strokes, the
/// shading hatched in, paper in the lights.
///
/// - Outlines: Lu, Xu & Jia's stroke map (2012): the gradient given to the one of eight
///   directions whose line gathers most of it, drawn out along that line, so contours, eyes,
///   brows and mouth are strokes that overrun their ends a little, as a hand's do.
/// - Shading: the photo's grey levels on a pencil's tone scale (the lights left as paper, the
///   darks lifted to a hatching that still shows paper between its strokes, never a solid
///   smear), laid in with a seeded texture of slanted strokes raised to the power that gives
///   each area its tone: a few strokes in the half-lights, many in the shadows, and a second
///   layer crossing them in the darks (cross-hatching).
/// - A faint contour layer for the small forms the strokes miss, and paper grain.
///
/// Everything is sized to the face and never finer than the photo's own pixels
/// (`photoPixel`): a face of 30 px gets a few bold strokes, not a blur. With `colour`, the
/// drawing takes the photo's hue and chroma (coloured pencil).
public struct PencilFilter: SketchFilter {
    public let id = "pencil"
    public let name = "Pencil"
    public let summary = "Pencil drawing: outlines drawn as strokes, shading hatched in, paper in the lights."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.01...0.2, defaultValue: 0.06),
                        "Length of the outline strokes as a fraction of the face size."),
        FilterParameter("darkness", .number(range: 0.5...4, defaultValue: 1.3),
                        "How dark the outline strokes are."),
        FilterParameter("shading", .number(range: 0...1, defaultValue: 0.85),
                        "How much of the photo's tone is hatched in (0 = outlines only on white paper)."),
        FilterParameter("edges", .number(range: 0...1, defaultValue: 0.5),
                        "Strength of the fine contour layer that keeps small forms (eyelids, lips, nostrils)."),
        FilterParameter("grain", .number(range: 0...1, defaultValue: 0.3),
                        "Paper grain showing through the graphite."),
        FilterParameter("colour", .number(range: 0...1, defaultValue: 0),
                        "Coloured pencil: how much of the photo's colour the drawing takes (0 = graphite)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    /// Grey levels at and above this share of white are left as paper. The same for every
    /// face: dark skin is drawn darker (hatched), as it is, not lifted to paper.
    static let paperLevel = 0.62
    /// The darkest tone the hatching reaches: darker areas stay strokes with paper between.
    static let darkestTone = 0.35
    /// Outlines and contours are drawn where the face is at most this many pixels across.
    static let lineFaceSize = 150.0
    /// Tones below this are hatched twice, the second layer crossing the first.
    static let crossHatchBelow = 0.55

    /// The tone (0...1, 1 = paper) each grey level (0...255) is hatched to, with `shading` of it
    /// laid in: paper from `paper` (a share of white) up.
    static func toneTable(shading: Double, paper: Double = paperLevel) -> [UInt8] {
        (0..<256).map { level in
            let g = Double(level) / 255
            let tone = g >= paper ? 1 : darkestTone + (1 - darkestTone) * pow(g / paper, 1.2)
            return UInt8((255 * (1 - shading * (1 - tone))).rounded())
        }
    }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize, pixel = max(1, context.photoPixel)
        // How far this face was enlarged to be drawn (0 at its own size, 1 at 3x): a small face
        // gets less hatching and darker outlines and contours, the paper and the features
        // carrying it.
        let sparse = min(1, max(0, (pixel - 1) / 2))
        // Never finer than a pixel of the photo: on a small face's enlarged copy every size
        // has a floor in photo pixels, so its strokes come out few and bold.
        let grey = try crop.smoothedGrey(sigma: max(0.5, 0.003 * face, 0.35 * pixel))
        let width = max(1, 0.006 * face, 1.1 * pixel)

        // Outlines (Lu's strokes along the edges) and fine contours (coherent lines along the
        // flow, Kang et al. 2007, for the small forms the strokes miss: eyelids, lips,
        // nostrils). Both are drawn on a copy where the face is at most `lineFaceSize` across,
        // and a photo pixel at most 1.5 of its pixels, and enlarged once: their cost grows with
        // the square of the size times their kernels' area, and lines no finer than a photo
        // pixel gain nothing from more.
        let lineScale = min(1, Self.lineFaceSize / face, 1.5 / pixel)
        let lineFace = face * lineScale, linePixel = pixel * lineScale
        var lineSource = try grey.softened(sigma: max(0.7, 0.005 * face, 0.5 * pixel), eightBit: true).cast("uchar")
        if lineScale < 1 { lineSource = try lineSource.resize(scale: lineScale) }
        // Read by both kinds of line: computed once.
        lineSource = try lineSource.inMemory()
        let strokeLines = try PortraitOperations.pencilStrokes(
            lineSource, length: max(settings.number("stroke") * lineFace, 6 * linePixel),
            width: max(1, 0.006 * lineFace, 1.1 * linePixel), gain: settings.number("darkness") * (1 + 0.5 * sparse))
        let contours = try PortraitOperations.flowLines(
            lineSource, flowSigma: max(1, 0.02 * lineFace), lineSigma: max(0.5, 0.003 * lineFace, 0.6 * linePixel),
            flowLength: max(1.5, 0.02 * lineFace), rho: 0.985, sharpness: 60)
        let edges = min(0.9, settings.number("edges") * (1 + 0.8 * sparse))
        var lines = try strokeLines.linear(1.0 / 255, 0).multiply(contours.linear(edges / 255, 1 - edges))
        if lineScale < 1 {
            lines = try lines.resize(scale: Double(crop.width) / Double(lineSource.width),
                                     verticalScale: Double(crop.height) / Double(lineSource.height))
                .embed(x: 0, y: 0, width: crop.width, height: crop.height, extend: "copy")
                .crop(x: 0, y: 0, width: crop.width, height: crop.height)
        }

        // Tone: the photo's grey levels on the pencil's scale. Read by both hatching layers:
        // computed once.
        let toneSource = try grey.softened(sigma: max(1, 0.01 * face, 0.8 * pixel), eightBit: true).cast("uchar").inMemory()
        let lut = try VipsImage.fromPixels(Self.toneTable(shading: settings.number("shading") * (1 - 0.4 * sparse)), width: 256, height: 1, bands: 1)
        let tone = try toneSource.mapLUT(lut).linear(1.0 / 255, 0).clamped(0.02, 1).inMemory()
        // Hatching: every tone in strokes slanted like a right hand's; below `crossHatchBelow`
        // the rest of the tone in a second layer across the first.
        let hatchLength = max(0.1 * face, 6 * pixel), hatchWidth = max(1, 0.005 * face, 1.0 * pixel)
        let first = try PencilTexture(width: crop.width, height: crop.height, strokeLength: hatchLength,
                                      strokeWidth: hatchWidth, angle: -55, seed: context.seed)
        let second = try PencilTexture(width: crop.width, height: crop.height, strokeLength: 0.8 * hatchLength,
                                       strokeWidth: hatchWidth, angle: 35, seed: context.seed &+ 1)
        let light = try tone.clamped(Self.crossHatchBelow, 1)
        // Three parts strokes to two parts smudge of the same tone: strokes, not scratches. In
        // the photo's blacks (a dark room behind a head) the smudge takes over, down to one part
        // strokes in four: a dark wall is not drawn as a cloud of scribbles.
        let strokes = try first.shading(light).multiply(second.shading(tone.divide(light)))
        let strokeShare = try toneSource.linear(1.0 / (255 * 0.15), -0.05 / 0.15).clamped().linear(0.35, 0.25)
        let hatched = try tone.add(strokes.subtract(tone).multiply(strokeShare))
        let drawing = try lines.multiply(hatched)

        // Paper grain, on the paper and in the graphite alike: the paper a little below white,
        // so its grain is not clipped away.
        let grain = try VipsImage.paperGrain(width: crop.width, height: crop.height,
                                             grainSize: max(0.5, 0.003 * face, 0.4 * pixel), seed: context.seed)
        let k = 0.06 * settings.number("grain")
        let textured = try drawing.multiply(grain.linear(-k, 0.97))
        // Its 8-bit cast clips to 0...1.
        return try textured.unitToGreyRGB().tinted(like: crop, amount: settings.number("colour"))
    }
}
