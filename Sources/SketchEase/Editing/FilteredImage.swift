/// A photo being edited: the original upright photo, its faces and the edits made to them.
///
/// The original is never changed; `render` is a pure function of the photo and the faces in
/// effect, so the same session always renders to the same pixels.
public struct FilteredImage: Sendable {
    public let photo: Photo
    public var history: EditHistory

    public init(photo: Photo, detected: [DetectedFace]) {
        self.init(photo: photo, history: EditHistory(detected: EditableFace.numbered(detected, in: photo.size),
                                                     imageSize: photo.size))
    }

    public init(photo: Photo, history: EditHistory) {
        self.photo = photo; self.history = history
    }

    /// The faces now, in order, with their styles.
    public var faces: [EditableFace] { history.faces }

    /// Applies an edit; returns whether a box was cut off at the photo's edge.
    @discardableResult public mutating func perform(_ edit: Edit) throws -> Bool { try history.perform(edit) }

    /// The styled faces to draw: faces without a style are left out.
    public var styledFaces: [StyledFace] {
        faces.compactMap { face in
            face.style.map { StyledFace(box: face.box, style: $0, landmarks: face.landmarks) }
        }
    }

    /// The photo with every styled face drawn, full size.
    public func render(with compositor: FaceCompositor) throws -> VipsImage {
        try following(compositor).render(photo.rgb, faces: styledFaces)
    }

    /// `compositor` drawing the photo around the faces as the edits chose (`Edit.background`),
    /// at the photo's exposure (a reduced preview draws as the export does).
    func following(_ compositor: FaceCompositor) throws -> FaceCompositor {
        var compositor = compositor
        compositor.options = history.rendering(compositor.options)
        if compositor.exposure == nil { compositor.exposure = try photo.exposure() }
        return compositor
    }

    /// A reduced rendering (longest side at most `maxSide`) and the scale it was made at: the
    /// faces are drawn on the reduced photo, so it is quick enough to redo after each edit.
    public func renderReduced(maxSide: Int, with compositor: FaceCompositor) throws -> (image: VipsImage, scale: Double) {
        let reduced = try photo.reduced(maxSide: maxSide)
        return (try render(on: reduced, with: compositor), reduced.scale)
    }
}
