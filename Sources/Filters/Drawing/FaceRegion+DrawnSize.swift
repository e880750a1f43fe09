import CPortrait

extension FaceRegion {
    /// The size (shorter side, pixels) a style is drawn for on this face: its box's shorter
    /// side, but no more than its landmarks imply (CPortrait's `sk_feature_size_cap`, the cap
    /// its region's frame has too). A box enlarged by hand around a face draws the face's strokes
    /// at the face's size, not coarser for the larger box; a detected box is far under the cap
    /// (its shorter side is 0.76 of the features' size at the median, 0.874 for 99 faces in 100).
    public var drawnSize: Double {
        var seed = PortraitOperations.seeds(of: [self])[0]
        let cap = Double(sk_feature_size_cap(&seed)), side = min(width, height)
        return cap > 0 ? min(side, cap) : side
    }
}

extension FaceRegion {
    /// The face's own box: this box, or where it is larger than its landmarks imply (a box
    /// enlarged by hand around a face) the box shrunk to `drawnSize` about the landmarks'
    /// centre. A style reads the face's statistics over it (its exposure, how strong an edge
    /// must be to draw, how dark its strokes are): the backdrop and clothes an enlarged box takes
    /// in would change the face's drawing.
    public var ownBox: FaceRegion {
        let side = min(width, height), size = drawnSize
        guard !landmarks.isEmpty, size < side else { return self }
        let k = size / side
        let centre = landmarks.reduce(SIMD2<Double>.zero, +) / Double(landmarks.count)
        return FaceRegion(x: centre.x + (x - centre.x) * k, y: centre.y + (y - centre.y) * k,
                          width: width * k, height: height * k, landmarks: landmarks)
    }
}
