/// The one rule for face boxes a person or a file sets (`add`, `move`, `resize`, plans, sessions):
/// a box is at least 2 pixels wide and high and lies on the photo. The part of a box beyond the
/// photo's edge is cut off (there are no pixels there to draw); a box with less than 2 pixels
/// left on the photo, in either direction, is refused.
public enum BoxRule {
    public static let minimumSide = 2.0

    /// `box` kept to the photo, and whether anything was cut off. Throws `EditError.invalidBox`
    /// for a box that is not finite, too small, or off the photo.
    public static func fit(_ box: FaceBox, in size: ImageSize) throws -> (box: FaceBox, clipped: Bool) {
        guard box.isUsable, box.width >= minimumSide, box.height >= minimumSide else {
            throw EditError.invalidBox("width and height must be at least \(Int(minimumSide)) pixels")
        }
        if box.x >= 0, box.y >= 0, box.maxX <= Double(size.width), box.maxY <= Double(size.height) {
            return (box, false)   // on the photo as it is (recomputing it would only add rounding)
        }
        let x0 = max(box.x, 0), y0 = max(box.y, 0)
        let x1 = min(box.maxX, Double(size.width)), y1 = min(box.maxY, Double(size.height))
        guard x1 - x0 >= minimumSide, y1 - y0 >= minimumSide else {
            throw EditError.offPhoto(size)
        }
        return (FaceBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0), true)
    }
}

extension Array where Element == DetectedFace {
    /// These faces in reading order with their boxes kept to a photo of `size`; a face with no
    /// box left on the photo is dropped.
    public func onPhoto(_ size: ImageSize) -> [DetectedFace] {
        inReadingOrder.compactMap { face in
            (try? BoxRule.fit(face.box, in: size)).map { DetectedFace(box: $0.box, score: face.score, landmarks: face.landmarks) }
        }
    }
}
