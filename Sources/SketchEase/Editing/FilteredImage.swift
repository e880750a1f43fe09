/// A photo being edited: the original upright photo, its faces and the edits made to them.
///
/// The original is never changed; `render` is a pure function of the photo and the faces in
/// effect, so the same session always renders to the same pixels.
public struct FilteredImage: Sendable {
    public let photo: Photo
    public var history: EditHistory

    public init(photo: Photo, detected: [DetectedFace]) {
        self.init(photo: photo, history: EditHistory(detected: EditableFace.numbered(detected)))
    }

    public init(photo: Photo, history: EditHistory) {
        self.photo = photo; self.history = history
    }

    /// The faces now, in order, with their styles.
    public var faces: [EditableFace] { history.faces }

    public mutating func perform(_ edit: Edit) throws { try history.perform(edit) }
    @discardableResult public mutating func undo() throws -> Edit { try history.undo() }
    @discardableResult public mutating func redo() throws -> Edit { try history.redo() }

    /// The styled faces to draw: faces without a style are left out.
    public var styledFaces: [StyledFace] {
        faces.compactMap { face in
            face.style.map { StyledFace(box: face.box, style: $0, landmarks: face.landmarks) }
        }
    }

    /// The photo with every styled face drawn, full size.
    public func render(with compositor: FaceCompositor) throws -> VipsImage {
        try compositor.render(photo.rgb, faces: styledFaces)
    }

    /// A reduced rendering (longest side at most `maxSide`) and the scale it was made at: the
    /// faces are drawn on the reduced photo, so it is quick enough to redo after each edit.
    public func renderReduced(maxSide: Int, with compositor: FaceCompositor) throws -> (image: VipsImage, scale: Double) {
        let reduced = try photo.reduced(maxSide: maxSide)
        return (try render(on: reduced, with: compositor), reduced.scale)
    }

    /// The faces drawn on a reduced copy of the photo made once (`Photo.reduced`): what an
    /// editor redraws after every change, in a fraction of a full render's time.
    public func render(on reduced: ReducedPhoto, with compositor: FaceCompositor) throws -> VipsImage {
        guard reduced.scale < 1 else { return try render(with: compositor) }
        let s = reduced.scale
        let faces = styledFaces.map { f in
            StyledFace(box: f.box.scaled(x: s, y: s), style: f.style, landmarks: f.landmarks.map { Point(x: $0.x * s, y: $0.y * s) })
        }
        return try compositor.render(reduced.image, faces: faces)
    }

    /// A new box for a face the detector missed, as an edit giving it the next free number.
    /// The box must reach into the photo.
    public func addition(of box: FaceBox, style: FaceStyle?) throws -> Edit {
        guard box.maxX > 0, box.maxY > 0, box.x < Double(photo.width), box.y < Double(photo.height) else {
            throw EditError.outsidePhoto(width: photo.width, height: photo.height)
        }
        return .add(face: history.nextFaceID, box: box, style: style)
    }

    /// Face `id` alone drawn in `style`, on a crop around it at most `maxSide` pixels long: a
    /// sample for choosing a style. The crop is reduced before drawing (styles size their
    /// strokes from the face), so a sample costs little whatever the photo's size.
    public func sample(face id: Int, style: FaceStyle, maxSide: Int, with compositor: FaceCompositor) throws -> VipsImage {
        guard let face = history.face(id) else { throw EditError.noSuchFace(id, known: faces.map(\.id)) }
        let reach = face.box.grown(by: max(compositor.options.boxScale, 1) * 1.15)
        let bounds = PixelRect(x: 0, y: 0, width: photo.width, height: photo.height)
        guard let rect = PixelRect(enclosing: reach)?.clipped(to: bounds) else {
            throw EditError.outsidePhoto(width: photo.width, height: photo.height)
        }
        let s = min(1, Double(maxSide) / Double(max(rect.width, rect.height)))
        var crop = try photo.rgb.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        if s < 1 { crop = try crop.resize(scale: s) }
        func place(_ p: Point) -> Point { Point(x: (p.x - Double(rect.x)) * s, y: (p.y - Double(rect.y)) * s) }
        let origin = place(Point(x: face.box.x, y: face.box.y))
        let box = FaceBox(x: origin.x, y: origin.y, width: face.box.width * s, height: face.box.height * s)
        var plain = compositor
        plain.options.background = nil
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
