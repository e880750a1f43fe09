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
        FilterParameter("spacing", .number(range: 0.008...0.045, defaultValue: 0.018),
                        "Distance between lines as a fraction of the face size (never under 2.5 pixels of the photo)."),
        FilterParameter("angle", .number(range: 0...180, defaultValue: 60),
                        "Direction of the first set of lines, in degrees (0 = horizontal, 90 = vertical)."),
        FilterParameter("layers", .integer(range: 1...3, defaultValue: 3),
                        "How many crossing sets of lines the darkest tones get."),
        FilterParameter("bend", .number(range: 0...0.6, defaultValue: 0.3),
                        "How much the lines curve over the head's form (0 = straight lines)."),
        FilterParameter("outline", .number(range: 0...1, defaultValue: 0.7),
                        "Strength of the fine pen outline drawn over the hatching."),
        FilterParameter("lightness", .number(range: -0.15...0.15, defaultValue: 0),
                        "Shifts tones before hatching: positive leaves more paper, negative hatches more."),
    ]

    /// Each set of lines: the tone under which it starts, and its angle from the first set.
    static let layers: [(tone: Double, angle: Double)] = [(0.9, 0), (0.5, 90), (0.25, -45)]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let spacing = max(2.5 * context.photoPixel, 2.5, settings.number("spacing") * face)
        // How fully the face is hatched: 1 when it has room for 30 lines or more across, 0 at
        // 16 or fewer (a face some 40 pixels across in the photo). Fewer lines cannot draw a
        // face, only stripe it: a small face gets lines in its shadows only, light skin, solid
        // darks in the eyes, brows and mouth, and a stronger outline.
        let fullness = min(1, max(0, (face / spacing - 16) / 14))
        let sparse = 1 - fullness
        let grey = try crop.smoothedGrey(sigma: max(0.5, 0.004 * face))
        // The tone the lines carry: smooth, with the features' contrast lifted so eyes, brows
        // and mouth keep their weight against the cheeks.
        // Read twice (the tone and its broad blur): computed once.
        let smooth = try grey.softened(sigma: max(1, 0.6 * spacing), eightBit: true).linear(1.0 / 255, 0).inMemory()
        let broad = try smooth.broadBlur(sigma: max(2, 0.12 * face), origin: context.origin).inMemory()
        let tone = try smooth.linear(1.5 + 0.3 * sparse, settings.number("lightness") + 0.06 * sparse)
            .subtract(broad.linear(0.5 + 0.3 * sparse, 0)).inMemory()

        // The surface the lines lie on: domes over the heads, and the photo's broad relief,
        // in line spacings.
        let coordinates = try VipsImage.coordinates(width: crop.width, height: crop.height)
        var height = try broad.linear(0.35 * face, 0)
        if let domes = try HeadDome.height(over: context.faces, width: crop.width, height: crop.height, origin: context.origin) {
            height = try height.add(domes.linear(face, 0))
        }
        let phaseOffset = try height.linear(settings.number("bend") / spacing, 0).inMemory()

        var paper: VipsImage?
        for layer in Self.layers.prefix(settings.integer("layers")) {
            let radians = (settings.number("angle") + layer.angle + 90) * .pi / 180
            // A small face's lines start in darker tones: its skin stays paper.
            let start = layer.tone * (1 - 0.3 * sparse)
            // The coordinate across the lines, in line spacings.
            let across = try coordinates.linear([cos(radians) / spacing, sin(radians) / spacing],
                                                [cos(radians) / spacing * Double(context.origin.x),
                                                 sin(radians) / spacing * Double(context.origin.y)])
            // The phase (offset to keep it positive) taken modulo 1 reads it once; the distance
            // to the nearest line is then 0.5 - |fraction - 0.5| spacings.
            let phase = try across.extractBands(0).add(across.extractBands(1)).add(phaseOffset).linear(1, 8192)
            let fraction = try phase.remainder(1)
            let distance = try fraction.linear(1, -0.5).absolute().linear(-spacing, 0.5 * spacing) // pixels to the nearest line
            // Half a line's width: nothing at the layer's starting tone, most of the spacing in black.
            let halfWidth = try tone.linear(-0.42 * spacing / start, 0.42 * spacing).clamped(0, 0.42 * spacing).inMemory()
            // Antialiased over a pixel; a line thinner than a pixel fades in, so no width is no
            // ink. In 8 bits (255 = full ink): the casts clamp, and the layers multiply as bytes.
            let fade = try halfWidth.linear(510, 0).cast(.uchar)
            let edge = try halfWidth.subtract(distance).linear(255, 127.5).cast(.uchar)
            let left = try edge.multiply(fade).linear(-1.0 / 255, 255).cast(.uchar)
            paper = try paper.map { try $0.multiply(left).linear(1.0 / 255, 0).cast(.uchar) } ?? left
        }
        var drawing = try (paper ?? VipsImage.constant(like: grey, 255).cast(.uchar)).linear(1.0 / 255, 0)
        if sparse > 0 {
            // Solid darks where the tone is deepest (pupils, brows, nostrils, the mouth's line):
            // the features a few lines could not draw.
            let solid = try tone.linear(-1 / 0.2, 0.3 / 0.2).clamped(0, 1).linear(-0.6 * sparse, 1)
            drawing = try drawing.multiply(solid)
        }
        let outline = min(1, settings.number("outline") * (1 + 0.4 * sparse))
        guard outline > 0 else { return try drawing.clamped().unitToGreyRGB() }
        let lines = try PortraitOperations.flowLines(
            grey, flowSigma: max(1, 0.02 * face), lineSigma: max(0.5, 0.003 * face, 0.6 * context.photoPixel),
            flowLength: max(1.5, 0.02 * face), rho: 0.985, sharpness: 60).linear(1.0 / 255, 0)
        drawing = try drawing.multiply(lines.linear(outline, 1 - outline))
        return try drawing.clamped().unitToGreyRGB()
    }
}
