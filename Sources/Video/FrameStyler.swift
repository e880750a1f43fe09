import FFmpeg
import Foundation
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

    public init(compositor: FaceCompositor) {
        self.compositor = compositor
    }

    /// One face to draw: where, in which style, how strongly.
    public struct Face: Sendable {
        public var face: TrackedFace
        public var style: FaceStyle
        /// The head matte carried from the frame it was cut on; nil = cut on this frame.
        public var matte: CarriedMatte?
        public init(_ face: TrackedFace, style: FaceStyle, matte: CarriedMatte? = nil) {
            self.face = face; self.style = style; self.matte = matte
        }
    }

    /// The seed a track draws with, the same on every frame.
    public static func seed(forTrack id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(id) &+ 0x9E37_79B9) &* 0xBF58_476D_1CE4_E5B9 >> 33)
    }

    /// Draws `faces` into `frame`. With a background style the whole frame is redrawn (over
    /// `backdrop`, a background clip's frame, where the style puts a picture in).
    public func draw(_ faces: [Face], into frame: VideoFrame, backdrop: VipsImage? = nil) throws {
        let bounds = (width: frame.width, height: frame.height)
        if compositor.options.background != nil {
            var whole = self
            whole.compositor.backdrop = backdrop
            try whole.draw(faces, region: Region(x: 0, y: 0, width: bounds.width, height: bounds.height), into: frame, wholeFrame: true)
            return
        }
        // Faces left as filmed are not read out at all.
        let faces = faces.filter { compositor.changesPixels($0.style) }
        // Each face's region is read out as far as its style can reach (the photo path's rule).
        let regions = faces.map { Region(enclosing: compositor.reach(of: $0.face.box), in: bounds) }
        for group in Region.overlapGroups(regions) {
            guard let region = group.compactMap({ regions[$0] }).reduce(nil, { (u: Region?, r) in u?.union(r) ?? r }) else { continue }
            try draw(group.map { faces[$0] }, region: region, into: frame, wholeFrame: false)
        }
    }

    /// Blends `after` back towards `before` where a face's cover keeps less than all of its
    /// style; not over another face of the group drawn there (its box, grown by a fifth: it may
    /// be what stands in front).
    static func cut(_ after: inout [UInt8], before: [UInt8], faces: [Face], region: Region) {
        let covered = faces.indices.filter { faces[$0].face.cover != nil }
        let boxes = faces.map { $0.face.box.grown(by: 1.2) }
        for row in 0..<region.height {
            let y = Double(region.y + row) + 0.5
            for col in 0..<region.width {
                let x = Double(region.x + col) + 0.5
                var keep = 1.0
                for i in covered {
                    guard let cover = faces[i].face.cover else { continue }
                    let k = cover.keep(atX: x, y: y)
                    guard k < keep else { continue }
                    if faces.count > 1, boxes.indices.contains(where: { $0 != i && x >= boxes[$0].x && x < boxes[$0].maxX && y >= boxes[$0].y && y < boxes[$0].maxY }) { continue }
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

    private func draw(_ faces: [Face], region: Region, into frame: VideoFrame, wholeFrame: Bool) throws {
        let before = frame.rgb(x: region.x, y: region.y, width: region.width, height: region.height)
        let image = try VipsImage.fromPixels(before, width: region.width, height: region.height, bands: 3)
        let dx = Double(region.x), dy = Double(region.y)
        // Faces fading in or out: with a background style the whole frame is one drawing, so
        // a face is drawn from halfway through its fade.
        let drawn = faces.filter { !wholeFrame || $0.face.opacity >= 0.5 }
        let styled = drawn.map { f in
            StyledFace(box: FaceBox(x: f.face.box.x - dx, y: f.face.box.y - dy, width: f.face.box.width, height: f.face.box.height),
                       style: f.style, landmarks: f.face.landmarks.map { Point(x: $0.x - dx, y: $0.y - dy) },
                       seed: Self.seed(forTrack: f.face.id), matte: f.matte)
        }
        var after = try compositor.render(image, faces: styled).pixels()
        // Where something covers a face, its style is cut away (the frame shows what covers it).
        // Not with a background style: there the frame as it came in is not what belongs there.
        if !wholeFrame, drawn.contains(where: { $0.face.cover != nil }) { Self.cut(&after, before: before, faces: drawn, region: region) }
        let opacity = wholeFrame ? 1 : faces.map(\.face.opacity).max() ?? 1
        try frame.write(rgb: after, before: before, x: region.x, y: region.y, width: region.width, height: region.height,
                        opacity: opacity)
    }
}
