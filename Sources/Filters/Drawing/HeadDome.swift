import Vips

/// A smooth dome over each head in a crop: the large-scale form of a face (rounded, highest a
/// little above the face box's centre, where the skull is), for styles that treat the picture as
/// a surface (relief's carving, hatching's cross-contour lines).
enum HeadDome {
    /// One band, float, `width` × `height`: the sum over `faces` of a gaussian dome of height 1
    /// at its top, falling off over the head's width and height; nil without faces.
    ///
    /// The domes are smooth over tens of pixels, so they are computed on a grid some four
    /// samples to a dome's deviation and enlarged: a crop holding a crowd (twenty-five heads
    /// in one group) costs a few small images, not twenty-five full-size ones. The grid is laid
    /// from the canvas's corner (`origin`, where the crop's corner lies on it:
    /// `FilterContext.origin`), so a part of a picture gets the domes the whole has there.
    static func height(over faces: [FaceRegion], width: Int, height: Int, origin: SIMD2<Int> = .zero) throws -> VipsImage? {
        guard let smallest = faces.map({ min($0.width, $0.height) }).min() else { return nil }
        let step = max(1, Int(0.6 * smallest / 4))
        let left = origin.x % step, top = origin.y % step
        let smallWidth = (left + width + step - 1) / step + 1
        let smallHeight = (top + height + step - 1) / step + 1
        // Each sample's position in the crop.
        let coordinates = try VipsImage.coordinates(width: smallWidth, height: smallHeight)
            .linear([Double(step), Double(step)], [Double(-left), Double(-top)])
        var sum: VipsImage?
        for face in faces {
            let one = try dome(over: face, coordinates: coordinates)
            sum = try sum.map { try $0.add(one) } ?? one
        }
        guard let small = try sum?.inMemory() else { return nil }
        guard step > 1 else { return try small.crop(x: 0, y: 0, width: width, height: height) }
        return try small.resize(scale: Double(step), kernel: "cubic")
            .embed(x: 0, y: 0, width: left + width, height: top + height, extend: "copy").crop(x: left, y: top, width: width, height: height)
    }

    /// One dome; `coordinates` gives each pixel's (x, y) in the crop.
    static func dome(over face: FaceRegion, coordinates: VipsImage) throws -> VipsImage {
        let cx = face.x + face.width / 2, cy = face.y + face.height * 0.4
        let sx = 0.6 * face.width, sy = 0.8 * face.height
        let offset = try coordinates.linear([1 / sx, 1 / sy], [-cx / sx, -cy / sy])
        let squared = try offset.multiply(offset)
        return try squared.extractBands(0).add(squared.extractBands(1)).linear(-0.5, 0).math("exp")
    }
}
