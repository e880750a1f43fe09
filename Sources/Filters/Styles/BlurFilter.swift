import Vips

/// Privacy blur: a strong gaussian blur whose radius follows the face size.
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
        return try crop.broadBlur(sigma: sigma).cast(.uchar).reinterpreted(as: .srgb)
    }
}
