import Vips

/// Pen and ink: crisp black lines that follow the face's form, and shadows hatched with the pen
/// (cross-hatched, then solid black, as they deepen), on white paper.
///
/// The lines are the flow-based difference of gaussians (Kang, Lee & Chui 2007), made crisp by a
/// steep ramp: pure ink or paper, a pixel of antialiasing. The shadows are a pen's hatching
/// (`PenHatching`): a diagonal layer of strokes whose width follows how dark the photo is there,
/// and a crossing layer for the darker tones, which closes up into solid ink in the deepest.
/// Every pixel is paper white or ink black but for the antialiasing. The hatching covers about as
/// much paper as the photo is dark (less in the lights, more in the shadows), so matching the
/// drawing's lightness to the photo's afterwards changes it little: the shadows keep pure black
/// and white, the lights' paper is greyed a little (to the photo's lightness). Marks are never finer
/// than the photo's pixels allow (`photoPixel`): a small face gets fewer, bolder ones.
public struct InkFilter: SketchFilter {
    public let id = "ink"
    public let name = "Ink"
    public let summary = "Pen and ink: crisp black lines along the face's form, shadows hatched and cross-hatched on white paper."
    public let parameters: [FilterParameter] = [
        FilterParameter("line", .number(range: 0.001...0.012, defaultValue: 0.0035),
                        "Line width as a fraction of the face size."),
        FilterParameter("detail", .number(range: 1...100, defaultValue: 20),
                        "How faint an edge still gets a line: higher draws more and finer lines."),
        FilterParameter("threshold", .number(range: 0...1, defaultValue: 0.85),
                        "Lightness (0 black ... 1 white) below which the pen starts hatching: higher hatches more of the face."),
        FilterParameter("sharpness", .number(range: 1...200, defaultValue: 40),
                        "How crisp the lines are: higher is nearer pure black, lower is softer and thinner."),
        FilterParameter("wash", .number(range: 0...1, defaultValue: 1),
                        "How much of the shadows the pen fills with hatching and solid ink (0 = lines on white paper only)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize, pixel = max(1, context.photoPixel)
        // Lightness in 8 bits (libvips' grey: within a few levels of the CIELAB L* the tone match
        // uses). A face in a dark room arrives brightened to a normal exposure (`FaceExposure`).
        let lit = try crop.colourspace(.bw).extractBands(0).inMemory()
        let grey = try lit.softened(sigma: max(0.5, 0.004 * face), eightBit: true).inMemory()

        // Lines: the flow DoG, then a steep ramp to pure ink. Never thinner than ~a photo pixel.
        let sharpness = settings.number("sharpness")
        let lines = try PortraitOperations.flowLines(
            grey, flowSigma: max(1, 0.02 * face), lineSigma: max(0.45 * pixel, settings.number("line") * face),
            flowLength: max(1.5, 0.025 * face), rho: 1 - 0.2 / settings.number("detail"), sharpness: sharpness * 2)
        let edge = 150 + 78 * min(1, sharpness / 40)   // lower sharpness keeps only the cores of the lines
        let lineInk = try lines.linear(-1.0 / 40, edge / 40 + 0.5).clamped()

        // How much ink the tone asks for: none above `threshold`, all at black; less than the
        // photo's darkness in the lights (they read as paper), more in the shadows.
        let threshold = max(0.05, settings.number("threshold")), wash = settings.number("wash")
        let tone = try lit.softened(sigma: max(1.2 * pixel, 0.01 * face), eightBit: true)
        let coverage = try tone.linear(-wash / threshold / 255, wash).clamped().math2("pow", constant: [1.15]).inMemory()
        // A small face (enlarged for drawing) gets fewer, bolder marks: its mid tones are left to
        // the lines and only its deep shadows are filled, as solid ink.
        let small = min(1, max(0, (pixel - 1.1) / 0.9))
        let spacing = max((3.2 + 1.3 * small) * pixel, 0.028 * face)
        // Single hatching up to half the paper, the crossing strokes beyond, solid ink at the last.
        let hatched = try coverage.linear(1 - 0.75 * small, 0)
        let pen = try PenHatching(width: crop.width, height: crop.height, spacing: spacing, seed: context.seed,
                                  origin: context.origin)
        let single = try pen.layer(coverage: hatched.linear(1.25, 0).clamped(0, 0.7), angle: 45, spacing: spacing)
        let cross = try pen.layer(coverage: hatched.linear(1.6, -0.62).clamped(), angle: -40, spacing: spacing * 1.1, sway: -0.8)
        let solid = try coverage.linear(12, -12 * (0.72 - 0.12 * small)).clamped()
        let ink = try VipsImage.bandrank([lineInk, single, cross, solid], index: 3)
        return try ink.linear(-1, 1).unitToGreyRGB()
    }
}
