import Foundation
import Synchronization

/// Draws styled faces into a photo: each style runs on a padded crop only and is blended back
/// through each face's region (`RenderOptions.region`): a soft matte of the head (or face, or
/// person) found per face, or the feathered ellipse. Drawings on paper have their lightness
/// matched to the picture's there (`RenderOptions.tone`: the photo's, or the background style's
/// where there is one), so they sit in it.
///
/// Faces whose padded regions overlap are handled as one group: the filter runs once on the
/// group's crop and the faces' regions are merged (per-pixel maximum) into one mask per style,
/// so overlapping faces show no seam; each face's matte treats the other faces as background,
/// so neighbours' heads stay apart.
///
/// With a background style, that style is drawn over the whole photo first and each face
/// region shows the face (styled, or as photographed) through its mask, over that background.
public struct FaceCompositor: Sendable {
    public var registry: FilterRegistry
    public var options: RenderOptions
    /// The picture the background style puts in at this moment (a background clip's frame,
    /// for the chroma key); nil = the style's own.
    public var backdrop: VipsImage?
    /// Groups and mattes drawn before on the same picture (an editor's previews); nil = none.
    public var memo: RenderMemo?
    /// Whether the groups of a picture are drawn side by side, one per core: for a picture
    /// someone is waiting on (a frame of Live, an editor's preview), which is then back in the
    /// time of its slowest face. Off (the default) where pictures are already drawn side by
    /// side (a batch's photos, a clip's frames): there it only adds memory (~40 MB at the peak
    /// of a 12 MP photo).
    public var sideBySide: Bool
    /// Whether a style is drawn only over its faces' regions (the extent of their mattes, and
    /// a margin for strokes to run out), as it always is but to compare, not over their whole
    /// reach: a head's reach allows for hair and shoulders it may not have, and its matte
    /// covers about half of it. The styles lay their textures from the group's crop as a canvas
    /// (`FilterContext.origin`), so the part drawn gets the strokes the whole would have there,
    /// and a clip's face keeps its strokes when its matte, cut again, grows or shrinks.
    var drawsWithinRegions = true
    /// Whether the pictures drawn are the frames of a moving picture (a clip, Live): each
    /// face's textures are then laid on a canvas that moves with the face (centred on its
    /// box) rather than on the crop, and its strokes are sized for its size rounded to an
    /// eighth of an octave (`drawingSize`). A face moving across a frame, or its box breathing
    /// by a pixel, then keeps its grain, hatching and strokes where they were on it, where
    /// every stroke was laid afresh on every frame: a drawing that crawled, and that the
    /// encoder paid for (a face panning at 2–4 px a frame in pencil: 449 → 282 KB for 4 s).
    public var drawsInMotion = false
    /// The exposure drawings matched to the photo's tones are made at (`PictureExposure`: a
    /// gain in linear light, above 1 for an under-exposed picture); nil = measured on the
    /// picture given to `render`. Set it where that picture is a part of a larger one (a
    /// clip's region around its faces, a sample cut around one face) or one frame of many (a
    /// clip, Live: the followed white, so a face's drawing does not flicker).
    public var exposure: Double?

    public init(registry: FilterRegistry = .standard, options: RenderOptions = .init(), memo: RenderMemo? = nil,
                sideBySide: Bool = false) {
        self.registry = registry; self.options = options; self.memo = memo; self.sideBySide = sideBySide
    }

    /// A pure function of the image and the faces; the input image is not changed.
    public func render(_ image: VipsImage, faces: [StyledFace]) throws -> VipsImage {
        let regions = placed(faces, in: image)
        let backdrop = try background(for: image, faces: regions.map(\.0))
        // Measured once for the picture, where a drawing is matched to its tones.
        let exposure = try self.exposure ?? (regions.isEmpty || options.tone != .photo || backdrop != nil ? 1 : PictureExposure.gain(of: image))
        // Side by side (`sideBySide`) or one after another, the groups are put in in order, so
        // the result does not depend on which finished first.
        let groups = PixelRect.overlapGroups(regions.map(\.1))
        let drawn = Mutex<[Result<(VipsImage, PixelRect), any Error>?]>(Array(repeating: nil, count: groups.count))
        let drawOne: @Sendable (Int) -> Void = { i in
            let result = Result { try drawGroup(groups[i].map { regions[$0] }, image: image, backdrop: backdrop, exposure: exposure) }
            drawn.withLock { $0[i] = result }
        }
        if sideBySide && groups.count > 1 {
            DispatchQueue.concurrentPerform(iterations: groups.count, execute: drawOne)
        } else {
            groups.indices.forEach(drawOne)
        }
        let base = backdrop ?? image
        var out = base
        let results = try drawn.withLock { $0 }.map { try $0!.get() }
        for (i, (group, rect)) in results.enumerated() {
            // A group drawn over the whole picture (a clip's region around its faces) is the
            // picture: held in memory as it is, not inserted into a pipeline to compute again.
            let whole = rect == PixelRect(x: 0, y: 0, width: out.width, height: out.height)
            if whole && group.bands == out.bands {
                out = group
            } else if group.bands == base.bands, results.indices.contains(where: { $0 != i && results[$0].1.intersects(rect) }) {
                out = try out.inserting(Self.drawnPart(of: group, over: base, and: out, at: rect), x: rect.x, y: rect.y)
            } else {
                out = try out.inserting(group, x: rect.x, y: rect.y)
            }
        }
        return out
    }

    /// A group's crop where another group's rectangle meets its own, as it is put back: the
    /// pixels it drew, and elsewhere `current` (the picture so far), not the `base` it was
    /// drawn from. (Two faces overlapping on a diagonal enclose the corner they leave; a third
    /// face there touches neither and is drawn as a group of its own. Put back whole, the
    /// pair's rectangle put the photo back over the third face's drawing.) The groups' mattes
    /// never overlap (faces whose regions meet are one group), so a pixel this group drew is
    /// the base in every other group: band by band, what differs from the base is its drawing.
    static func drawnPart(of group: VipsImage, over base: VipsImage, and current: VipsImage, at rect: PixelRect) throws -> VipsImage {
        let before = try base.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        let now = try current.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return try group.relational("noteq", before).ifThenElse(group, now)
    }

    /// The faces' regions as one 8-bit mask the size of `image` (255 = styled), as `render`
    /// blends them: for measuring and showing where styles reach.
    public func regionMask(_ image: VipsImage, faces: [StyledFace]) throws -> VipsImage {
        let regions = placed(faces, in: image)
        var out = try VipsImage.solid(width: image.width, height: image.height, pixel: [0])
        for group in PixelRect.overlapGroups(regions.map(\.1)) {
            let members = group.map { regions[$0] }
            let rect = members.map(\.1).reduce(members[0].1) { $0.union($1) }
            _ = try drawable(members.map(\.0), in: image) // a face too large to draw says so here too
            let crop = try image.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            let mask = try self.mask(for: members.map(\.0), of: members.map(\.0), crop: crop, in: rect, of: image)
            // The masks so far kept where this group's rectangle meets another's (`drawnPart`).
            let so = try out.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            out = try out.inserting(mask.relational("more", so).ifThenElse(mask, so), x: rect.x, y: rect.y)
        }
        return out
    }

    /// Each usable face with the part of the image its region can reach.
    private func placed(_ faces: [StyledFace], in image: VipsImage) -> [(StyledFace, PixelRect)] {
        let bounds = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        return faces.compactMap { face in reachedPart(of: face, in: bounds).map { (face, $0) } }
    }

    /// The part of `bounds` (the image) a face's region can reach; nil for an unusable box or
    /// one whose reach misses the image.
    private func reachedPart(of face: StyledFace, in bounds: PixelRect) -> PixelRect? {
        PixelRect(enclosing: reach(of: face.box, landmarks: face.landmarks, carrying: face.matte))?.clipped(to: bounds)
    }

    /// Whether drawing a face in `style` changes any pixel: not for a style that leaves faces
    /// as they are (`none`) with nothing drawn around them; such faces are skipped outright.
    public func changesPixels(_ style: FaceStyle) -> Bool {
        options.background != nil || !((try? registry.filter(style.filterID))?.leavesFacesAsTheyAre ?? false)
    }

    /// The part of the photo a face's region can cover: the grown box for the ellipse; for the
    /// mattes, the largest head (with its hair), face or person the face box can belong to, and
    /// wherever the region's own outer limit reaches (a tilted head, a turned one whose far
    /// cheek, ear and hair lie beside its box: `HeadTurn`): a matte never meets the edge of the
    /// crop it is cut and drawn on. A matte carried from an earlier picture (`carrying`) is
    /// drawn wherever it reaches as carried, though the face's landmarks have moved since.
    public func reach(of box: FaceBox, landmarks: [Point] = [], carrying matte: CarriedMatte? = nil) -> FaceBox {
        reach(of: box, landmarks: landmarks, carrying: matte, region: options.region)
    }

    /// `reach(of:landmarks:carrying:)` for `region` rather than the options' own.
    func reach(of box: FaceBox, landmarks: [Point] = [], carrying matte: CarriedMatte? = nil, region: RenderOptions.Region) -> FaceBox {
        let w = box.width, h = box.height
        let around: FaceBox
        switch region {
        case .ellipse: return box.grown(by: options.boxScale)
        case .face: around = box.grown(by: 1.6)
        case .head: around = FaceBox(x: box.x - 0.5 * w, y: box.y - 0.85 * h, width: 2 * w, height: 2.5 * h)
        case .person: around = FaceBox(x: box.x - 1.3 * w, y: box.y - 0.85 * h, width: 3.6 * w, height: 5.85 * h)
        }
        guard let kind = region.matte else { return around }
        let limit = PortraitOperations.regionBounds(of: FaceRegion(x: box.x, y: box.y, width: w, height: h,
                                                                   landmarks: landmarks.map { SIMD2($0.x, $0.y) }), region: kind)
        return [limit.map { FaceBox(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }, matte?.reach(for: box)]
            .compactMap { $0 }
            .reduce(around) { a, b in
                let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
                return FaceBox(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0)
            }
    }

    /// One group of overlapping faces, drawn on its crop and computed into memory (once: the
    /// export then streams the photo past it without re-running the filter for every strip).
    private func drawGroup(_ members: [(StyledFace, PixelRect)], image: VipsImage, backdrop: VipsImage?,
                           exposure: Double) throws -> (VipsImage, PixelRect) {
        let rect = members.map(\.1).reduce(members[0].1) { $0.union($1) }
        let faces = members.map(\.0)
        // A group drawn on an earlier picture whose faces have only moved since: its drawing is
        // laid where they have moved to.
        if backdrop == nil, let carried = faces[0].drawing, faces.allSatisfy({ $0.drawing == carried }) {
            let crop = try image.copied(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            guard let layer = try carried.drawing.layer() else { return (crop, rect) }
            return (try Self.laid(layer, offset: carried.offset, over: crop, in: rect), rect)
        }
        // An editor's preview redraws only the groups whose faces changed.
        if let memo {
            return (try memo.group(faces, on: image, behind: backdrop, options: options) {
                try draw(faces, in: rect, image: image, backdrop: backdrop, exposure: exposure)
            }, rect)
        }
        return (try draw(faces, in: rect, image: image, backdrop: backdrop, exposure: exposure), rect)
    }

    /// Every image a face passes through here is held in memory and handed on as bytes: the
    /// crop, the mask, the exposed copy, the drawing, its tone and the blend. On a face a few
    /// hundred pixels across, a libvips operation's set-up and its worker threads cost more
    /// than its pixels; a face costs no libvips evaluation where it cost about ten, and ~35
    /// operations built (the resizes around a style sized to the face are `sk_resample`).
    private func draw(_ faces: [StyledFace], in rect: PixelRect, image: VipsImage, backdrop: VipsImage?, exposure: Double) throws -> VipsImage {
        let crop = try image.copied(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        // Faces are blended over the background style where there is one, else over the photo.
        let behind = try backdrop?.copied(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        var drawn = behind ?? crop
        // One pass per distinct style in the group, in the order faces were given.
        var styles: [FaceStyle] = []
        for face in faces where !styles.contains(face.style) { styles.append(face.style) }
        for style in styles {
            let styled = faces.filter { $0.style == style }
            guard changesPixels(style) else { continue }
            let filter = try registry.filter(style.filterID)
            let faceSize = styled.map(drawingSize).reduce(0, +) / Double(styled.count)
            if !filter.blendsThroughFaceMask {
                let regions = styled.map { FaceRegion(box: $0.box, landmarks: $0.landmarks, in: rect) }
                let context = FilterContext(faceSize: max(faceSize, 1), seed: Self.seed(for: styled[0]), faces: regions)
                drawn = try filter.apply(to: drawn, settings: style.settings, context: context).inMemory()
                continue
            }
            for batch in try drawable(styled, in: image) {
                guard let layer = try layer(of: batch, among: faces, filter: filter, style: style, faceSize: faceSize,
                                            crop: crop, behind: behind, rect: rect, image: image, exposure: exposure) else { continue }
                drawn = try Self.blended(layer.drawing, through: layer.mask, over: drawn, at: layer.reached, greyFringe: true)
            }
        }
        return try drawn.inMemory()
    }

    /// `faces` (of one style) in the passes they are drawn in: together, over the extent of
    /// their regions, or one by one where that extent is larger than the drawing code draws
    /// (`PortraitOperations.largestSide`: a row of people across a panorama, whose regions
    /// touch, one after another). A face whose own region reaches further than that (a box
    /// drawn by hand across a panorama) cannot be drawn, and says so.
    private func drawable(_ faces: [StyledFace], in image: VipsImage) throws -> [[StyledFace]] {
        let largest = PortraitOperations.largestSide
        func fits(_ r: PixelRect) -> Bool { r.width <= largest && r.height <= largest }
        let bounds = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let reaches = faces.map { reachedPart(of: $0, in: bounds) }
        let known = reaches.compactMap { $0 }
        guard let first = known.first, !fits(known.dropFirst().reduce(first) { $0.union($1) }) else { return [faces] }
        for (face, reach) in zip(faces, reaches) {
            if let reach, !fits(reach) {
                throw RenderError.faceTooLarge(box: face.box, reach: (reach.width, reach.height), largest: largest)
            }
        }
        return faces.map { [$0] }
    }

    /// The drawing of the faces `styled` (of one `style`, among the group's `faces`) over the
    /// part of `crop` (the image at `rect`) their region reaches, with that part of their mask;
    /// nil where the mask is empty. A drawing matched to the photo's tones is matched to them
    /// at `exposure`.
    private func layer(of styled: [StyledFace], among faces: [StyledFace], filter: any SketchFilter, style: FaceStyle,
                       faceSize: Double, crop: VipsImage, behind: VipsImage?, rect: PixelRect,
                       image: VipsImage, exposure: Double) throws -> (drawing: VipsImage, mask: VipsImage, reached: PixelRect)? {
        // Each face's own box: an enlarged box draws its face as the face's box does.
        let regions = styled.map { FaceRegion(box: $0.box, landmarks: $0.landmarks, in: rect).ownBox }
        let context = FilterContext(faceSize: max(faceSize, 1), seed: Self.seed(for: styled[0]), faces: regions)
        // Drawn only where the region reaches (`drawsWithinRegions`).
        let mask = try mask(for: styled, of: faces, crop: crop, in: rect, of: image).inMemory()
        let everything = PixelRect(x: 0, y: 0, width: rect.width, height: rect.height)
        var reached = everything
        if drawsWithinRegions {
            guard let extent = try Self.extent(of: mask, margin: 4 + Int((0.05 * faceSize).rounded(.up))) else { return nil }
            reached = extent
        }
        let whole = reached == everything
        func part(_ image: VipsImage) throws -> VipsImage {
            whole ? image : try image.copied(x: reached.x, y: reached.y, width: reached.width, height: reached.height)
        }
        let source = try part(crop)
        // Laid on the picture as a canvas: the part drawn gets the textures the picture has
        // there, whatever crop it is cut from (a group's, an enlarged box's). In motion, on a
        // canvas centred on the (first) face instead.
        let corner = SIMD2(rect.x + reached.x, rect.y + reached.y)
        var local = whole ? context : FilterContext(faceSize: context.faceSize, seed: context.seed,
                                                     faces: regions.map { $0.moved(by: -reached.x, -reached.y) })
        local.origin = drawsInMotion ? Self.canvasOrigin(of: corner, around: styled[0].box) : corner
        var filtered = try Self.apply(filter, to: source, settings: style.settings, context: local)
        let region = try part(mask)
        // A drawing's lightness is matched to the picture it sits in: the photo, or the
        // background style drawn over it (a face drawn in a dark room, in a photo whose
        // background is drawn on paper, is drawn as light as the paper around it, not as
        // the dark room: a panel called that "a dark smudge over the face"). An under-exposed
        // photo's drawings are made at a normal exposure (`PictureExposure`) inside their
        // region, and come back to the photo's own lightness at its edge, where they meet it
        // (`ToneMatch.exposureRamp`); a background style's picture is drawn on its paper already.
        if filter.takesPhotoTone && options.tone == .photo {
            let surroundings = try behind.map(part) ?? source
            filtered = try ToneMatch.apply(filtered, like: surroundings, reach: 0.12 * max(faceSize, 1), paperLift: filter.paperLift,
                                           shadowContrast: filter.shadowContrast, exposure: behind == nil ? exposure : 1,
                                           region: region, regionRamp: ToneMatch.exposureRamp * max(faceSize, 1),
                                           ownTone: filter.ownTone)
        }
        return (filtered, region, reached)
    }

    /// The drawing of a group of faces on `pixels` (packed RGB, the picture's part `region`; the
    /// faces in the part's coordinates), as `render` draws it there, to carry to later
    /// pictures: the part as drawn and as it was, over the extent of the faces' regions, with
    /// their mask; nil where nothing of them is drawn. Not with a background style. At
    /// `exposure` (a part does not show the picture's white: 1 where it is not set).
    public func carriedLayer(of faces: [StyledFace], on pixels: [UInt8], region: PixelRect) throws -> CarriedDrawing.Layer? {
        guard options.background == nil, !faces.isEmpty else { return nil }
        let crop = try VipsImage.fromPixels(pixels, width: region.width, height: region.height, bands: 3)
        let rect = PixelRect(x: 0, y: 0, width: region.width, height: region.height)
        let fresh = faces.map { face -> StyledFace in
            var face = face
            face.drawing = nil
            return face
        }
        let styled = fresh.filter { changesPixels($0.style) }
        guard !styled.isEmpty else { return nil }
        let mask = try self.mask(for: styled, of: fresh, crop: crop, in: rect, of: crop).inMemory()
        guard let extent = try Self.extent(of: mask, margin: 0) else { return nil }
        let drawn = try draw(fresh, in: rect, image: crop, backdrop: nil, exposure: exposure ?? 1)
        func part(_ image: VipsImage) throws -> [UInt8] {
            try image.copied(x: extent.x, y: extent.y, width: extent.width, height: extent.height).pixels()
        }
        return CarriedDrawing.Layer(drawing: try part(drawn), photo: try part(crop), mask: try part(mask.cast(.uchar)),
                                    x: region.x + extent.x, y: region.y + extent.y, width: extent.width, height: extent.height, bands: 3)
    }

    /// A carried drawing laid over `base` (the picture's part `rect`), `offset` whole pixels
    /// from where it was made: where its mask is whole, the drawing; where the mask fades, the
    /// drawing with the picture's change since under it (`Layer.laid`); what falls outside
    /// `rect` is left out.
    static func laid(_ layer: CarriedDrawing.Layer, offset: SIMD2<Int>, over base: VipsImage, in rect: PixelRect) throws -> VipsImage {
        guard layer.bands == base.bands, base.format == .uchar else { return base }
        var out = try base.pixels()
        try layer.laid(over: &out, width: base.width, height: base.height, at: SIMD2(layer.x + offset.x - rect.x, layer.y + offset.y - rect.y))
        return try VipsImage.fromPixels(out, width: base.width, height: base.height, bands: base.bands).reinterpreted(as: base.interpretation ?? .srgb)
    }

    /// The size (shorter side, pixels) a face's style is drawn for: its box's, or in motion
    /// (`drawsInMotion`) the size held for it over the clip's frames, else its box's rounded to
    /// an eighth of an octave (steps of 9 %, `Self.sizeStep`), so a tracked box that grows or
    /// shrinks by a pixel or two between frames does not resize every stroke.
    func drawingSize(of face: StyledFace) -> Double {
        let side = Self.drawnSize(of: face.box, landmarks: face.landmarks)
        guard drawsInMotion, side > 1 else { return side }
        return face.drawingSize ?? Self.size(ofStep: Self.sizeStep(of: side).rounded())
    }

    /// The size a face's style is drawn for: its box's shorter side, no more than its
    /// landmarks imply (`FaceRegion.drawnSize`: an enlarged box draws its face's strokes at the
    /// face's size).
    public static func drawnSize(of box: FaceBox, landmarks: [Point]) -> Double {
        FaceRegion(box: box, landmarks: landmarks, in: PixelRect(x: 0, y: 0, width: 0, height: 0)).drawnSize
    }

    /// Sizes in steps of an eighth of an octave: the step a size is at (fractional), and a step's size.
    public static func sizeStep(of size: Double) -> Double { log2(size) * 8 }
    public static func size(ofStep step: Double) -> Double { exp2(step / 8) }

    /// Where a part of a picture whose top-left pixel is at `corner` lies on a canvas centred
    /// on `face` (at `canvasCentre`, so no part has a negative origin in frames up to 16,384
    /// pixels across; the styles' textures repeat, so only the offset from the face matters).
    static func canvasOrigin(of corner: SIMD2<Int>, around face: FaceBox) -> SIMD2<Int> {
        let centre = SIMD2(Int((face.x + face.width / 2).rounded()), Int((face.y + face.height / 2).rounded()))
        let origin = corner &- centre &+ canvasCentre
        return SIMD2(max(0, origin.x), max(0, origin.y))
    }

    static let canvasCentre = SIMD2(16_384, 16_384)

    /// `top` laid over `base` at `rect` through `mask` (one band, 0 = `base`, 255 = `top`; `top`
    /// and `mask` the rectangle's size), as libvips' blending `ifthenelse` and `insert` give it,
    /// computed over the held bytes of the three: a new image held in memory. With `greyFringe`,
    /// a grey drawing's soft edge first fades the colour of the skin under it to grey
    /// (`PortraitOperations.greyFringe`): judged blind, a drawn head without a rim of skin
    /// colour was preferred 151 to 59 over two rounds (docs/look-panel.md).
    static func blended(_ top: VipsImage, through mask: VipsImage, over base: VipsImage, at rect: PixelRect,
                        greyFringe: Bool = false) throws -> VipsImage {
        let formats = [top, mask, base].map(\.format)
        guard formats.allSatisfy({ $0 == .uchar }), top.bands == base.bands, (1...4).contains(base.bands), mask.bands == 1,
              top.width == rect.width, top.height == rect.height, mask.width == rect.width, mask.height == rect.height else {
            let blended = try mask.ifThenElse(top, base.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height), blend: true)
            return try base.inserting(blended, x: rect.x, y: rect.y).inMemory()
        }
        var out = try base.pixels()
        let bands = base.bands, topBytes = try top.pixels(), maskBytes = try mask.pixels()
        if greyFringe && bands == 3 {
            try PortraitOperations.greyFringe(under: topBytes, through: maskBytes, width: rect.width, height: rect.height,
                                              over: &out, baseWidth: base.width, x: rect.x, y: rect.y)
        }
        try PortraitOperations.blend(topBytes, through: maskBytes, width: rect.width, height: rect.height, bands: bands,
                                     over: &out, baseWidth: base.width, x: rect.x, y: rect.y)
        return try VipsImage.fromPixels(out, width: base.width, height: base.height, bands: bands).reinterpreted(as: base.interpretation ?? .srgb)
    }

    /// The rectangle of `mask` (one band, 8-bit) holding every pixel above 0, grown by
    /// `margin` and kept inside it; nil when the mask is empty.
    static func extent(of mask: VipsImage, margin: Int) throws -> PixelRect? {
        let pixels = try mask.pixels(), width = mask.width, height = mask.height
        var x0 = width, y0 = height, x1 = -1, y1 = -1
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let row = y * width
                guard let first = (0..<width).first(where: { p[row + $0] > 0 }) else { continue }
                let last = (first..<width).last(where: { p[row + $0] > 0 })!
                x0 = min(x0, first); x1 = max(x1, last); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else { return nil }
        let left = max(0, x0 - margin), top = max(0, y0 - margin)
        return PixelRect(x: left, y: top, width: min(width, x1 + 1 + margin) - left, height: min(height, y1 + 1 + margin) - top)
    }

    /// The face sizes (shorter side, pixels) styles sized to the face draw at: a smaller face is
    /// drawn on an enlarged copy of its crop (at most 3×), so strokes get room to be strokes, not
    /// noise, and come out fine and antialiased; a larger one on a reduced copy, since its
    /// strokes are sized to the face anyway and the work grows with the square of the size.
    static let drawingFaceSizes = 100.0...300.0

    /// Runs a filter, on a resized copy of the crop for styles sized to the face.
    /// Styles that set their own tones draw an under-exposed face brightened to a normal
    /// exposure (`FaceExposure`): in a dark room they find its edges and forms, and `ToneMatch`
    /// then brings the drawing back down to the photo's lightness.
    static func apply(_ filter: any SketchFilter, to photoCrop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let crop = filter.takesPhotoTone
            ? try FaceExposure.apply(photoCrop, gain: FaceExposure.gain(for: photoCrop, faces: context.faces)) : photoCrop
        let size = context.faceSize
        let target = min(max(size, drawingFaceSizes.lowerBound), drawingFaceSizes.upperBound)
        // Never larger than the drawing code draws (a small face's box drawn by hand across a
        // panorama: its enlarged copy would be wider than that).
        let fits = Double(PortraitOperations.largestSide) / Double(max(crop.width, crop.height))
        let factor = min(3, target / size, max(fits, 1))
        guard filter.scalesWithFace, abs(factor - 1) > 0.05 else {
            return try filter.apply(to: crop, settings: settings, context: context)
        }
        // Resampled over the crop's bytes, there and back (the crop and the drawing are held).
        let copy = try PortraitOperations.resampled(crop, width: max(1, Int((Double(crop.width) * factor).rounded())),
                                                    height: max(1, Int((Double(crop.height) * factor).rounded())))
        let faces = context.faces.map { f in
            FaceRegion(x: f.x * factor, y: f.y * factor, width: f.width * factor, height: f.height * factor,
                       landmarks: f.landmarks.map { $0 * factor })
        }
        let origin = SIMD2((Double(context.origin.x) * factor).rounded(), (Double(context.origin.y) * factor).rounded())
        let scaled = FilterContext(faceSize: size * factor, seed: context.seed, faces: faces, backdrop: context.backdrop, photoPixel: factor,
                                   origin: SIMD2(Int(origin.x), Int(origin.y)))
        let drawn = try filter.apply(to: copy, settings: settings, context: scaled)
        return try PortraitOperations.resampled(drawn, width: crop.width, height: crop.height)
    }

    /// The background style drawn over the whole image, or nil when there is none. Its
    /// strokes are sized for the faces in the photo (a fifth of the shorter side without any).
    func background(for image: VipsImage, faces: [StyledFace]) throws -> VipsImage? {
        guard let style = options.background else { return nil }
        let filter = try registry.filter(style.filterID)
        let sizes = faces.map { Self.drawnSize(of: $0.box, landmarks: $0.landmarks) }
        let faceSize = sizes.isEmpty ? Double(min(image.width, image.height)) / 5 : sizes.reduce(0, +) / Double(sizes.count)
        let context = FilterContext(faceSize: max(faceSize, 1), seed: 0x5ce7e, backdrop: backdrop)
        let draw = { try Self.drawnWhole(image, filter: filter, settings: style.settings, context: context) }
        guard let memo else { return try draw() }
        return try memo.background(style, on: image, faceSize: context.faceSize, backdrop: backdrop, draw: draw)
    }

    /// `filter` drawn over the whole of `image`. A picture longer than the drawing code draws
    /// (`PortraitOperations.largestSide` on a side: a stitched panorama) is drawn on a copy
    /// reduced to fit, its strokes sized for the faces as reduced, and enlarged back: a
    /// background reads as a whole, and was refused with the drawing code's own message.
    static func drawnWhole(_ image: VipsImage, filter: any SketchFilter, settings: FilterSettings,
                           context: FilterContext) throws -> VipsImage {
        let longer = max(image.width, image.height), largest = PortraitOperations.largestSide
        guard longer > largest else { return try filter.apply(to: image, settings: settings, context: context) }
        let scale = Double(largest) / Double(longer)
        let width = min(largest, max(1, Int((Double(image.width) * scale).rounded(.down))))
        let height = min(largest, max(1, Int((Double(image.height) * scale).rounded(.down))))
        // (`embed` makes the size exact whichever way the resampler rounds.)
        let reduced = try image.resize(scale: Double(width) / Double(image.width), verticalScale: Double(height) / Double(image.height),
                                       kernel: "linear").embed(x: 0, y: 0, width: width, height: height, extend: "copy")
        let scaled = FilterContext(faceSize: max(1, context.faceSize * scale), seed: context.seed, backdrop: context.backdrop)
        let drawn = try filter.apply(to: reduced.inMemory(), settings: settings, context: scaled)
        let enlarged = try drawn.resize(scale: Double(image.width) / Double(drawn.width),
                                        verticalScale: Double(image.height) / Double(drawn.height), kernel: "linear")
        return try enlarged.embed(x: 0, y: 0, width: image.width, height: image.height, extend: "copy")
    }

    /// One 8-bit mask over `crop` (the image at `rect`) for the faces `styled`, among all the
    /// faces of the group `all`: each face's region, merged by per-pixel maximum. A face that
    /// carries a matte (`StyledFace.matte`) has it placed on its box; the others are cut here
    /// (or remembered from an earlier preview of `image`, the picture `crop` is part of).
    func mask(for styled: [StyledFace], of all: [StyledFace], crop: VipsImage, in rect: PixelRect, of image: VipsImage) throws -> VipsImage {
        guard let kind = options.region.matte else { return try mask(for: styled.map(\.box), in: rect) }
        let bounds = PixelRect(x: 0, y: 0, width: rect.width, height: rect.height)
        let mattes = try styled.compactMap { face -> VipsImage? in
            let shifted = FaceRegion(box: face.box, landmarks: face.landmarks, in: rect)
            if let carried = face.matte {
                let local = FaceBox(x: shifted.x, y: shifted.y, width: shifted.width, height: shifted.height)
                return try carried.placed(for: local, over: bounds)
            }
            let others = all.filter { $0 != face }
            let regions = others.map { FaceRegion(box: $0.box, landmarks: $0.landmarks, in: rect) }
            let cutHere = { () throws -> VipsImage? in
                guard let cut = try Self.cut(shifted, others: regions, in: crop, region: kind, reach: { reach(of: $0, landmarks: $1, region: $2) }) else { return nil }
                return try cut.matte.embed(x: cut.x, y: cut.y, width: rect.width, height: rect.height)
            }
            guard let memo else { return try cutHere() }
            return try memo.matte(for: face, others: others, in: rect, of: image, region: options.region) {
                try cutHere() ?? VipsImage.solid(width: rect.width, height: rect.height, pixel: [0])
            }
        }
        guard !mattes.isEmpty else { return try VipsImage.solid(width: rect.width, height: rect.height, pixel: [0]) }
        return mattes.count == 1 ? mattes[0] : try VipsImage.bandrank(mattes, index: mattes.count - 1)
    }

    /// The region matte of `face` on `image` (boxes in the image's coordinates), cut over the
    /// face's reach clipped to the image, the `others` kept out of it as background; nil with
    /// the ellipse region, or for a face whose reach misses the image.
    public func cutMatte(for face: StyledFace, others: [StyledFace], in image: VipsImage) throws -> CarriedMatte.Cut? {
        guard let kind = options.region.matte else { return nil }
        let whole = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        return try Self.cut(FaceRegion(box: face.box, landmarks: face.landmarks, in: whole),
                            others: others.map { FaceRegion(box: $0.box, landmarks: $0.landmarks, in: whole) },
                            in: image, region: kind, reach: { reach(of: $0, landmarks: $1, region: $2) })
    }

    /// Cuts the matte on the face's own reach only: GrabCut runs on as little as it needs. A
    /// person's matte is its head's, cut as the head region cuts it on the head's reach, and
    /// from the chin down its body's, cut on the person's reach (none where that cut is not
    /// trusted). Cut whole, a person lost hair and scalp the head's own cut keeps, and a body
    /// the cut was unsure of was drawn as a band down from the chin.
    private static func cut(_ face: FaceRegion, others: [FaceRegion], in image: VipsImage, region kind: PortraitOperations.Region,
                            reach: (FaceBox, [Point], RenderOptions.Region) -> FaceBox) throws -> CarriedMatte.Cut? {
        guard kind == .person else { return try cutOne(face, others: others, in: image, region: kind, reach: reach) }
        guard let body = try cutOne(face, others: others, in: image, region: .person, reach: reach) else { return nil }
        guard let head = try cutOne(face, others: others, in: image, region: .head, reach: reach) else { return body }
        let placed = try head.matte.embed(x: head.x - body.x, y: head.y - body.y, width: body.matte.width, height: body.matte.height)
        var person = body
        person.matte = try VipsImage.bandrank([body.matte, placed], index: 1)
        return person
    }

    /// One matte of `kind`, cut on the face's reach for that kind.
    private static func cutOne(_ face: FaceRegion, others: [FaceRegion], in image: VipsImage, region kind: PortraitOperations.Region,
                               reach: (FaceBox, [Point], RenderOptions.Region) -> FaceBox) throws -> CarriedMatte.Cut? {
        let bounds = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let box = FaceBox(x: face.x, y: face.y, width: face.width, height: face.height)
        guard let whole = PixelRect(enclosing: reach(box, face.landmarks.map { Point(x: $0.x, y: $0.y) }, RenderOptions.Region(kind))),
              let own = whole.clipped(to: bounds) else { return nil }
        // Where the picture ends inside the reach, the head goes on beyond it.
        let beyond = CarriedMatte.Margins(left: own.x - whole.x, top: own.y - whole.y,
                                          right: whole.x + whole.width - own.x - own.width,
                                          bottom: whole.y + whole.height - own.y - own.height)
        let faces = ([face] + others).map { region in
            FaceRegion(x: region.x - Double(own.x), y: region.y - Double(own.y), width: region.width,
                       height: region.height, landmarks: region.landmarks.map { $0 - SIMD2(Double(own.x), Double(own.y)) })
        }
        let part = try image.crop(x: own.x, y: own.y, width: own.width, height: own.height)
        let matte = try PortraitOperations.regionMatte(of: part, faces: faces, target: 0, region: kind, workSize: 56)
        return CarriedMatte.Cut(matte: matte, x: own.x, y: own.y, box: box, beyond: beyond)
    }

    /// One 8-bit mask over `rect`: 255 inside each face's ellipse, fading to 0 at its rim.
    func mask(for boxes: [FaceBox], in rect: PixelRect) throws -> VipsImage {
        let coords = try VipsImage.coordinates(width: rect.width, height: rect.height)
        let feather = max(options.feather, 0.001)
        let masks = try boxes.map { box -> VipsImage in
            let grown = box.grown(by: options.boxScale)
            let rx = grown.width / 2, ry = grown.height / 2
            let cx = grown.center.x - Double(rect.x), cy = grown.center.y - Double(rect.y)
            // Normalised offsets from the centre, then the elliptical radius r = |offset|.
            let offset = try coords.linear([1 / rx, 1 / ry], [-cx / rx, -cy / ry])
            let squared = try offset.multiply(offset)
            let radius = try squared.extractBands(0).add(squared.extractBands(1)).math2("pow", constant: [0.5])
            // 1 inside r <= 1 - feather, 0 beyond r = 1, linear in between; cast clips to 0...255.
            guard options.edge == .strokes else { return try radius.linear(-255 / feather, 255 / feather).cast(.uchar) }
            let ramp = try radius.linear(-1 / feather, 1 / feather)
            return try StrokedEdge.mask(from: ramp, strokeLength: 0.3 * feather * min(grown.width, grown.height),
                                        seed: Self.seed(for: box))
        }
        return masks.count == 1 ? masks[0] : try VipsImage.bandrank(masks, index: masks.count - 1)
    }

    /// The seed of a face's textures, so they do not change between renders: the one place
    /// seeds are made (from the face's position).
    static func seed(for face: StyledFace) -> Int {
        face.seed ?? seed(for: face.box)
    }

    /// The seed of textures belonging to a box (from its position).
    static func seed(for box: FaceBox) -> Int {
        return (Int(box.x.rounded()) &* 73_856_093) ^ (Int(box.y.rounded()) &* 19_349_663) & 0x7fff_ffff
    }
}

extension FaceRegion {
    /// A face as the filter running on the crop `rect` sees it: in the crop's coordinates.
    init(box: FaceBox, landmarks: [Point], in rect: PixelRect) {
        let dx = Double(rect.x), dy = Double(rect.y)
        self.init(x: box.x - dx, y: box.y - dy, width: box.width, height: box.height,
                  landmarks: landmarks.map { SIMD2($0.x - dx, $0.y - dy) })
    }
}
