import Foundation
import Vips

/// Pen hatching, as an engraver or an illustrator draws a face: clean parallel lines at an even
/// spacing that bend over the form, thicker where the tone is darker, crossed by a second set
/// in the shadows and a third in the deepest darks, with a fine pen outline for the features.
///
/// Each set of lines is the level lines of a coordinate across them plus a height field
/// (`bend` of it): a dome over each head and the photo's broad relief. Lines that are the
/// level lines of `u + height` are the cross-sections of that surface by parallel planes, so
/// they curve round the head and over the cheeks as cross-contour lines do. A line's width is
/// set by the tone under it, so tone is carried by line weight at a constant spacing, never by
/// scattered strokes.
public struct HatchingFilter: SketchFilter {
    public let id = "hatching"
    public let name = "Hatching"
    public let summary = "Pen hatching: evenly spaced lines curving over the form, crossed in the shadows, fine outlines."
    public let parameters: [FilterParameter] = [
        FilterParameter("spacing", .number(range: 0.008...0.08, defaultValue: 0.028),
                        "Distance between lines as a fraction of the face size (never under three pixels of the photo)."),
        FilterParameter("angle", .number(range: 0...180, defaultValue: 60),
                        "Direction of the first set of lines, in degrees (0 = horizontal, 90 = vertical)."),
        FilterParameter("layers", .integer(range: 1...3, defaultValue: 3),
                        "How many crossing sets of lines the darkest tones get."),
        FilterParameter("bend", .number(range: 0...0.6, defaultValue: 0.3),
                        "How much the lines curve over the head's form (0 = straight lines)."),
        FilterParameter("outline", .number(range: 0...1, defaultValue: 0.7),
                        "Strength of the fine pen outline drawn over the hatching."),
        FilterParameter("lightness", .number(range: -0.3...0.3, defaultValue: 0),
                        "Shifts tones before hatching: positive leaves more paper, negative hatches more."),
    ]

    /// Each set of lines: the tone under which it starts, and its angle from the first set.
    static let layers: [(tone: Double, angle: Double)] = [(0.9, 0), (0.5, 90), (0.25, -45)]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let spacing = max(3 * context.photoPixel, 2.5, settings.number("spacing") * face)
        let grey = try crop.colourspace("b-w").extractBands(0).softened(sigma: max(0.5, 0.004 * face), eightBit: true).inMemory()
        // The tone the lines carry: smooth, with the features' contrast lifted so eyes, brows
        // and mouth keep their weight against the cheeks.
        let smooth = try grey.softened(sigma: max(1, 0.6 * spacing)).linear(1.0 / 255, 0)
        let broad = try smooth.broadBlur(sigma: max(2, 0.12 * face))
        let tone = try smooth.linear(1.5, settings.number("lightness")).subtract(broad.linear(0.5, 0)).inMemory()

        // The surface the lines lie on: domes over the heads, and the photo's broad relief.
        let coordinates = try VipsImage.coordinates(width: crop.width, height: crop.height)
        var height = try broad.linear(0.35 * face, 0)
        for f in context.faces {
            height = try height.add(Self.dome(over: f, coordinates: coordinates).linear(face, 0))
        }
        height = try height.linear(settings.number("bend"), 0).inMemory()

        var paper = try VipsImage.constant(like: grey, 1)
        for layer in Self.layers.prefix(settings.integer("layers")) {
            let radians = (settings.number("angle") + layer.angle + 90) * .pi / 180
            // The coordinate across the lines, in line spacings.
            let across = try coordinates.linear([cos(radians) / spacing, sin(radians) / spacing], [0, 0])
            let phase = try across.extractBands(0).add(across.extractBands(1)).add(height.linear(1 / spacing, 0))
            let distance = try phase.subtract(phase.rounded()).absolute().linear(spacing, 0) // pixels to the nearest line
            // Half a line's width: nothing at the layer's starting tone, most of the spacing in black.
            let halfWidth = try tone.linear(-0.42 * spacing / layer.tone, 0.42 * spacing).clamped(0, 0.42 * spacing)
            // Antialiased over a pixel; a line thinner than a pixel fades in, so no width is no ink.
            let ink = try halfWidth.subtract(distance).linear(1, 0.5).clamped().multiply(halfWidth.linear(2, 0).clamped())
            paper = try paper.multiply(ink.linear(-1, 1))
        }
        let outline = settings.number("outline")
        let lines = try PortraitOperations.flowLines(
            grey, flowSigma: max(1, 0.02 * face), lineSigma: max(0.5, 0.003 * face, 0.6 * context.photoPixel),
            flowLength: max(1.5, 0.02 * face), rho: 0.985, sharpness: 60).linear(1.0 / 255, 0)
        paper = try paper.multiply(lines.linear(outline, 1 - outline))
        return try paper.clamped().unitToGreyRGB()
    }

    /// A smooth dome over a head: 1 at its middle (a little above the face's centre, where the
    /// skull is), falling off like a gaussian over the head's width and height.
    static func dome(over face: FaceRegion, coordinates: VipsImage) throws -> VipsImage {
        let cx = face.x + face.width / 2, cy = face.y + face.height * 0.4
        let sx = 0.6 * face.width, sy = 0.8 * face.height
        let offset = try coordinates.linear([1 / sx, 1 / sy], [-cx / sx, -cy / sy])
        let squared = try offset.multiply(offset)
        return try squared.extractBands(0).add(squared.extractBands(1)).linear(-0.5, 0).math("exp")
    }
}
