import Vips

/// Leaves the face exactly as photographed (useful with a background style, or per face).
public struct NoneFilter: SketchFilter {
    public let id = "none"
    public let name = "None"
    public let summary = "The face as photographed, unchanged."
    public let parameters: [FilterParameter] = []

    public init() {}

    public var leavesFacesAsTheyAre: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        crop
    }
}
