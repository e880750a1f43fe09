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
    /// One pass: the picture is turned to floating point and back once, not once per sticker.
    public static func draw(_ stickers: [(StickerPlacement, VipsImage)], over base: VipsImage) throws -> VipsImage {
        var drawn: VipsImage?
        for (placement, sticker) in stickers {
            guard let (placed, x, y) = try placement.placed(sticker, within: base.width, base.height) else { continue }
            drawn = try (drawn ?? base.cast(.float)).composited(placed, x: x, y: y, premultiplied: true)
        }
        guard let drawn else { return base }
        return try drawn.extractBands(0, count: 3).cast(.uchar).reinterpreted(as: .srgb)
    }

    /// The sticker turned and sized for this placement (premultiplied float), and where its
    /// corner goes on a picture `width` × `height`; nil when it is too small or lands outside.
    func placed(_ sticker: VipsImage, within width: Int, _ height: Int) throws -> (VipsImage, Int, Int)? {
        guard self.width >= 1, sticker.width > 0 else { return nil }
        let art = try Self.shrunk(sticker, toAbout: self.width)
        let rest = self.width / Double(art.width)
        let t = degrees * .pi / 180
        let (c, s) = (cos(t) * rest, sin(t) * rest)
        let halfW = Double(art.width) / 2, halfH = Double(art.height) / 2
        // The turned corners' bounding box, in base pixels.
        let corners = [SIMD2(-halfW, -halfH), SIMD2(halfW, -halfH), SIMD2(-halfW, halfH), SIMD2(halfW, halfH)]
            .map { SIMD2(c * $0.x - s * $0.y, s * $0.x + c * $0.y) + centre }
        let left = Int((corners.map(\.x).min()! - 1).rounded(.down))
        let top = Int((corners.map(\.y).min()! - 1).rounded(.down))
        let right = Int((corners.map(\.x).max()! + 1).rounded(.up))
        let bottom = Int((corners.map(\.y).max()! + 1).rounded(.up))
        guard right > 0, bottom > 0, left < width, top < height else { return nil }
        let placed = try art.affine([c, -s, s, c], from: SIMD2(-halfW, -halfH),
                                    to: SIMD2(centre.x - Double(left), centre.y - Double(top)),
                                    area: [0, 0, right - left, bottom - top], premultiplied: true)
        return (placed, left, top)
    }

    /// Stickers premultiplied (so resampling never drags the colour of transparent pixels into
    /// a sticker's rim) and shrunk with a proper filter, kept by picture and width: a clip or
    /// Live draws the same sticker at nearly the same size frame after frame, and shrinking a
    /// 512 px drawing for every sticker of every frame was most of the style's cost.
    /// (Each entry holds its sticker, so no other picture can take its identity while kept.)
    private static let prepared = Mutex<[PreparedKey: (sticker: VipsImage, art: VipsImage)]>([:])
    private struct PreparedKey: Hashable {
        let sticker: ObjectIdentifier
        let width: Int
    }
    /// At most this many prepared stickers are kept (a few sizes of a few stickers per face).
    static let preparedKept = 64

    /// `sticker` premultiplied in floating point, shrunk (when it is more than a tenth larger)
    /// to the width `width` rounds up to, in steps of an eighth of an octave: the turn then only
    /// resamples at 0.92...1 of that.
    static func shrunk(_ sticker: VipsImage, toAbout width: Double) throws -> VipsImage {
        let steps = (8 * log2(max(width, 1))).rounded(.up)
        let rounded = Int(exp2(steps / 8).rounded(.up))
        let shrinks = Double(rounded) < 0.9 * Double(sticker.width)
        let key = PreparedKey(sticker: ObjectIdentifier(sticker), width: shrinks ? rounded : 0)
        if let hit = prepared.withLock({ $0[key] }), hit.sticker === sticker { return hit.art }
        var art = try sticker.cast(.float).premultiplied()
        if shrinks { art = try art.resize(scale: Double(rounded) / Double(sticker.width)) }
        let made = try art.inMemory()
        prepared.withLock { table in
            if table.count >= preparedKept { table.removeAll() }
            table[key] = (sticker, made)
        }
        return made
    }
}
