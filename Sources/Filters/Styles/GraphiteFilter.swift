import Foundation
import Vips

/// Pencil drawing after Lu, Xu & Jia 2012 ("Combining sketch and tone for pencil drawing
/// production"): a directional stroke map (the gradient given to the one of eight directions
/// whose line gathers most of it, drawn out along that line), times a tone map (the photo's
/// grey levels matched to the tone distribution of real pencil drawings, `PencilTone`) rendered
/// with a pencil texture raised to the power that reaches each tone (solved smoothly in the log
/// domain). Strokes and texture are sized to the face; runs on a copy of the crop 100-300 px
/// across the face (`scalesWithFace`).
public struct GraphiteFilter: SketchFilter {
    public let id = "graphite"
    public let name = "Graphite"
    public let summary = "Pencil drawing after Lu, Xu & Jia 2012: strokes along the edges, tone laid in with a pencil texture."
    public let parameters: [FilterParameter] = [
        FilterParameter("stroke", .number(range: 0.02...0.3, defaultValue: 0.06), "Length of the outline strokes as a fraction of the face size."),
        FilterParameter("darkness", .number(range: 0.2...3, defaultValue: 1.0), "How dark the outline strokes are."),
        FilterParameter("texture", .number(range: 0.02...0.3, defaultValue: 0.1), "Length of the shading strokes as a fraction of the face size."),
        FilterParameter("colour", .number(range: 0...1, defaultValue: 0), "Coloured pencil: how much of the photo's colour the drawing takes (0 = graphite)."),
    ]
    public init() {}
    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let grey = try crop.smoothedGrey(sigma: max(0.5, 0.003 * face))
        let strokes = try PortraitOperations.pencilStrokes(grey.softened(sigma: max(0.7, 0.005 * face), eightBit: true).cast(.uchar), length: settings.number("stroke") * face,
                                                           width: max(1, 0.005 * face), gain: settings.number("darkness"),
                                                           faces: context.faces)
            .linear(1.0 / 255, 0)
        let toneSource = try grey.softened(sigma: max(1, 0.008 * face), eightBit: true).cast(.uchar).inMemory()
        // The tones matched are the faces' own (the whole crop where none is known): a light
        // wall around a face would otherwise push the face down into the dark strokes.
        let onFaces = try toneSource.histogram(over: context.faces)
        let table = PencilTone().lookupTable(for: onFaces.contains { $0 > 0 } ? onFaces : try toneSource.histogram()[0])
        let lut = try VipsImage.fromPixels(table, width: 256, height: 1, bands: 1)
        let tone = try toneSource.mapLUT(lut).linear(1.0 / 255, 0).clamped(0.03, 1)
        let lnH = try PencilTexture(width: crop.width, height: crop.height, strokeLength: settings.number("texture") * face,
                                    strokeWidth: max(1, 0.005 * face), angle: -55, seed: context.seed,
                                    origin: context.origin).logBrightness
        let lnJ = try tone.math("log")
        let reach = max(2, 0.02 * face)
        let beta = try lnH.multiply(lnJ).softened(sigma: reach).divide(lnH.multiply(lnH).softened(sigma: reach))
        let textured = try beta.multiply(lnH).math("exp")
        return try strokes.multiply(textured).clamped().unitToGreyRGB().tinted(like: crop, amount: settings.number("colour"))
    }
}
