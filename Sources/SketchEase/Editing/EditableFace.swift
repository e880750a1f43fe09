/// One face in a photo being edited: a box the person can move, resize or delete, and the
/// style chosen for it (nil = left as in the photo).
///
/// `id` is stable for the life of a session: it is the number shown in previews and typed at
/// the prompt, and it does not change when other faces are deleted or added.
public struct EditableFace: Sendable, Equatable, Codable {
    public var id: Int
    public var box: FaceBox
    /// The detector's five landmarks in photo pixels; empty for boxes added by hand.
    public var landmarks: [Point]
    public var style: FaceStyle?

    public init(id: Int, box: FaceBox, landmarks: [Point] = [], style: FaceStyle? = nil) {
        self.id = id; self.box = box; self.landmarks = landmarks; self.style = style
    }

    /// Detected faces numbered 1, 2, 3… in reading order (rows top to bottom, each left to
    /// right), their boxes kept to a photo of `size` (`BoxRule`; a box off the photo is left out).
    public static func numbered(_ faces: [DetectedFace], in size: ImageSize) -> [EditableFace] {
        faces.onPhoto(size).enumerated().map {
            EditableFace(id: $0.offset + 1, box: $0.element.box, landmarks: $0.element.landmarks)
        }
    }

    /// The box moved by (dx, dy); landmarks move with it.
    func moved(dx: Double, dy: Double) -> EditableFace {
        var f = self
        f.box.x += dx; f.box.y += dy
        f.landmarks = landmarks.map { Point(x: $0.x + dx, y: $0.y + dy) }
        return f
    }

    /// The box given a new size about its centre. The landmarks stay on the features they
    /// mark (kept inside the new box): a box enlarged around a face does not make its eyes
    /// further apart. (Scaled with the box, they told the region a face as large as the box,
    /// and its drawing covered the backdrop and clothes the larger box took in.)
    func resized(width: Double, height: Double) -> EditableFace {
        var f = self
        let c = box.center
        f.box = FaceBox(x: c.x - width / 2, y: c.y - height / 2, width: width, height: height)
        f.landmarks = landmarks.map(f.box.clamped)
        return f
    }
}
