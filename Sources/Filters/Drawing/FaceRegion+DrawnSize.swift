import CPortrait

extension FaceRegion {
    /// How much this box is shrunk about its landmarks' centre to be the face's own box:
    /// CPortrait's `sk_own_scale`, the one its region's frame is shrunk by too. 1 for a box no
    /// larger than its landmarks imply (a detected box's shorter side is 0.76 of that size at the
    /// median, 0.874 for 99 faces in 100) and without landmarks; less for a box enlarged by hand
    /// around a face: to the size its landmarks imply.
    var ownScale: Double {
        var seed = PortraitOperations.seeds(of: [self])[0]
        return Double(sk_own_scale(&seed))
    }

    /// The size (shorter side, pixels) a style is drawn for on this face: its own box's. A box
    /// enlarged by hand around a face draws the face's strokes at the face's size, not coarser
    /// for the larger box.
    public var drawnSize: Double { min(width, height) * ownScale }

    /// The face's own box: this box shrunk by `ownScale` about the landmarks' centre (itself,
    /// but for a box enlarged by hand). A style reads the face's statistics over it (its
    /// exposure, how strong an edge must be to draw, how dark its strokes are): the backdrop and
    /// clothes an enlarged box takes in would change the face's drawing.
    public var ownBox: FaceRegion {
        let k = ownScale
        guard !landmarks.isEmpty, k < 1 else { return self }
        let centre = landmarks.reduce(SIMD2<Double>.zero, +) / Double(landmarks.count)
        return FaceRegion(x: centre.x + (x - centre.x) * k, y: centre.y + (y - centre.y) * k,
                          width: width * k, height: height * k, landmarks: landmarks)
    }
}
