import Foundation

/// What an editor's compositor remembers between previews of one photo: each group of faces
/// as drawn and each face's region matte, so that changing one face's style or box redraws
/// that face's group alone, and a style change on a face keeps its matte.
///
/// Entries are keyed by the image drawn on (held, so its identity cannot be reused), the
/// group's faces with their styles and the compositor's options: libvips images never change,
/// so an entry is right for as long as it exists. Only pictures up to `largestPixels` are
/// remembered (an editor's reduced photo), a few dozen entries at most.
public final class RenderMemo: @unchecked Sendable {
    public static let largestPixels = 4_000_000
    static let capacity = 48

    private struct Group {
        var image: VipsImage
        var faces: [StyledFace]
        var options: RenderOptions
        /// The background style's drawing the group was drawn over (nil: the photo).
        var behind: VipsImage?
        var drawn: VipsImage
    }

    private struct Background {
        var image: VipsImage
        var style: FaceStyle
        var faceSize: Double
        /// The picture the style put in (a chroma key's backdrop), if any.
        var backdrop: VipsImage?
        var drawn: VipsImage
    }

    private struct Matte {
        var image: VipsImage
        var rect: PixelRect
        var face: StyledFace
        var others: [StyledFace]
        var region: RenderOptions.Region
        var matte: VipsImage
    }

    private let lock = NSLock()
    private var groups: [Group] = []
    private var mattes: [Matte] = []
    private var backgrounds: [Background] = []

    public init() {}

    static func remembers(_ image: VipsImage) -> Bool { image.width * image.height <= largestPixels }

    func group(_ faces: [StyledFace], on image: VipsImage, behind: VipsImage?, options: RenderOptions,
               draw: () throws -> VipsImage) throws -> VipsImage {
        guard Self.remembers(image) else { return try draw() }
        return try recall(\.groups, keeping: Self.capacity, matching: {
            $0.image === image && $0.behind === behind && $0.options == options && $0.faces == faces
        }) {
            Group(image: image, faces: faces, options: options, behind: behind, drawn: try draw())
        }.drawn
    }

    /// The background style drawn over `image` for faces of `faceSize` (its strokes are sized for
    /// them): the same while only the faces' styles change, so a preview redraws the faces alone.
    func background(_ style: FaceStyle, on image: VipsImage, faceSize: Double, backdrop: VipsImage?,
                    draw: () throws -> VipsImage) throws -> VipsImage {
        guard Self.remembers(image) else { return try draw() }
        // A few: each holds a drawing of the whole (reduced) photo.
        return try recall(\.backgrounds, keeping: 4, matching: {
            $0.image === image && $0.style == style && $0.faceSize == faceSize && $0.backdrop === backdrop
        }) {
            Background(image: image, style: style, faceSize: faceSize, backdrop: backdrop, drawn: try draw().inMemory())
        }.drawn
    }

    func matte(for face: StyledFace, others: [StyledFace], in rect: PixelRect, of image: VipsImage, region: RenderOptions.Region,
               cut: () throws -> VipsImage) throws -> VipsImage {
        guard Self.remembers(image) else { return try cut() }
        // The style does not change the matte: faces are compared by where they are.
        func same(_ a: StyledFace, _ b: StyledFace) -> Bool { a.box == b.box && a.landmarks == b.landmarks }
        return try recall(\.mattes, keeping: Self.capacity, matching: { m in
            m.image === image && m.rect == rect && m.region == region && same(m.face, face)
                && m.others.count == others.count && zip(m.others, others).allSatisfy { same($0, $1) }
        }) {
            Matte(image: image, rect: rect, face: face, others: others, region: region, matte: try cut())
        }.matte
    }

    /// The entry of `list` that `matches`, made the most recent, or one `made` now and kept with
    /// the `capacity` most recent: what every kind of memory here does alike.
    private func recall<Entry>(_ list: ReferenceWritableKeyPath<RenderMemo, [Entry]>, keeping capacity: Int,
                               matching matches: (Entry) -> Bool, made make: () throws -> Entry) rethrows -> Entry {
        let found = lock.withLock { () -> Entry? in
            guard let i = self[keyPath: list].lastIndex(where: matches) else { return nil }
            let entry = self[keyPath: list].remove(at: i)
            self[keyPath: list].append(entry)
            return entry
        }
        if let found { return found }
        let entry = try make()
        lock.withLock {
            self[keyPath: list].append(entry)
            let extra = self[keyPath: list].count - capacity
            if extra > 0 { self[keyPath: list].removeFirst(extra) }
        }
        return entry
    }
}
