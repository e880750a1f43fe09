import Vips

/// Sets a drawing's lightness, area by area, to the photo's: the drawing is scaled by the ratio
/// of the photo's local mean luma to its own (means over a gaussian window `reach` pixels
/// wide). Lines stay darker than their surroundings by the same proportion; a drawing of a face
/// in a dark room comes out as dark as the face was. A coloured drawing keeps its hue, its
/// chroma scaled with the lightness, as when less light falls on a surface.
///
/// The local means are smooth, so they are taken on copies reduced until the window is about
/// three pixels wide; the full-size pixels are read once for the means and touched once by the
/// gain. (Matching CIELAB lightness at full size cost ~80 ms per 1080p face: half a pencil
/// clip's CPU.)
public enum ToneMatch {
    public static func apply(_ drawing: VipsImage, like photo: VipsImage, reach: Double) throws -> VipsImage {
        let sigma = max(1, reach)
        let factor = max(1, sigma / 3)
        // Read for its mean and for the result: computed once.
        let drawn = try drawing.inMemory()
        let photoMean = try luma(photo).reduce(by: factor).softened(sigma: sigma / factor)
        let drawnMean = try luma(drawn).reduce(by: factor).softened(sigma: sigma / factor)
        let gain = try photoMean.divide(drawnMean.linear(1, 1)).inMemory()
        let enlarged = try gain.resize(scale: Double(drawn.width) / Double(gain.width),
                                       verticalScale: Double(drawn.height) / Double(gain.height), kernel: "cubic")
            .embed(x: 0, y: 0, width: drawn.width, height: drawn.height, extend: "copy")
            .crop(x: 0, y: 0, width: drawn.width, height: drawn.height)
        let rgb = drawn.bands >= 3 ? try drawn.extractBands(0, count: 3) : try VipsImage.bandjoin([drawn, drawn, drawn])
        return try rgb.multiply(enlarged).cast("uchar").reinterpreted(as: "srgb")
    }

    /// Rec. 709 luma of an RGB image (the grey itself for one band), 0...255.
    static func luma(_ image: VipsImage) throws -> VipsImage {
        guard image.bands >= 3 else { return try image.extractBands(0) }
        return try image.extractBands(0, count: 3).recombined([[0.2126, 0.7152, 0.0722]])
    }
}
