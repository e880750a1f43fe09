/// A clockwise turn of an image by a multiple of 90°, and how coordinates found in the turned
/// image map back to the image as it was.
public enum QuarterTurn: Int, Sendable, CaseIterable {
    case none = 0, clockwise = 90, half = 180, anticlockwise = 270

    /// libvips' name for the turn (`rot` angle).
    public var vipsAngle: String { "d\(rawValue)" }

    /// The point `p` of the turned image in the unturned one, which is `width` × `height`.
    public func unturn(_ p: Point, width: Double, height: Double) -> Point {
        switch self {
        case .none: p
        case .clockwise: Point(x: p.y, y: height - p.x)
        case .half: Point(x: width - p.x, y: height - p.y)
        case .anticlockwise: Point(x: width - p.y, y: p.x)
        }
    }

    /// A box of the turned image in the unturned one (`width` × `height`).
    public func unturn(_ b: FaceBox, width: Double, height: Double) -> FaceBox {
        let a = unturn(Point(x: b.x, y: b.y), width: width, height: height)
        let c = unturn(Point(x: b.maxX, y: b.maxY), width: width, height: height)
        return FaceBox(x: min(a.x, c.x), y: min(a.y, c.y), width: abs(c.x - a.x), height: abs(c.y - a.y))
    }

    /// A face of the turned image in the unturned one (`width` × `height`): its box and landmarks.
    public func unturn(_ face: DetectedFace, width: Double, height: Double) -> DetectedFace {
        DetectedFace(box: unturn(face.box, width: width, height: height), score: face.score,
                     landmarks: face.landmarks.map { unturn($0, width: width, height: height) })
    }
}
