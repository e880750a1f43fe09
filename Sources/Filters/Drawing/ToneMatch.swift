import Vips

/// Sets a drawing's lightness, area by area, to the photo's: the drawing's CIELAB lightness is
/// scaled by the ratio of the photo's local mean lightness to its own (means over a gaussian
/// window `reach` pixels wide). Lines stay darker than their surroundings by the same
/// proportion; a drawing of a face in a dark room comes out as dark as the face was. Hue is
/// the drawing's own, its chroma scaled with the lightness (none for a grey drawing). A grey
/// drawing's lights are lifted towards paper (`lifted`).
public enum ToneMatch {
    public static func apply(_ drawing: VipsImage, like photo: VipsImage, reach: Double) throws -> VipsImage {
        // The drawing is read for its lightness and again for its chroma: computed once (a
        // style's whole pipeline would otherwise run twice).
        let drawn = try drawing.colourspace("lab").inMemory()
        let lightness = try drawn.extractBands(0)
        let target = try photo.colourspace("lab").extractBands(0)
        let sigma = max(1, reach)
        // A grey drawing (graphite, charcoal, ink) is on paper: its lights are lifted towards
        // white. A coloured one (a cartoon's bands, a relief's material, coloured pencil) keeps
        // the photo's lightness, lifted the less the more colour it has (not at all from a
        // chroma of 12).
        let ab = try drawn.extractBands(1, count: 2)
        let chromaMagnitude = try VipsImage.complexForm(ab.extractBands(0), ab.extractBands(1)).absolute()
        let paper = try chromaMagnitude.broadBlur(sigma: sigma).linear(-1.0 / 12, 1).clamped()
        // Read twice (lightness and chroma): computed once, the size of the crop.
        let gain = try lifted(target.broadBlur(sigma: sigma).inMemory(), paper: paper)
            .divide(lightness.broadBlur(sigma: sigma).linear(1, 1)).inMemory()
        let matched = try lightness.multiply(gain).clamped(0, 100)
        // Chroma scales with lightness, as it does when less light falls on a surface: colours
        // drawn from a brightened crop are not left glowing in a dark room.
        let chroma = try drawn.extractBands(1, count: 2).multiply(gain.clamped(0, 1.5))
        return try VipsImage.bandjoin([matched, chroma]).reinterpreted(as: "lab")
            .colourspace("srgb").cast("uchar")
    }

    /// How much of the way to white the lights are lifted: paper shows where the photo is light.
    static let paperLift = 0.6

    /// A local mean lightness (CIELAB L) with its lights lifted towards white where the drawing
    /// is paper (`paper`, 0...1): L + lift (100 - L) s paper, s rising smoothly from 0 at L 45
    /// to 1 at L 85. Shadows, dark rooms and the darker half of a face are left as they are.
    static func lifted(_ lightness: VipsImage, paper: VipsImage) throws -> VipsImage {
        let x = try lightness.linear(1.0 / 40, -45.0 / 40).clamped()
        let s = try x.multiply(x).multiply(x.linear(-2, 3)).multiply(paper)
        return try lightness.add(lightness.linear(-paperLift, 100 * paperLift).multiply(s))
    }
}
