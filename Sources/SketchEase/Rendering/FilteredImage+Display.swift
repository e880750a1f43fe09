/// Drawing for an editor's screen: the photo reduced once and the faces drawn on it after every
/// change, and samples of one face in each style for choosing among them.
extension FilteredImage {
    /// The faces drawn on a reduced copy of the photo made once (`Photo.reduced`): what an
    /// editor redraws after every change, in a fraction of a full render's time.
    public func render(on reduced: ReducedPhoto, with compositor: FaceCompositor) throws -> VipsImage {
        guard reduced.scale < 1 else { return try render(with: compositor) }
        let s = reduced.scale
        let faces = styledFaces.map { f in
            StyledFace(box: f.box.scaled(x: s, y: s), style: f.style, landmarks: f.landmarks.map { Point(x: $0.x * s, y: $0.y * s) })
        }
        return try following(compositor).render(reduced.image, faces: faces)
    }

    /// Face `id` alone drawn in `style`, on a crop around it at most `maxSide` pixels long: a
    /// sample for choosing a style. The crop is reduced before drawing (styles size their
    /// strokes from the face), so a sample costs little whatever the photo's size.
    public func sample(face id: Int, style: FaceStyle, maxSide: Int, with compositor: FaceCompositor) throws -> VipsImage {
        guard let face = history.face(id) else { throw EditError.noSuchFace(id, known: faces.map(\.id)) }
        let reach = face.box.grown(by: max(compositor.options.boxScale, 1) * 1.15)
        let bounds = PixelRect(x: 0, y: 0, width: photo.width, height: photo.height)
        guard let rect = PixelRect(enclosing: reach)?.clipped(to: bounds) else { throw EditError.offPhoto(photo.size) }
        let s = min(1, Double(maxSide) / Double(max(rect.width, rect.height)))
        var crop = try photo.rgb.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        if s < 1 { crop = try crop.resize(scale: s) }
        func place(_ p: Point) -> Point { Point(x: (p.x - Double(rect.x)) * s, y: (p.y - Double(rect.y)) * s) }
        let origin = place(Point(x: face.box.x, y: face.box.y))
        let box = FaceBox(x: origin.x, y: origin.y, width: face.box.width * s, height: face.box.height * s)
        var plain = compositor
        plain.options.background = nil
        plain.memo = nil  // a sample's crop is made afresh each time: nothing to remember
        // At the photo's exposure, as the photo draws it: the crop does not show its white.
        plain.exposure = try compositor.exposure ?? photo.exposure()
        return try plain.render(crop, faces: [StyledFace(box: box, style: style, landmarks: face.landmarks.map(place))])
    }
}

/// A photo reduced once for on-screen previews (longest side at most the size asked for),
/// held in memory, and the scale it was made at.
public struct ReducedPhoto: Sendable {
    public let image: VipsImage
    public let scale: Double
}

extension Photo {
    /// The photo reduced so its longest side is at most `maxSide` (never enlarged), computed
    /// into memory once so every preview drawn on it starts from ready pixels.
    public func reduced(maxSide: Int) throws -> ReducedPhoto {
        let scale = min(1, Double(maxSide) / Double(max(width, height)))
        guard scale < 1 else { return ReducedPhoto(image: rgb, scale: 1) }
        return ReducedPhoto(image: try rgb.resize(scale: scale).inMemory(), scale: scale)
    }
}
