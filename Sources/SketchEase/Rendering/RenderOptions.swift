/// How styled faces are cut out and blended back.
public struct RenderOptions: Sendable, Equatable, Codable {
    /// Each face box is grown by this factor about its centre before filtering (hair, chin).
    public var boxScale: Double
    /// Width of the soft edge of the elliptical mask, as a fraction of its radius (0 = hard edge).
    public var feather: Double
    /// A style for everything outside the faces (nil = the photo as it is). It runs on the
    /// whole image; faces are blended over it through their masks.
    public var background: FaceStyle?

    public init(boxScale: Double = 1.3, feather: Double = 0.3, background: FaceStyle? = nil) {
        self.boxScale = boxScale; self.feather = feather; self.background = background
    }
}
