import Filters

/// How styled faces are cut out and blended back.
public struct RenderOptions: Sendable, Equatable, Codable {
    /// What part of each person a style covers.
    public enum Region: String, CaseIterable, Sendable, Codable {
        /// The feathered ellipse around the grown face box (`boxScale`, `feather`).
        case ellipse
        /// The face itself: skin from brow to chin, no hair.
        case face
        /// Face, hair and ears (and the top of the neck), found per face.
        case head
        /// The head (as `head` finds it) and, from the chin down, the body: neck, shoulders and
        /// clothes, down to the photo's edge.
        case person

        /// The region a matte of `kind` covers.
        init(_ kind: PortraitOperations.Region) {
            switch kind {
            case .face: self = .face
            case .head: self = .head
            case .person: self = .person
            }
        }

        /// The matte CPortrait computes for it, nil for the ellipse.
        var matte: PortraitOperations.Region? {
            switch self {
            case .ellipse: nil
            case .face: .face
            case .head: .head
            case .person: .person
            }
        }
    }

    /// How a drawing's lightness is set.
    public enum Tone: String, CaseIterable, Sendable, Codable {
        /// Matched, area by area, to the lightness of the picture around it (the photo, or the
        /// background style drawn over it): the face keeps its place in the picture's tonal
        /// range and the only new edges are the drawing's own lines.
        case photo
        /// As drawn: white paper (the drawing on its own, brighter than most photos around it).
        case paper
    }

    /// How the ellipse's edge meets the photo.
    public enum Edge: String, CaseIterable, Sendable, Codable {
        /// A soft fade (`feather` wide).
        case soft
        /// Pencil strokes running out into the photo over the same width, as a drawing's
        /// edge is left by hand (`StrokedEdge`).
        case strokes
    }

    /// Each face box is grown by this factor about its centre before filtering (`ellipse` region).
    public var boxScale: Double
    /// Width of the soft edge of the elliptical mask, as a fraction of its radius (0 = hard edge).
    public var feather: Double
    /// A style for everything outside the faces (nil = the photo as it is). It runs on the
    /// whole image; faces are blended over it through their masks.
    public var background: FaceStyle?
    public var region: Region
    public var tone: Tone
    /// The ellipse's edge (`ellipse` region; the mattes follow the head's own edges).
    public var edge: Edge

    public init(boxScale: Double = 1.3, feather: Double = 0.3, background: FaceStyle? = nil,
                region: Region = .head, tone: Tone = .photo, edge: Edge = .soft) {
        self.boxScale = boxScale; self.feather = feather; self.background = background
        self.region = region; self.tone = tone; self.edge = edge
    }

    enum CodingKeys: String, CodingKey { case boxScale, feather, background, region, tone, edge }

    /// Sessions saved before regions and tone existed read as they were drawn then: the
    /// ellipse on white paper.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        boxScale = try c.decode(Double.self, forKey: .boxScale)
        feather = try c.decode(Double.self, forKey: .feather)
        background = try c.decodeIfPresent(FaceStyle.self, forKey: .background)
        region = try c.decodeIfPresent(Region.self, forKey: .region) ?? .ellipse
        tone = try c.decodeIfPresent(Tone.self, forKey: .tone) ?? .paper
        edge = try c.decodeIfPresent(Edge.self, forKey: .edge) ?? .soft
    }
}
