import CPortrait
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
/// scattered strokes. Each set starts under a tone (0.9, 0.5, 0.25) and turns from the first
/// (0, 90, -45 degrees). Drawn in one pass (`sk_hatching`), in place of some fifty libvips
/// operations.
public struct HatchingFilter: SketchFilter {
    public let id = "hatching"
    public let name = "Hatching"
    public let summary = "Pen hatching: evenly spaced lines curving over the form, crossed in the shadows, fine outlines."
    public let judged: String? = "Judged blind against G'MIC's `fx_engrave`, `hardsketchbw` and `sketchbw` on 21 faces (13 of 80 px or less), each run on the whole photo: a face drawn alone into its colour photo ranks first on mean rank (1.10 against 2.22, 2.99 and 3.69, with judges who all ranked the face; 1.65 against 1.86 in a line-up before its small faces got finer lines, where three of five judges put a drawing of the whole picture first) and was never last; ahead of `fx_engrave` on faces of 80 px or less (60 to 5, where it had trailed 30 to 35); with the whole photo drawn (`--background-filter hatching`) hatching ranks first."
    public let parameters: [FilterParameter] = [
        FilterParameter("spacing", .number(range: 0.008...0.045, defaultValue: 0.018),
                        "Distance between lines as a fraction of the face size (never under 2 pixels of the photo)."),
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

    public init() {}

    public var takesPhotoTone: Bool { true }
    /// Its lines keep their contrast where the tone match darkens it, as pencil's do: a blind
    /// A/B preferred it 56 to 7 on the 21 panel faces, and 27 to 9 on dark-skinned faces
    /// (docs/look-panel.md).
    public var shadowContrast: Double { 2 }
    public var scalesWithFace: Bool { true }

    /// Lines are never closer than this many pixels of the photo: the spacing of every face under
    /// ~110 px. At 2.5, as before, a small face's lines at 60 degrees fall between the photo's
    /// pixels and alias into a checker of dots seen enlarged; the judges did not see it, but saw
    /// line weight: two blind A/Bs on the 13 panel faces of 80 px or less preferred finer lines,
    /// 2.5 over 3 by 42 to 23 and 2 over 2.5 by 44 to 21 ("finer hatching keeps the likeness",
    /// "coarse stripes hide the features"; docs/look-panel.md).
    static let closestLines = 2.0

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let spacing = max(Self.closestLines * context.photoPixel, Self.closestLines, settings.number("spacing") * face)
        // How fully the face is hatched: 1 when it has room for 30 lines or more across, 0 at
        // 16 or fewer (a face some 32 pixels across in the photo). Fewer lines cannot draw a
        // face, only stripe it: a small face's tone is lightened before it is hatched (half-way:
        // lines in its half-tones and shadows, light skin), with solid darks in the eyes, brows
        // and mouth, and a stronger outline (sk_hatching).
        let fullness = min(1, max(0, (face / spacing - 16) / 14))
        let sparse = 1 - fullness
        let seeds = PortraitOperations.seeds(of: context.faces)
        return try seeds.withUnsafeBufferPointer { seeds in
            let plan = sk_hatching_plan(
                face_size: Float(face), grey_sigma: Float(max(0.5, 0.004 * face)), spacing: Float(spacing),
                sparse: Float(sparse),
                // The tone the lines carry: smooth (over 0.6 spacings), the features' contrast
                // lifted against this broad blur, so eyes, brows and mouth keep their weight.
                broad_sigma: Float(max(2, 0.12 * face)),
                lightness: Float(settings.number("lightness")), bend: Float(settings.number("bend")),
                angle: Float(settings.number("angle")), layers: Int32(settings.integer("layers")),
                outline: Float(min(1, settings.number("outline") * (1 + 0.4 * sparse))),
                flow_sigma: Float(max(1, 0.02 * face)),
                line_sigma: Float(max(0.5, 0.003 * face, 0.6 * context.photoPixel)),
                flow_length: Float(max(1.5, 0.02 * face)),
                faces: seeds.baseAddress, face_count: Int32(seeds.count),
                origin_x: Int32(context.origin.x), origin_y: Int32(context.origin.y))
            return try PortraitOperations.drawn(crop, plan: plan, operation: "hatching", by: sk_hatching)
        }
    }
}
