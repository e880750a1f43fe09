import SketchEase

/// One face on one frame of a clip, as the tracker gives it: the track's id, its smoothed box
/// and landmarks, and how strongly to draw its style (fades).
public struct TrackedFace: Sendable, Equatable {
    /// The track's id: the same for the face's whole life in the clip, 1, 2, 3… in order of appearance.
    public var id: Int
    /// Smoothed box, in pixels of the upright frame.
    public var box: FaceBox
    /// Smoothed landmarks (five points in `Landmark` order), or empty.
    public var landmarks: [Point]
    /// The detector's confidence at the sighting nearest this frame.
    public var score: Double
    /// How strongly the style is drawn: 1, or less while fading in or out (0...1).
    public var opacity: Double
    /// Whether the detector saw the face on this very frame (else the box was followed).
    public var detected: Bool
    /// Where something in front of the face covers part of it on this frame (its style is not
    /// drawn there), or nil when nothing clearly does.
    public var cover: FaceCover?
    /// The size its style is drawn for, held while its box breathes (`DrawingSizes`); nil =
    /// from its box.
    public var drawingSize: Double?

    public init(id: Int, box: FaceBox, landmarks: [Point] = [], score: Double = 1, opacity: Double = 1, detected: Bool = false,
                cover: FaceCover? = nil) {
        self.id = id; self.box = box; self.landmarks = landmarks; self.score = score; self.opacity = opacity; self.detected = detected
        self.cover = cover
    }
}

/// The faces on one frame.
public struct TrackedFrame: Sendable, Equatable {
    public var index: Int
    /// Seconds from the first frame.
    public var time: Double
    public var faces: [TrackedFace]

    public init(index: Int, time: Double, faces: [TrackedFace]) {
        self.index = index; self.time = time; self.faces = faces
    }
}
