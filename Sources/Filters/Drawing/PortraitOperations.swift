import CPortrait
import Vips

/// An OpenCV operation in CPortrait failed (its message, one line).
public struct OpenCVError: Error, CustomStringConvertible, Equatable, Sendable {
    public let operation: String
    public let message: String
    public var description: String { "\(operation): \(message)" }
}

/// Swift faces for CPortrait's OpenCV operations: 8-bit images in, 8-bit images out. The
/// pixels cross as packed bytes (the crop is computed once for it).
public enum PortraitOperations {
    /// The largest image these operations take or make, in pixels on each side.
    public static let largestSide = Int(SK_LARGEST_SIDE)

    /// Which part of a person a region matte covers.
    public enum Region: String, CaseIterable, Sendable, Codable {
        case face, head, person

        /// CPortrait's number for it.
        var kind: Int32 {
            switch self {
            case .face: Int32(SK_REGION_FACE)
            case .head: Int32(SK_REGION_HEAD)
            case .person: Int32(SK_REGION_PERSON)
            }
        }
    }

    /// One face in a crop, in the crop's pixels.
    public static func regionMatte(of crop: VipsImage, faces: [FaceRegion], target: Int, region: Region,
                                   workSize: Double) throws -> VipsImage {
        let rgb = try crop.pixels()
        let seeds = Self.seeds(of: faces)
        let kind = region.kind
        return try output(width: crop.width, height: crop.height, bands: 1, operation: "region matte") { out, error, size in
            sk_region_matte(rgb, Int32(crop.width), Int32(crop.height), seeds, Int32(seeds.count), Int32(target),
                            kind, Float(workSize), out, error, size)
        }
    }

    /// The rectangle a face's region matte can at most cover (its outer limit, around where a
    /// turned head lies, and the fade past it), in the face's coordinates; nil for an empty box.
    public static func regionBounds(of face: FaceRegion, region: Region) -> FaceRegion? {
        var seed = seeds(of: [face])[0]
        var bounds = [Float](repeating: 0, count: 4)
        var error = [CChar](repeating: 0, count: 256)
        let failed = bounds.withUnsafeMutableBufferPointer { b in
            error.withUnsafeMutableBufferPointer { e in sk_region_bounds(&seed, region.kind, b.baseAddress, e.baseAddress, Int32(e.count)) }
        }
        guard failed == 0 else { return nil }
        return FaceRegion(x: Double(bounds[0]), y: Double(bounds[1]), width: Double(bounds[2] - bounds[0]), height: Double(bounds[3] - bounds[1]))
    }

    /// The faces as CPortrait takes them: boxes and, where known, the five landmarks and where
    /// a turned head lies beside them (`HeadTurn`).
    static func seeds(of faces: [FaceRegion]) -> [sk_face_seed] {
        faces.map { face in
            var seed = sk_face_seed()
            seed.x = Float(face.x); seed.y = Float(face.y); seed.width = Float(face.width); seed.height = Float(face.height)
            if face.landmarks.count == 5 {
                seed.has_landmarks = 1
                seed.head_shift = Float(HeadTurn.shift(landmarks: face.landmarks))
                withUnsafeMutableBytes(of: &seed.landmarks) { raw in
                    let values = raw.bindMemory(to: Float.self)
                    for (i, p) in face.landmarks.enumerated() { values[2 * i] = Float(p.x); values[2 * i + 1] = Float(p.y) }
                }
            }
            return seed
        }
    }

    /// Flow-based DoG lines (Kang et al. 2007) of a one-band 8-bit image: 255 paper, darker ink.
    static func flowLines(_ grey: VipsImage, flowSigma: Double, lineSigma: Double, flowLength: Double,
                          rho: Double, sharpness: Double) throws -> VipsImage {
        let bytes = try grey.pixels()
        return try output(width: grey.width, height: grey.height, bands: 1, operation: "flow lines") { out, error, size in
            sk_flow_lines(bytes, Int32(grey.width), Int32(grey.height), Float(flowSigma), Float(lineSigma),
                          Float(flowLength), Float(rho), Float(sharpness), out, error, size)
        }
    }

    /// Lu, Xu & Jia's stroke map of a one-band 8-bit image: 255 paper, darker strokes.
    static func pencilStrokes(_ grey: VipsImage, length: Double, width: Double, gain: Double, faces: [FaceRegion] = []) throws -> VipsImage {
        let bytes = try grey.pixels()
        let skin = FaceRegion.bounds(of: faces) ?? FaceRegion(x: 0, y: 0, width: 0, height: 0)
        return try output(width: grey.width, height: grey.height, bands: 1, operation: "pencil strokes") { out, error, size in
            sk_pencil_strokes(bytes, Int32(grey.width), Int32(grey.height), Float(length), Float(width), Float(gain),
                              Int32(skin.x), Int32(skin.y), Int32(skin.width), Int32(skin.height), out, error, size)
        }
    }

    /// A style's C entry point for drawing a whole face in one pass (`sk_pencil`, `sk_charcoal`,
    /// …): the crop's packed RGB, its size, the style's plan, the RGB bytes out, a message.
    typealias OnePass<Plan> = (UnsafePointer<UInt8>?, Int32, Int32, UnsafePointer<Plan>?,
                               UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<CChar>?, Int32) -> Int32

    /// The whole drawing of an RGB crop by a style's one-pass C function and its `plan`: RGB,
    /// 8-bit, the crop's size (`operation` names it in an error).
    static func drawn<Plan>(_ rgb: VipsImage, plan: Plan, operation: String, by draw: OnePass<Plan>) throws -> VipsImage {
        let bytes = try rgb.pixels()
        return try output(width: rgb.width, height: rgb.height, bands: 3, operation: operation) { out, error, size in
            withUnsafePointer(to: plan) { draw(bytes, Int32(rgb.width), Int32(rgb.height), $0, out, error, size) }
        }.reinterpreted(as: .srgb)
    }

    /// The paper grain `sk_pencil` and `sk_charcoal` lay (one band, float, zero mean, unit
    /// deviation): the shared noise tile's window for `seed`, softened over `grainSize` pixels;
    /// above 4, smooth noise with blobs about that wide. `origin`: where the grain's corner lies
    /// on the canvas it is laid on (`FilterContext.origin`), so a part of a picture gets the
    /// grain the whole has there.
    static func paperGrain(width: Int, height: Int, grainSize: Double, seed: Int, origin: SIMD2<Int> = .zero) throws -> VipsImage {
        let noise = try NoiseTile.bytes(), at = NoiseTile.offset(seed: seed)
        return try floatOutput(width: width, height: height, operation: "paper grain") { out, error, size in
            sk_paper_grain(noise, Int32(NoiseTile.side), Int32(at.x), Int32(at.y), Int32(origin.x), Int32(origin.y),
                           Float(grainSize), Int32(width), Int32(height), out, error, size)
        }
    }

    /// `drawing`'s lightness matched to `photo`'s (both 3-band 8-bit, the same size), the photo
    /// taken as if exposed `exposure` times as long, inside `region` (an 8-bit matte of the same
    /// size) from `regionRamp` pixels in from its edge, and as it is at the edge; `ownTone` of
    /// the drawing's own lightness kept inside it over the same ramp: `sk_tone_match`.
    static func toneMatch(_ drawing: VipsImage, like photo: VipsImage, reach: Double, paperLift: Double,
                          paperChroma: Double, shadowContrast: Double, exposure: Double,
                          region: VipsImage? = nil, regionRamp: Double = 0, ownTone: Double = 0) throws -> VipsImage {
        let drawn = try drawing.cast(.uchar).pixels(), model = try photo.cast(.uchar).pixels()
        var matte: [UInt8]?
        if let region, exposure != 1 || ownTone > 0, regionRamp > 0 {
            guard region.width == drawing.width, region.height == drawing.height else {
                throw VipsError(operation: "tone match", message: "the region and the drawing differ in size")
            }
            let grey = region.bands == 1 ? region : try region.extractBands(0)
            matte = try (grey.format == .uchar ? grey : grey.cast(.uchar)).pixels()
        }
        return try output(width: drawing.width, height: drawing.height, bands: 3, operation: "tone match") { out, error, size in
            let run = { (region: UnsafePointer<UInt8>?) in
                sk_tone_match(drawn, model, Int32(drawing.width), Int32(drawing.height), Float(reach), Float(paperLift),
                              Float(paperChroma), Float(shadowContrast), Float(exposure), region, Float(regionRamp),
                              Float(ownTone), out, error, size)
            }
            guard let matte else { return run(nil) }
            return matte.withUnsafeBufferPointer { run($0.baseAddress) }
        }.reinterpreted(as: .srgb)
    }

    /// `image` resampled to `width` × `height` over its bytes (`sk_resample`): reduced by area,
    /// enlarged bicubic, pixel centres aligned; held in memory, read as it was (8-bit, 1 to 4
    /// bands; anything else is cast to 8-bit first). For a face's crop on its way to the size
    /// its style draws at and back, where libvips' `resize` spent more on setting up than on
    /// the few hundred pixels it moved.
    public static func resampled(_ image: VipsImage, width: Int, height: Int) throws -> VipsImage {
        let bands = image.bands
        guard (1...4).contains(bands) else { throw OpenCVError(operation: "resample", message: "1 to 4 bands, not \(bands)") }
        let bytes = try image.cast(.uchar).pixels()
        let out = try output(width: width, height: height, bands: bands, operation: "resample") { out, error, size in
            sk_resample(bytes, Int32(image.width), Int32(image.height), Int32(bands), Int32(width), Int32(height), out, error, size)
        }
        guard let space = image.interpretation else { return out }
        return try out.reinterpreted(as: space)
    }

    /// `matte` (one band, `width` × `height` bytes) scaled by `scale` with its top-left corner
    /// at `corner`, sampled bilinearly at the pixel centres of an `outWidth` × `outHeight`
    /// canvas (the matte's edge pixels extended to its footprint's edge); 0 outside the
    /// footprint, which goes on past its `extending` sides (left, top, right, bottom; matte
    /// pixels) with its last column or row there (`sk_matte_place`).
    public static func placedMatte(_ matte: [UInt8], width: Int, height: Int, scale: SIMD2<Double>, corner: SIMD2<Double>,
                                   over outWidth: Int, _ outHeight: Int,
                                   extending: (left: Double, top: Double, right: Double, bottom: Double) = (0, 0, 0, 0)) throws -> [UInt8] {
        guard outWidth > 0, outHeight > 0 else { return [] }
        precondition(matte.count >= width * height, "the matte holds width × height bytes")
        let margins = [extending.left, extending.top, extending.right, extending.bottom]
        return try made(count: outWidth * outHeight, operation: "matte placement") { out, error, size in
            sk_matte_place(matte, Int32(width), Int32(height), scale.x, scale.y, corner.x, corner.y,
                           Int32(outWidth), Int32(outHeight), margins, out, error, size)
        }
    }

    /// A carried drawing (`CarriedDrawing.Layer`: the part as drawn and as it was, and the
    /// faces' mask, `width` × `height`) laid over `picture` with its corner at (`x`, `y`), in
    /// place (`sk_lay_carried`).
    public static func layCarried(_ drawing: [UInt8], photo: [UInt8], mask: [UInt8], width: Int, height: Int, bands: Int,
                                  over picture: inout [UInt8], pictureWidth: Int, pictureHeight: Int, x: Int, y: Int) throws {
        precondition(drawing.count >= width * height * bands && photo.count >= width * height * bands && mask.count >= width * height,
                     "drawing, photo and mask hold the rectangle")
        precondition(picture.count >= pictureWidth * pictureHeight * bands, "the picture holds its pixels")
        try picture.withUnsafeMutableBufferPointer { out in
            try checked(operation: "lay carried") { error, size in
                sk_lay_carried(drawing, photo, mask, Int32(width), Int32(height), Int32(bands), out.baseAddress,
                               Int32(pictureWidth), Int32(pictureHeight), Int32(x), Int32(y), error, size)
            }
        }
    }

    /// `top` (`width` × `height` pixels of `bands` bytes) laid over `base` (`baseWidth` pixels
    /// a row, the same bands) with its top-left corner at (`x`, `y`), through `mask` (one band,
    /// 0 keeps the base, 255 takes the top): each byte (a t + (255 − a) b + 128) / 255, in
    /// place (`sk_blend_through`).
    public static func blend(_ top: [UInt8], through mask: [UInt8], width: Int, height: Int, bands: Int,
                             over base: inout [UInt8], baseWidth: Int, x: Int, y: Int) throws {
        precondition(top.count >= width * height * bands && mask.count >= width * height, "top and mask hold the rectangle")
        precondition(x >= 0 && y >= 0 && x + width <= baseWidth && (y + height) * baseWidth * bands <= base.count,
                     "the rectangle lies in the base")
        try base.withUnsafeMutableBufferPointer { out in
            try checked(operation: "blend") { error, size in
                sk_blend_through(top, mask, Int32(width), Int32(height), Int32(bands), out.baseAddress, Int32(baseWidth),
                                 Int32(x), Int32(y), error, size)
            }
        }
    }

    /// Before a grey drawing `top` is blended over `base` (3 bands) through `mask`, as `blend`
    /// takes them: under the mask's soft edge, the picture's colour where it has the head's hue
    /// faded to its grey (wholly from mask 0.35 in), so a drawn head shows no rim of skin colour;
    /// the backdrop keeps its colour (`sk_grey_fringe`).
    public static func greyFringe(under top: [UInt8], through mask: [UInt8], width: Int, height: Int,
                                  over base: inout [UInt8], baseWidth: Int, x: Int, y: Int) throws {
        precondition(top.count >= width * height * 3 && mask.count >= width * height, "top and mask hold the rectangle")
        precondition(x >= 0 && y >= 0 && x + width <= baseWidth && (y + height) * baseWidth * 3 <= base.count,
                     "the rectangle lies in the base")
        try base.withUnsafeMutableBufferPointer { out in
            try checked(operation: "grey fringe") { error, size in
                sk_grey_fringe(top, mask, Int32(width), Int32(height), out.baseAddress, Int32(baseWidth), Int32(x), Int32(y), error, size)
            }
        }
    }

    /// A seeded pencil tone texture (one band, 8-bit): graphite strokes slanted about `angle` degrees.
    static func pencilTexture(width: Int, height: Int, length: Double, strokeWidth: Double, angle: Double, seed: Int) throws -> VipsImage {
        try output(width: width, height: height, bands: 1, operation: "pencil texture") { out, error, size in
            sk_pencil_texture(Int32(width), Int32(height), Float(length), Float(strokeWidth), Float(angle * .pi / 180),
                              UInt32(truncatingIfNeeded: seed), out, error, size)
        }
    }

    /// 8-bit pixels made by `body` (into `bands` bytes a pixel), as an image.
    private static func output(width: Int, height: Int, bands: Int, operation: String,
                               _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CChar>, Int32) -> Int32) throws -> VipsImage {
        let pixels = try made(count: width * height * bands, operation: operation, body)
        let image = try VipsImage.fromPixels(pixels, width: width, height: height, bands: bands)
        return bands == 1 ? try image.reinterpreted(as: .bw) : image
    }

    /// One band of float values made by `body`, as an image.
    private static func floatOutput(width: Int, height: Int, operation: String,
                                    _ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<CChar>, Int32) -> Int32) throws -> VipsImage {
        try VipsImage.fromFloats(made(count: width * height, operation: operation, body), width: width, height: height, bands: 1)
    }

    /// `count` values filled in by a CPortrait call, which returns 0 or -1 with its message.
    private static func made<Value: Numeric>(count: Int, operation: String,
                                             _ body: (UnsafeMutablePointer<Value>, UnsafeMutablePointer<CChar>, Int32) -> Int32) throws -> [Value] {
        var values = [Value](repeating: 0, count: count)
        try values.withUnsafeMutableBufferPointer { out in
            try checked(operation: operation) { body(out.baseAddress!, $0, $1) }
        }
        return values
    }

    /// Runs a CPortrait call given a message buffer, which returns 0 or -1 with its message:
    /// thrown as an `OpenCVError` naming `operation`.
    private static func checked(operation: String, _ call: (UnsafeMutablePointer<CChar>, Int32) -> Int32) throws {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { call($0.baseAddress!, Int32($0.count)) }
        guard status == 0 else {
            throw OpenCVError(operation: operation, message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
