import Foundation
import Vips

/// Pen hatching whose strokes follow the form: short tapered lines along the face's edge
/// tangent flow for mid tones, crossed by layers across it and at the diagonals for darker ones.
///
/// Each layer is a line integral convolution of seeded sparse dots along the flow turned by the
/// layer's angle (after Mao, Nagasaka & Imamiya 2001): a dot is drawn out into a stroke, and the
/// chance of a dot follows the tone, so darker areas get denser strokes. A thin pen outline
/// (flow-based DoG) keeps the contours. Stroke length and spacing follow the face size.
public struct HatchingFilter: SketchFilter {
    public let id = "hatching"
    public let name = "Hatching"
    public let summary = "Pen hatching along the face's form: strokes along the flow, crossed for darker tones."
    public let parameters: [FilterParameter] = [
        FilterParameter("spacing", .number(range: 0.008...0.08, defaultValue: 0.03),
                        "Stroke width and spacing as a fraction of the face size."),
        FilterParameter("angle", .number(range: 0...180, defaultValue: 0),
                        "Direction of the first (lightest) layer, in degrees from the flow (0 = along the face's edges)."),
        FilterParameter("layers", .integer(range: 1...4, defaultValue: 3),
                        "How many crossing layers the darkest tones get."),
        FilterParameter("outline", .number(range: 0...1, defaultValue: 0.7),
                        "Strength of the contour lines drawn over the hatching."),
        FilterParameter("lightness", .number(range: -0.3...0.3, defaultValue: 0),
                        "Shifts tones before hatching: positive leaves more paper, negative hatches more."),
    ]

    /// Tone below which each layer starts, lightest layer first, and its angle from the first.
    static let layerTones: [Double] = [0.8, 0.55, 0.35, 0.2]
    static let layerAngles: [Double] = [0, 90, 45, -45]

    public init() {}

    public var drawsOnPaper: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let spacing = max(1.5, settings.number("spacing") * face)
        let grey = try crop.colourspace("b-w").extractBands(0).softened(sigma: max(0.5, 0.004 * face), eightBit: true).inMemory()
        let tone = try grey.softened(sigma: max(1, 0.012 * face), eightBit: true).linear(1.0 / 255, settings.number("lightness"))
        let flow = max(1, 0.03 * face)

        var paper = try VipsImage.constant(like: grey, 1)
        for layer in 0..<settings.integer("layers") {
            // Coverage grows from nothing at the layer's tone to most of the paper in black.
            let start = Self.layerTones[layer]
            let density = try tone.linear(-0.9 / start, 0.9).clamped().linear(255, 0)
            let strokes = try PortraitOperations.flowHatching(
                grey, density: density, flowSigma: flow, angle: settings.number("angle") + Self.layerAngles[layer],
                length: max(4, 3 * spacing), width: max(0.7, spacing * 0.22), seed: context.seed &+ layer)
            paper = try paper.multiply(strokes.linear(0.8 / 255, 0.2))
        }
        let outline = try PortraitOperations.flowLines(
            grey, flowSigma: flow, lineSigma: max(0.5, 0.0025 * face), flowLength: max(1.5, 0.02 * face),
            rho: 0.99, sharpness: 60).linear(1.0 / 255, 0)
        paper = try paper.multiply(outline.linear(settings.number("outline"), 1 - settings.number("outline")))
        return try paper.clamped().unitToGreyRGB()
    }
}
