import CPortrait
import Vips

/// Cartoon: flat areas of colour with bold black outlines.
///
/// Colours are flattened by repeated bilateral filtering (edge-preserving: skin becomes flat,
/// the jaw's and eyes' edges stay sharp) on a copy where the face is about 160 pixels across,
/// then lightness is posterised into a few bands in CIELAB while hue and chroma stay smooth and
/// slightly boosted. Outlines are coherent lines along the edge tangent flow (flow-based DoG):
/// long strokes on real edges, no specks from skin texture or noise.
public struct CartoonFilter: SketchFilter {
    public let id = "cartoon"
    public let name = "Cartoon"
    public let summary = "Cartoon: flattened, posterised colours with bold black outlines."
    public let judged: String? = "Judged blind against OpenCV's `stylization` on 21 faces: first in 101 of 105 judgements."
    public let parameters: [FilterParameter] = [
        FilterParameter("levels", .integer(range: 2...12, defaultValue: 5),
                        "Number of lightness bands the colours are flattened into."),
        FilterParameter("smoothing", .number(range: 0.005...0.06, defaultValue: 0.02),
                        "Reach of the smoothing as a fraction of the face size: larger flattens more detail."),
        FilterParameter("outline", .number(range: 0...1, defaultValue: 0.7),
                        "How many edges get a black outline (0 = none)."),
        FilterParameter("thickness", .number(range: 0.002...0.02, defaultValue: 0.008),
                        "Outline width as a fraction of the face size."),
        FilterParameter("saturation", .number(range: 0...2, defaultValue: 1.25),
                        "Colour strength of the flattened areas (1 = as photographed)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        // Edge-preserving flattening on a copy with the face ~160 px across (never enlarged).
        let scale = min(1, 160 / max(face, 1))
        let outline = settings.number("outline")
        let plan = sk_cartoon_plan(
            scale: Float(scale), reach: Float(max(1.5, settings.number("smoothing") * face * scale)),
            // Posterised lightness (smoothed before banding, so bands follow the face's forms,
            // not its blotches); hue and chroma smooth, gently boosted.
            lightness_sigma: Float(max(0.5, 0.008 * face)), chroma_sigma: Float(max(0.5, 0.006 * face)),
            levels: Int32(settings.integer("levels")), saturation: Float(settings.number("saturation")),
            // Outlines: coherent lines along the flow of the flattened picture, as bold as asked.
            // A face drawn at about its size keeps outlines about a pixel of the photo wide; an
            // enlarged small face gets thinner ones, and fewer (only its strongest edges).
            outline: Float(outline), flow_sigma: Float(max(1, 0.02 * face)),
            line_sigma: Float(max(1.1 * context.photoPixel.squareRoot(), settings.number("thickness") * face * 0.7)),
            flow_length: Float(max(2, 0.03 * face)), rho: Float(0.94 + 0.055 * outline - 0.015 * max(0, context.photoPixel - 1)))
        return try PortraitOperations.drawn(crop, plan: plan, operation: "cartoon", by: sk_cartoon)
    }
}
