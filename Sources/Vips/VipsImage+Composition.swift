/// libvips operations that make, join, place and measure images, typed (the rest of the
/// project calls no libvips operation by name).
extension VipsImage {
    /// Which way `joined` puts two images.
    public enum JoinDirection: String, Sendable {
        case horizontal, vertical
    }

    /// How `rounded` rounds.
    public enum Rounding: String, Sendable {
        /// To the nearest integer.
        case rint
        case floor, ceil
    }

    /// A black (0) image, `bands` bands of 8 bits.
    public static func black(width: Int, height: Int, bands: Int = 1) throws -> VipsImage {
        try VipsCall.image("black", ["width": .int(width), "height": .int(height), "bands": .int(bands)])
    }

    /// `text` rendered (white on black, one band) in `font` ("sans bold 13") at `dpi`.
    public static func text(_ text: String, font: String, dpi: Int) throws -> VipsImage {
        try VipsCall.image("text", ["text": .string(text), "font": .string(font), "dpi": .int(dpi)])
    }

    /// This image and `other` side by side (`.horizontal`) or one above the other, `shim`
    /// pixels apart; with `expand`, the smaller is padded with `background` to the larger.
    public func joined(_ other: VipsImage, _ direction: JoinDirection, shim: Int = 0, expand: Bool = false,
                       background: [Double] = [0]) throws -> VipsImage {
        try VipsCall.image("join", [
            "in1": .image(self), "in2": .image(other), "direction": .nick(direction.rawValue), "shim": .int(shim),
            "expand": .bool(expand), "background": .doubles(background),
        ])
    }

    /// `images` in a grid `across` wide, `shim` pixels apart, on `background`.
    public static func arrayJoin(_ images: [VipsImage], across: Int, shim: Int = 0, background: [Double] = [0]) throws -> VipsImage {
        try VipsCall.image("arrayjoin", [
            "in": .images(images), "across": .int(across), "shim": .int(shim), "background": .doubles(background),
        ])
    }

    /// Each pixel repeated `x` times across and `y` times down (no filtering).
    public func zoomed(x: Int, y: Int) throws -> VipsImage {
        try VipsCall.image("zoom", ["input": .image(self), "xfac": .int(x), "yfac": .int(y)])
    }

    /// The remainder of each value divided by `divisor`.
    public func remainder(_ divisor: Double) throws -> VipsImage {
        try VipsCall.image("remainder_const", ["in": .image(self), "c": .doubles([divisor])])
    }

    /// Each value rounded (`.rint`: to the nearest integer).
    public func rounded(_ rounding: Rounding = .rint) throws -> VipsImage {
        try VipsCall.image("round", ["in": .image(self), "round": .nick(rounding.rawValue)])
    }

    /// For every pixel, the distance (in pixels) to the nearest non-zero pixel of this image.
    public func distanceToNearest() throws -> VipsImage {
        try VipsCall("fill_nearest", ["in": .image(self)]).image("distance")
    }

    /// The colour bands multiplied by the last (alpha) band, as a float image.
    public func premultiplied() throws -> VipsImage {
        try VipsCall.image("premultiply", ["in": .image(self)])
    }

    /// This image transformed by the 2×2 `matrix` ([a, b, c, d]: x' = a x + b y, y' = c x + d y)
    /// about the input offset `from` and placed at the output offset `to`, into the output
    /// rectangle `area` ([x, y, width, height]); `background` where nothing lands.
    public func affine(_ matrix: [Double], from: SIMD2<Double>, to: SIMD2<Double>, area: [Int],
                       premultiplied: Bool = false, background: [Double] = [0]) throws -> VipsImage {
        try VipsCall.image("affine", [
            "in": .image(self), "matrix": .doubles(matrix),
            "idx": .double(from.x), "idy": .double(from.y), "odx": .double(to.x), "ody": .double(to.y),
            "oarea": .ints(area), "premultiplied": .bool(premultiplied), "background": .doubles(background),
        ])
    }

    /// `overlay` (with alpha) laid over this image with its corner at (`x`, `y`), Porter-Duff "over".
    public func composited(_ overlay: VipsImage, x: Int, y: Int, premultiplied: Bool = false) throws -> VipsImage {
        try VipsCall.image("composite2", [
            "base": .image(self), "overlay": .image(overlay), "mode": .nick("over"),
            "x": .int(x), "y": .int(y), "premultiplied": .bool(premultiplied),
        ])
    }
}
