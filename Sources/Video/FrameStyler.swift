import FFmpeg
import Foundation
import Synchronization
import SketchEase

/// Draws tracked faces' styles into a frame, in place.
///
/// Only the faces' regions are touched: each group of overlapping faces is read out of the
/// frame as RGB, drawn by the photo path's `FaceCompositor` (the same styles, masks and
/// feathering as a photo), and written back where the style changed a pixel, so everything
/// else stays exactly as decoded. Each track draws with its own seed, so its grain and
/// strokes stay put on a still face and move with a moving one.
public struct FrameStyler: Sendable {
    public var compositor: FaceCompositor

    /// Draws with `compositor`, as the frames of a moving picture (`FaceCompositor.drawsInMotion`).
    public init(compositor: FaceCompositor) {
        self.compositor = compositor
        self.compositor.drawsInMotion = true
    }

    /// One face to draw: where, in which style, how strongly.
    public struct Face: Sendable {
        public var face: TrackedFace
        public var style: FaceStyle
        /// The head matte carried from the frame it was cut on; nil = cut on this frame.
        public var matte: CarriedMatte?
        /// The drawing carried from an earlier frame, where the face has only moved since
        /// (`DrawingCarrier`); nil = drawn on this frame.
        public var drawing: CarriedDrawing.Placement?
        public init(_ face: TrackedFace, style: FaceStyle, matte: CarriedMatte? = nil, drawing: CarriedDrawing.Placement? = nil) {
            self.face = face; self.style = style; self.matte = matte; self.drawing = drawing
        }
    }

    /// The seed a track draws with, the same on every frame.
    public static func seed(forTrack id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(id) &+ 0x9E37_79B9) &* 0xBF58_476D_1CE4_E5B9 >> 33)
    }

    /// Draws `faces` into `frame`, at `exposure` (`FaceCompositor.exposure`: the clip's,
    /// followed to this frame). With a background style the whole frame is redrawn (over
    /// `backdrop`, a background clip's frame, where the style puts a picture in).
    public func draw(_ faces: [Face], into frame: VideoFrame, backdrop: VipsImage? = nil, exposure: Double = 1) throws {
        let bounds = (width: frame.width, height: frame.height)
        var styler = self
        styler.compositor.exposure = exposure
        if compositor.options.background != nil {
            styler.compositor.backdrop = backdrop
            try styler.draw(faces, region: PixelRect(x: 0, y: 0, width: bounds.width, height: bounds.height), into: frame, wholeFrame: true)
            return
        }
        for (region, members) in groups(faces, in: bounds, scale: 1) {
            try styler.draw(members, region: region, into: frame, wholeFrame: false)
        }
    }

    /// The faces that change pixels, in groups whose regions overlap, each with the region it
    /// is read out over: as far as its faces' styles can reach (the photo path's rule), in a
    /// picture `scale` times the frame's size. Faces left as filmed are not read out at all.
    func groups(_ faces: [Face], in bounds: (width: Int, height: Int), scale: Double) -> [(PixelRect, [Face])] {
        let faces = faces.filter { compositor.changesPixels($0.style) }
        let regions = faces.map { face in
            PixelRect(evenCornersAround: compositor.reach(of: face.face.box.scaled(x: scale, y: scale),
                                                          landmarks: face.face.landmarks.map { Point(x: $0.x * scale, y: $0.y * scale) },
                                                          carrying: face.matte), in: bounds)
        }
        return PixelRect.overlapGroups(regions, closed: true).compactMap { group -> (PixelRect, [Face])? in
            guard let region = group.compactMap({ regions[$0] }).reduce(nil, { (u: PixelRect?, r) in u?.union(r) ?? r }) else { return nil }
            return (region, group.map { faces[$0] })
        }
    }

    /// Blends `after` back towards `before` where a face's cover keeps less than all of its
    /// style; not where another face of the group is drawn (it may be what stands in front):
    /// within its carried matte, or without one its box grown by a fifth. (With the box alone,
    /// a face in front lost its drawing on its neck and collar, below its box, where the face
    /// behind it was covered.) `region` is in the pixels of a picture `scale` times the frame's
    /// size (the faces and their covers are in the frame's).
    static func cut(_ after: inout [UInt8], before: [UInt8], faces: [Face], region: PixelRect, scale: Double = 1) {
        let covered = faces.indices.filter { faces[$0].face.cover != nil }
        let boxes = faces.map { $0.face.box.grown(by: 1.2) }
        let mattes: [[UInt8]?] = faces.map { face in
            guard faces.count > 1, let matte = face.matte else { return nil }
            return try? matte.placed(for: face.face.box.scaled(x: scale, y: scale), over: region).pixels()
        }
        func drawn(_ j: Int, x: Double, y: Double, at pixel: Int) -> Bool {
            if let matte = mattes[j] { return matte[pixel] >= 128 }
            return x >= boxes[j].x && x < boxes[j].maxX && y >= boxes[j].y && y < boxes[j].maxY
        }
        for row in 0..<region.height {
            let y = (Double(region.y + row) + 0.5) / scale
            for col in 0..<region.width {
                let x = (Double(region.x + col) + 0.5) / scale
                var keep = 1.0
                for i in covered {
                    guard let cover = faces[i].face.cover else { continue }
                    let k = cover.keep(atX: x, y: y)
                    guard k < keep else { continue }
                    if faces.count > 1, faces.indices.contains(where: { $0 != i && drawn($0, x: x, y: y, at: row * region.width + col) }) { continue }
                    keep = k
                }
                guard keep < 1 else { continue }
                let i = (row * region.width + col) * 3
                for b in i..<(i + 3) {
                    let a = Double(after[b]), o = Double(before[b])
                    after[b] = UInt8(max(0, min(255, (o + (a - o) * keep).rounded())))
                }
            }
        }
    }

    private func draw(_ faces: [Face], region: PixelRect, into frame: VideoFrame, wholeFrame: Bool) throws {
        let before = frame.rgb(x: region.x, y: region.y, width: region.width, height: region.height)
        let after = try drawn(faces, region: region, before: before, wholeFrame: wholeFrame, scale: 1)
        try frame.write(rgb: after, before: before, x: region.x, y: region.y, width: region.width, height: region.height,
                        opacity: Self.opacity(of: faces, wholeFrame: wholeFrame))
    }

    /// Draws `faces` (in the frame's coordinates) on `picture`, the frame at `scale` times its
    /// size (a player's preview), as `draw(_:into:)` draws them into the frame: each group of
    /// overlapping faces over its reach, cut back where something covers a face, blended at the
    /// opacity of a face fading in or out. (The heads' mattes are cut on the picture.) At the
    /// compositor's exposure, or where it has none the picture's own.
    public func draw(_ faces: [Face], on picture: VipsImage, scale: Double) throws -> VipsImage {
        if compositor.exposure == nil {
            var styler = self
            styler.compositor.exposure = try PictureExposure.gain(of: picture)
            return try styler.draw(faces, on: picture, scale: scale)
        }
        let bounds = (width: picture.width, height: picture.height)
        if compositor.options.background != nil {
            let whole = PixelRect(x: 0, y: 0, width: bounds.width, height: bounds.height)
            let after = try drawn(faces, region: whole, before: picture.pixels(), wholeFrame: true, scale: scale)
            return try VipsImage.fromPixels(after, width: bounds.width, height: bounds.height, bands: 3).reinterpreted(as: .srgb)
        }
        let groups = groups(faces, in: bounds, scale: scale)
        // Side by side where the compositor draws for someone waiting (`sideBySide`), put in in order.
        let parts = Mutex<[Result<VipsImage, any Error>?]>(Array(repeating: nil, count: groups.count))
        let drawOne: @Sendable (Int) -> Void = { i in
            let (region, members) = groups[i]
            let result = Result { () throws -> VipsImage in
                let before = try picture.crop(x: region.x, y: region.y, width: region.width, height: region.height).pixels()
                let after = try drawn(members, region: region, before: before, wholeFrame: false, scale: scale)
                // At the group's opacity, as `VideoFrame.write` blends it (in 256ths).
                let alpha = (min(max(Self.opacity(of: members, wholeFrame: false), 0), 1) * 256).rounded()
                let blended = alpha >= 256 ? after : Self.blend(after, over: before, alpha: alpha / 256)
                return try VipsImage.fromPixels(blended, width: region.width, height: region.height, bands: 3)
            }
            parts.withLock { $0[i] = result }
        }
        if compositor.sideBySide && groups.count > 1 {
            DispatchQueue.concurrentPerform(iterations: groups.count, execute: drawOne)
        } else {
            groups.indices.forEach(drawOne)
        }
        var out = picture
        for (i, part) in parts.withLock({ $0 }).enumerated() {
            out = try out.inserting(try part!.get(), x: groups[i].0.x, y: groups[i].0.y)
        }
        return try out.reinterpreted(as: .srgb)
    }

    /// `after` laid over `before` at `alpha` (0...1).
    private static func blend(_ after: [UInt8], over before: [UInt8], alpha: Double) -> [UInt8] {
        var out = before
        for i in out.indices {
            let o = Double(before[i]), a = Double(after[i])
            out[i] = UInt8(max(0, min(255, (o + (a - o) * alpha).rounded())))
        }
        return out
    }

    /// How strongly a group's drawing is laid over the frame: its most opaque face's fade.
    private static func opacity(of faces: [Face], wholeFrame: Bool) -> Double {
        wholeFrame ? 1 : faces.map(\.face.opacity).max() ?? 1
    }

    /// `face` as the compositor draws it on `region` of a picture `scale` times the frame's size,
    /// in the region's coordinates.
    static func styled(_ face: Face, in region: PixelRect, scale: Double) -> StyledFace {
        let dx = Double(region.x), dy = Double(region.y)
        let box = face.face.box.scaled(x: scale, y: scale)
        return StyledFace(box: FaceBox(x: box.x - dx, y: box.y - dy, width: box.width, height: box.height),
                          style: face.style, landmarks: face.face.landmarks.map { Point(x: $0.x * scale - dx, y: $0.y * scale - dy) },
                          seed: seed(forTrack: face.face.id), matte: face.matte, drawingSize: face.face.drawingSize.map { $0 * scale },
                          // A carried drawing is laid in the frame's own pixels, here the region's.
                          drawing: scale == 1 ? face.drawing.map { CarriedDrawing.Placement($0.drawing, offset: $0.offset &- SIMD2(region.x, region.y)) } : nil)
    }

    /// The drawing of `faces` over `region` (`before`: its RGB pixels) of a picture `scale`
    /// times the frame's size.
    private func drawn(_ faces: [Face], region: PixelRect, before: [UInt8], wholeFrame: Bool, scale: Double) throws -> [UInt8] {
        let image = try VipsImage.fromPixels(before, width: region.width, height: region.height, bands: 3)
        // Faces fading in or out: with a background style the whole frame is one drawing, so
        // a face is drawn from halfway through its fade.
        let drawn = faces.filter { !wholeFrame || $0.face.opacity >= 0.5 }
        let styled = drawn.map { Self.styled($0, in: region, scale: scale) }
        var after = try compositor.render(image, faces: styled).pixels()
        // Where something covers a face, its style is cut away (the frame shows what covers it).
        // Not with a background style: there the frame as it came in is not what belongs there.
        if !wholeFrame, drawn.contains(where: { $0.face.cover != nil }) {
            Self.cut(&after, before: before, faces: drawn, region: region, scale: scale)
        }
        return after
    }
}
