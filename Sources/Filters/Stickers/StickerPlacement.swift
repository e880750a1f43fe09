import Foundation
import Synchronization
import Vips

/// Where one sticker goes: its centre, its width and its turn, in the pixels of the image it
/// is drawn on. The sticker keeps its aspect ratio.
public struct StickerPlacement: Sendable, Equatable {
    public var feature: FacialFeature
    public var centre: SIMD2<Double>
    /// The sticker's drawn width in pixels.
    public var width: Double
    /// Clockwise turn in degrees (the head's roll).
    public var degrees: Double

    public init(feature: FacialFeature, centre: SIMD2<Double>, width: Double, degrees: Double) {
        self.feature = feature; self.centre = centre; self.width = width; self.degrees = degrees
    }

    /// How big each feature's sticker is drawn at scale 1, and where its centre sits.
    ///
    /// Eyes: 0.62 of the distance between the eyes, on each eye. Nose: 0.42 of that distance,
    /// on the nose tip. Mouth: 1.7 mouth widths, on the mouth centre (the built-in moustache is
    /// drawn in its picture's upper half, so it lands on the upper lip). Beard: 2.1 mouth widths,
    /// centred a quarter of the eye–mouth distance below the mouth, covering chin and jaw.
    public static func placements(for feature: FacialFeature, in face: LandmarkFrame, scale: Double) -> [StickerPlacement] {
        let roll = face.rollDegrees
        switch feature {
        case .eyes:
            let width = 0.62 * face.interocular * scale
            return [face.leftEye, face.rightEye].map { StickerPlacement(feature: .eyes, centre: $0, width: width, degrees: roll) }
        case .nose:
            return [StickerPlacement(feature: .nose, centre: face.nose, width: 0.42 * face.interocular * scale, degrees: roll)]
        case .mouth:
            return [StickerPlacement(feature: .mouth, centre: face.mouthCentre, width: 1.7 * face.mouthWidth * scale, degrees: roll)]
        case .beard:
            let centre = face.mouthCentre + face.eyeToMouth * 0.25
            return [StickerPlacement(feature: .beard, centre: centre, width: 2.1 * face.mouthWidth * scale, degrees: roll)]
        }
    }

    /// Draws each placement's sticker (4-band sRGB with alpha) over `base` (3-band 8-bit sRGB),
    /// which keeps its size, in order (later ones on top); parts beyond the edge are cut off.
    ///
    /// Over the crop's bytes, as libvips' `affine` (bilinear, premultiplied) and `composite2`
    /// ("over") give it, in floating point, cut to whole levels once at the end as libvips'
    /// cast does: built as libvips operations (a cast of the whole crop to float, a turn and a
    /// blend per sticker, two more to come back), a face cost ~10 ms in a clip for a few
    /// stickers of a few hundred pixels each.
    public static func draw(_ stickers: [(StickerPlacement, VipsImage)], over base: VipsImage) throws -> VipsImage {
        let rgb = try base.bands == 3 ? base : base.extractBands(0, count: 3)
        let width = rgb.width, height = rgb.height
        var bytes: [UInt8] = [], canvas: [Float] = []
        var touched: (x0: Int, y0: Int, x1: Int, y1: Int)?
        for (placement, sticker) in stickers {
            guard placement.width >= 1, sticker.width > 0 else { continue }
            let art = try Self.prepared(sticker, toAbout: placement.width)
            let box = placement.box(of: art)
            guard box.x1 > 0, box.y1 > 0, box.x0 < width, box.y0 < height else { continue }
            let area = (x0: max(0, box.x0), y0: max(0, box.y0), x1: min(width, box.x1), y1: min(height, box.y1))
            if canvas.isEmpty {
                bytes = try rgb.cast(.uchar).pixels()
                canvas = bytes.map(Float.init)
            }
            placement.lay(art, over: &canvas, width: width, area: area)
            let t = touched ?? (area.x0, area.y0, area.x1, area.y1)
            touched = (min(t.x0, area.x0), min(t.y0, area.y0), max(t.x1, area.x1), max(t.y1, area.y1))
        }
        guard let touched else { return base }
        for y in touched.y0..<touched.y1 {
            for i in (y * width + touched.x0) * 3 ..< (y * width + touched.x1) * 3 {
                bytes[i] = UInt8(max(0, min(255, canvas[i])))
            }
        }
        return try VipsImage.fromPixels(bytes, width: width, height: height, bands: 3).reinterpreted(as: .srgb)
    }

    /// A prepared sticker's premultiplied RGBA values (0...255), and its size. A class: the
    /// cache hands out the one it keeps (a clip's frames share it, and tests can tell).
    final class Art: Sendable {
        let width: Int, height: Int
        let values: [Float]

        init(width: Int, height: Int, values: [Float]) {
            self.width = width; self.height = height; self.values = values
        }

        /// The values as a 4-band float image (premultiplied).
        func image() throws -> VipsImage {
            try VipsImage.fromFloats(values, width: width, height: height, bands: 4).reinterpreted(as: .srgb)
        }
    }

    /// The rectangle this placement's turned sticker covers, as libvips' `affine` lays out its
    /// output: the turned corners' bounding box grown by a pixel (x0..<x1, y0..<y1, in the
    /// picture's pixels; it may reach beyond the picture).
    func box(of art: Art) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let rest = self.width / Double(art.width)
        let halfW = Double(art.width) / 2, halfH = Double(art.height) / 2
        let t = degrees * .pi / 180
        let (c, s) = (cos(t) * rest, sin(t) * rest)
        let corners = [SIMD2(-halfW, -halfH), SIMD2(halfW, -halfH), SIMD2(-halfW, halfH), SIMD2(halfW, halfH)]
            .map { SIMD2(c * $0.x - s * $0.y, s * $0.x + c * $0.y) + centre }
        return (Int((corners.map(\.x).min()! - 1).rounded(.down)), Int((corners.map(\.y).min()! - 1).rounded(.down)),
                Int((corners.map(\.x).max()! + 1).rounded(.up)), Int((corners.map(\.y).max()! + 1).rounded(.up)))
    }

    /// `art` turned by `degrees`, scaled to `width` and centred on `centre`, laid "over"
    /// `canvas` (RGB floats, `width` wide) in `area`. Each pixel reads the art between its four
    /// nearest pixels (nothing outside it) at the point the turn takes it back to, pixel
    /// corners to pixel corners, as libvips' `affine` does.
    func lay(_ art: Art, over canvas: inout [Float], width: Int, area: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let rest = self.width / Double(art.width)
        let t = degrees * .pi / 180
        // From the picture back to the art: turned back, scaled down, the art's centre at `centre`.
        let (c, s) = (cos(t) / rest, sin(t) / rest)
        let halfW = Double(art.width) / 2, halfH = Double(art.height) / 2
        let aw = art.width, ah = art.height
        art.values.withUnsafeBufferPointer { v in
            canvas.withUnsafeMutableBufferPointer { out in
                @inline(__always) func texel(_ x: Int, _ y: Int, _ k: Int) -> Float {
                    x >= 0 && y >= 0 && x < aw && y < ah ? v[(y * aw + x) * 4 + k] : 0
                }
                for oy in area.y0..<area.y1 {
                    let dy = Double(oy) - centre.y
                    for ox in area.x0..<area.x1 {
                        let dx = Double(ox) - centre.x
                        let u = c * dx + s * dy + halfW, w = -s * dx + c * dy + halfH
                        guard u > -1, w > -1, u < Double(aw), w < Double(ah) else { continue }
                        let x0 = Int(u.rounded(.down)), y0 = Int(w.rounded(.down))
                        let fx = Float(u - Double(x0)), fy = Float(w - Double(y0))
                        var pixel: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        withUnsafeMutableBytes(of: &pixel) { raw in
                            let p = raw.bindMemory(to: Float.self)
                            for k in 0..<4 {
                                let top = texel(x0, y0, k) * (1 - fx) + texel(x0 + 1, y0, k) * fx
                                let bottom = texel(x0, y0 + 1, k) * (1 - fx) + texel(x0 + 1, y0 + 1, k) * fx
                                p[k] = top * (1 - fy) + bottom * fy
                            }
                        }
                        guard pixel.3 > 0 else { continue }
                        let keep = 1 - pixel.3 / 255
                        let at = (oy * width + ox) * 3
                        out[at] = pixel.0 + out[at] * keep
                        out[at + 1] = pixel.1 + out[at + 1] * keep
                        out[at + 2] = pixel.2 + out[at + 2] * keep
                    }
                }
            }
        }
    }

    /// Stickers premultiplied (so resampling never drags the colour of transparent pixels into
    /// a sticker's rim) and shrunk with a proper filter, kept by picture and width: a clip or
    /// Live draws the same sticker at nearly the same size frame after frame, and shrinking a
    /// 512 px drawing for every sticker of every frame was most of the style's cost.
    /// (Each entry holds its sticker, so no other picture can take its identity while kept.)
    private static let kept = Mutex<[PreparedKey: (sticker: VipsImage, art: Art)]>([:])
    private struct PreparedKey: Hashable {
        let sticker: ObjectIdentifier
        let width: Int
    }
    /// At most this many prepared stickers are kept (a few sizes of a few stickers per face).
    static let preparedKept = 64

    /// `sticker` premultiplied in floating point, shrunk (when it is more than a tenth larger)
    /// to the width `width` rounds up to, in steps of an eighth of an octave: the turn then only
    /// resamples at 0.92...1 of that.
    static func prepared(_ sticker: VipsImage, toAbout width: Double) throws -> Art {
        let steps = (8 * log2(max(width, 1))).rounded(.up)
        let rounded = Int(exp2(steps / 8).rounded(.up))
        let shrinks = Double(rounded) < 0.9 * Double(sticker.width)
        let key = PreparedKey(sticker: ObjectIdentifier(sticker), width: shrinks ? rounded : 0)
        if let hit = kept.withLock({ $0[key] }), hit.sticker === sticker { return hit.art }
        var image = try sticker.cast(.float).premultiplied()
        if shrinks { image = try image.resize(scale: Double(rounded) / Double(sticker.width)) }
        let made = try image.inMemory()
        let raw = try made.pixels()
        let art = Art(width: made.width, height: made.height, values: raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) })
        kept.withLock { table in
            if table.count >= preparedKept { table.removeAll() }
            table[key] = (sticker, art)
        }
        return art
    }
}
