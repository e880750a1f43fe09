import CPortrait
import Foundation
import Vips

/// Sets a drawing's lightness, area by area, to the photo's: the drawing is scaled so that its
/// local mean lightness (over a gaussian window `reach` pixels wide) is the photo's there. Lines
/// stay darker than their surroundings by the same proportion; a drawing of a face in a dark
/// room comes out as dark as the face was, at the exposure it is given (`PictureExposure`
/// lifts a picture with nothing white in it). A coloured drawing keeps its hue, its chroma scaled
/// with the lightness, as when less light falls on a surface. A grey drawing's lights are
/// lifted towards paper: L + `paperLift` (100 - L) s, s rising smoothly from 0 at L 45 to 1 at
/// L 85, and fading out as the drawing's chroma rises to `paperChroma` (a cartoon's bands, a
/// relief's material, coloured pencil keep their own colours). Shadows, dark rooms and the
/// darker half of a face are left as they are.
///
/// The local means are smooth, so they are taken on copies reduced until the window is about
/// three pixels wide; the full-size pixels are read once and multiplied once by the enlarged
/// gain, all in one call (CPortrait's `sk_tone_match`). (Matching in CIELAB at full size cost
/// ~80 ms per 1080p face; as a dozen libvips operations on reduced copies, ~5 ms.)
public enum ToneMatch {
    /// How much of the way to white the lights are lifted: paper shows where the photo is light.
    public static let paperLift = 0.6
    /// The drawing's chroma (CIELAB) from which its lights are not lifted at all.
    static let paperChroma = 12.0
    /// How far inside its region (a share of the face's size) an under-exposed photo's drawing
    /// reaches the exposure it is drawn at (`PictureExposure`); at the region's edge it is
    /// matched to the photo as it is. Lifted to its edge, a drawn head glowed in its dark room:
    /// the backdrop and hair its region takes in were lifted with it ("a glow around the head",
    /// "a halo"). Judged blind on 20 photos in dark rooms, 0.35 69 to 31 against none, 0.2 115
    /// to 85 over two rounds (`docs/look-panel.md`).
    public static let exposureRamp = 0.35

    /// `shadowContrast`: where a grey drawing is darkened (a gain g under 1), its own contrast
    /// about its local mean is raised to the power 1 + `shadowContrast` (1 - g), so its lines and
    /// strokes stay as legible as drawn where the photo is dark (0: scaled with it, as light
    /// falling off would). `exposure`: the photo is matched as if exposed that many times as
    /// long (its luminance times it; `PictureExposure`: an under-exposed picture's drawing is
    /// made at a normal exposure). `region`: the matte the drawing is laid in through; the
    /// exposure then rises from none at its edge to all of it `regionRamp` pixels inside, so an
    /// under-exposed photo's drawing meets the photo at the photo's own lightness (nil: all of
    /// it everywhere). `ownTone`: how much of the drawing's own lightness it keeps inside
    /// `region`, rising over the same ramp from none at its edge (a carving's one material, lit
    /// as carved, that still meets the photo at the photo's lightness).
    public static func apply(_ drawing: VipsImage, like photo: VipsImage, reach: Double,
                             paperLift: Double = ToneMatch.paperLift, shadowContrast: Double = 0,
                             exposure: Double = 1, region: VipsImage? = nil, regionRamp: Double = 0,
                             ownTone: Double = 0) throws -> VipsImage {
        let drawn = try rgb(drawing), model = try rgb(photo)
        guard drawn.width == model.width, drawn.height == model.height else {
            throw VipsError(operation: "tone match", message: "the photo and the drawing differ in size")
        }
        return try PortraitOperations.toneMatch(drawn, like: model, reach: reach, paperLift: paperLift, paperChroma: paperChroma,
                                                shadowContrast: shadowContrast, exposure: exposure,
                                                region: region, regionRamp: regionRamp, ownTone: ownTone)
    }

    /// Three 8-bit bands: a grey image repeated, an alpha band dropped.
    public static func rgb(_ image: VipsImage) throws -> VipsImage {
        if image.bands == 3 { return image }
        if image.bands >= 3 { return try image.extractBands(0, count: 3) }
        let grey = try image.extractBands(0)
        return try VipsImage.bandjoin([grey, grey, grey])
    }
}
