import CPortrait
import Vips

/// Privacy blur: a strong gaussian blur whose radius follows the face size. Drawn in one call
/// (`sk_blur`): above 6 pixels on a copy shrunk by blocks, blurred and enlarged, as the styles'
/// broad blur is (as eight libvips operations it cost a face ~12 ms on the bench clip).
public struct BlurFilter: SketchFilter {
    public let id = "blur"
    public let name = "Blur"
    public let summary = "Anonymise: a heavy gaussian blur scaled to the face."
    public let parameters: [FilterParameter] = [
        FilterParameter("strength", .number(range: 0.01...0.5, defaultValue: 0.08),
                        "Blur radius (sigma) as a fraction of the face size."),
    ]

    public init() {}

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let sigma = max(0.5, settings.number("strength") * context.faceSize)
        let plan = sk_blur_plan(sigma: Float(sigma), origin_x: Int32(context.origin.x), origin_y: Int32(context.origin.y))
        return try PortraitOperations.drawn(crop, plan: plan, operation: "blur", by: sk_blur)
    }
}
