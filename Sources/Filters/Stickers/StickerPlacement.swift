import Foundation
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

    /// Draws `sticker` (4-band sRGB with alpha) over `base` (3-band 8-bit sRGB), which keeps
    /// its size; parts of the sticker beyond the edge are cut off.
    public func draw(_ sticker: VipsImage, over base: VipsImage) throws -> VipsImage {
        guard width >= 1, sticker.width > 0 else { return base }
        // Premultiplied alpha, so resampling never drags the colour of transparent pixels
        // into the sticker's rim.
        var art = try sticker.cast(.float).premultiplied()
        let scale = width / Double(sticker.width)
        if scale < 0.9 {
            // Shrink with a proper filter first; the turn below then only resamples at ~1:1.
            art = try art.resize(scale: scale)
        }
        let rest = width / Double(art.width)
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
        guard right > 0, bottom > 0, left < base.width, top < base.height else { return base }
        let placed = try art.affine([c, -s, s, c], from: SIMD2(-halfW, -halfH),
                                    to: SIMD2(centre.x - Double(left), centre.y - Double(top)),
                                    area: [0, 0, right - left, bottom - top], premultiplied: true)
        let drawn = try base.cast(.float).composited(placed, x: left, y: top, premultiplied: true)
        return try drawn.extractBands(0, count: 3).cast(.uchar).reinterpreted(as: .srgb)
    }
}
