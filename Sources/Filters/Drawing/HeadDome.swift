import Vips

/// A smooth dome over each head in a crop: the large-scale form of a face (rounded, highest a
/// little above the face box's centre, where the skull is), for styles that treat the picture as
/// a surface (relief's carving, hatching's cross-contour lines, `sk_hatching`).
enum HeadDome {
    /// One band, float, `width` × `height`: the sum over `faces` of a gaussian dome of height 1
    /// at its top, falling off over the head's width and height; nil without faces.
    ///
    /// The domes are smooth over tens of pixels, so they are computed on a grid some four
    /// samples to a dome's deviation and enlarged: a crop holding a crowd (twenty-five heads
    /// in one group) costs a small grid, not twenty-five full-size images. The grid is laid
    /// from the canvas's corner (`origin`, where the crop's corner lies on it:
    /// `FilterContext.origin`), so a part of a picture gets the domes the whole has there.
    static func height(over faces: [FaceRegion], width: Int, height: Int, origin: SIMD2<Int> = .zero) throws -> VipsImage? {
        guard !faces.isEmpty else { return nil }
        return try PortraitOperations.headDomes(over: faces, width: width, height: height, origin: origin)
    }
}
