import Vips

/// A sketch style: a libvips pipeline over a face crop, with typed parameters.
///
/// `apply` receives an upright, 3-band, 8-bit sRGB crop (the padded face region) and returns an
/// image of the same size, 3-band 8-bit sRGB. It must be deterministic: any noise is seeded
/// from `context.seed`.
public protocol SketchFilter: Sendable {
    /// Short, stable identifier used on the command line and in plans ("pencil").
    var id: String { get }
    /// Display name ("Pencil").
    var name: String { get }
    /// One sentence for `sketchease filters`.
    var summary: String { get }
    /// What blind panels found against the style's nearest peers, in a sentence for `filters`,
    /// the prompt and the page: where it wins, ties or loses, and what to do where it loses
    /// (docs/look-panel.md holds the panels). nil (the default) where no panel judged it.
    var judged: String? { get }
    var parameters: [FilterParameter] { get }

    func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage

    /// True (the default) for styles that redraw the whole crop: the compositor blends their
    /// output through the face's feathered ellipse. False for styles that draw only on parts
    /// of the crop and pass the rest of their input through unchanged (stickers): they get the
    /// crop as drawn so far and their output is used as is, so a sticker reaching past the
    /// ellipse (a beard below the chin) is not faded out.
    var blendsThroughFaceMask: Bool { get }

    /// True for styles that set their own lightness (drawings on white paper, a carved
    /// relief's material, a cartoon's bands): placed in a photo, their lightness is matched to
    /// the photo's there (`ToneMatch`), so a face drawn in a dark room is not a white blob.
    /// False (the default) for styles that keep the photo's tones (blur, pixelate, masks).
    var takesPhotoTone: Bool { get }

    /// For styles that take the photo's tone: how much of the way to white their lights are
    /// lifted where the photo is light, so paper shows there (`ToneMatch`; 0 = the photo's
    /// lightness as it is). `ToneMatch.paperLift` by default.
    var paperLift: Double { get }

    /// For styles that take the photo's tone: how much of their own contrast they keep where
    /// the match darkens them (`ToneMatch`'s `shadowContrast`; 0, the default: scaled with the
    /// photo's darkness).
    var shadowContrast: Double { get }

    /// For styles that take the photo's tone: how much of their own lightness they keep inside
    /// their region (`ToneMatch`'s `ownTone`), rising from none at its edge, where they still
    /// meet the photo's lightness (0, the default: matched all through; 1: a carving's one
    /// material, lit as carved).
    var ownTone: Double { get }

    /// True for styles whose strokes and textures are sized to the face (the drawings, cartoon,
    /// relief): the compositor runs them on a copy of the crop resized so the face is 100 to
    /// 300 pixels across (`FilterContext.photoPixel` says by how much). False (the default)
    /// for styles that must keep the photo's own pixels (none, masks) or cost little anyway.
    var scalesWithFace: Bool { get }

    /// True for a style that returns its input unchanged (`none`): with nothing drawn around
    /// the face, the compositor skips it (no crop, matte or blend). False (the default).
    var leavesFacesAsTheyAre: Bool { get }
}

extension SketchFilter {
    public var judged: String? { nil }
    public var leavesFacesAsTheyAre: Bool { false }
    public var blendsThroughFaceMask: Bool { true }
    public var takesPhotoTone: Bool { false }
    public var paperLift: Double { ToneMatch.paperLift }
    public var shadowContrast: Double { 0 }
    public var ownTone: Double { 0 }
    public var scalesWithFace: Bool { false }
}

/// What a filter knows about where it runs.
public struct FilterContext: Sendable {
    /// Shorter side of the face box in pixels, so strokes scale with the face, not the photo.
    public var faceSize: Double
    /// Seed for any texture or noise; derived from the face so re-renders are identical.
    public var seed: Int
    /// The faces this crop was cut for, in the crop's pixel coordinates (one or more when
    /// overlapping faces share a crop). Empty when the filter runs on a whole image.
    public var faces: [FaceRegion]
    /// A picture given by the caller for filters that put one in (the chroma key's background):
    /// the frame of a background clip at this moment. nil = the filter's own (its `image`).
    public var backdrop: VipsImage?

    /// How many of the crop's pixels one pixel of the photo spans: above 1 when the crop was
    /// enlarged for a small face, below 1 when it was reduced for a large one. Strokes that
    /// must stay visible in the photo are never made finer than the photo's own pixels.
    public var photoPixel: Double

    /// Where the crop's top-left pixel lies on the canvas its textures are laid on (0, 0 for a
    /// crop that is the whole canvas). A style lays its strokes, grain and noise at canvas
    /// positions, so a part of a picture drawn with its origin gets the textures the whole
    /// would have there: a compositor can draw only where a face's region is, and a clip's
    /// face keeps its strokes when that part grows or shrinks between frames.
    public var origin: SIMD2<Int>

    public init(faceSize: Double, seed: Int = 0, faces: [FaceRegion] = [], backdrop: VipsImage? = nil, photoPixel: Double = 1,
                origin: SIMD2<Int> = .zero) {
        self.faceSize = faceSize; self.seed = seed; self.faces = faces; self.backdrop = backdrop; self.photoPixel = photoPixel
        self.origin = origin
    }
}

/// A face as a filter sees it: its box and landmarks relative to the crop.
public struct FaceRegion: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    /// Eye (image-left), eye (image-right), nose tip, mouth corners (image-left, image-right);
    /// empty when the detector gave none.
    public var landmarks: [SIMD2<Double>]

    public init(x: Double, y: Double, width: Double, height: Double, landmarks: [SIMD2<Double>] = []) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.landmarks = landmarks
    }

    /// The smallest box holding every face in `faces` (landmarks dropped); nil for none.
    public static func bounds(of faces: [FaceRegion]) -> FaceRegion? {
        guard let first = faces.first else { return nil }
        return faces.dropFirst().reduce(FaceRegion(x: first.x, y: first.y, width: first.width, height: first.height)) { a, b in
            let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
            return FaceRegion(x: x0, y: y0, width: max(a.x + a.width, b.x + b.width) - x0, height: max(a.y + a.height, b.y + b.height) - y0)
        }
    }

    /// The same face moved by (dx, dy): as seen in a picture whose corner is (-dx, -dy) from this one's.
    public func moved(by dx: Int, _ dy: Int) -> FaceRegion {
        let d = SIMD2(Double(dx), Double(dy))
        return FaceRegion(x: x + d.x, y: y + d.y, width: width, height: height, landmarks: landmarks.map { $0 + d })
    }
}
