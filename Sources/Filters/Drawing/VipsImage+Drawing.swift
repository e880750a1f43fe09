import Vips

/// Small building blocks the styles share. Every one is a libvips operation; nothing here
/// touches pixels in Swift.
extension VipsImage {
    /// A one-band image in 0...1 (float) as a grey 3-band 8-bit sRGB picture.
    func unitToGreyRGB() throws -> VipsImage {
        // Computed once into memory (one band, the crop's size), then joined: a bandjoin of
        // the lazy drawing with itself would run parts of its pipeline again for each band.
        let grey = try linear(255, 0).cast(.uchar).inMemory()
        return try VipsImage.bandjoin([grey, grey, grey]).reinterpreted(as: .srgb)
    }

    /// A grey drawing (3-band 8-bit sRGB) given `amount` of the hue and chroma of `photo` at the
    /// same pixels, its lightness kept: coloured pencil or pastel. The drawing itself at 0.
    func tinted(like photo: VipsImage, amount: Double) throws -> VipsImage {
        guard amount > 0 else { return self }
        let lightness = try colourspace(.lab).extractBands(0)
        let chroma = try photo.colourspace(.lab).extractBands(1, count: 2).linear(amount, 0)
        return try VipsImage.bandjoin([lightness, chroma]).reinterpreted(as: .lab).colourspace(.srgb).cast(.uchar)
    }

    /// Clamps every value to `lower...upper` (float out).
    ///
    /// The median of (value, lower, upper): one operation that reads `self` once. (A test and
    /// a choice per bound reads it four times, and libvips recomputes a pipeline for every
    /// reader: that had the whole pencil drawing computed four times over.)
    func clamped(_ lower: Double = 0, _ upper: Double = 1) throws -> VipsImage {
        let bounds = [try VipsImage.constant(like: self, lower), try VipsImage.constant(like: self, upper)]
        return try VipsImage.bandrank([self] + bounds, index: 1)
    }

    /// A float image the size of `other` with every pixel `value`.
    static func constant(like other: VipsImage, _ value: Double) throws -> VipsImage {
        let black = try VipsImage.black(width: other.width, height: other.height)
        return try black.linear(0, value)
    }

    /// How far (pixels) a gaussian blur of `sigma` reaches beyond a pixel: the margin a crop
    /// needs around it for the blur to see real pixels up to its edges.
    static func blurMargin(sigma: Double) -> Int { Int((sigma * 3).rounded(.up)) + 1 }

    /// Gaussian blur with the border mirrored, so tones near the crop edge do not darken.
    ///
    /// `eightBit` blurs an 8-bit image with libvips' integer kernel into 8 bits: about three
    /// times faster than the float kernel and within 2 levels of it (its weights are rounded),
    /// for layers where that cannot be seen. Otherwise the blur is computed and returned in float.
    func softened(sigma: Double, eightBit: Bool = false) throws -> VipsImage {
        guard sigma >= 0.3 else { return self }
        let pad = Self.blurMargin(sigma: sigma)
        let padded = try embed(x: pad, y: pad, width: width + 2 * pad, height: height + 2 * pad, extend: "mirror")
        let source = eightBit && format != .uchar ? try padded.cast(.uchar) : padded
        return try source.gaussianBlur(sigma: sigma, minAmplitude: 0.05, precision: eightBit ? "integer" : "float")
            .crop(x: pad, y: pad, width: width, height: height)
    }
}
