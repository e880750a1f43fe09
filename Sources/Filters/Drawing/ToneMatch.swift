import Foundation
import Vips

/// Sets a drawing's lightness, area by area, to the photo's: the drawing is scaled so that its
/// local mean lightness (over a gaussian window `reach` pixels wide) is the photo's there. Lines
/// stay darker than their surroundings by the same proportion; a drawing of a face in a dark
/// room comes out as dark as the face was. A coloured drawing keeps its hue, its chroma scaled
/// with the lightness, as when less light falls on a surface. A grey drawing's lights are
/// lifted towards paper (`lifted`).
///
/// The local means are smooth, so they are taken on copies reduced until the window is about
/// three pixels wide, and worked out there in plain Swift (CIELAB lightness and chroma, D65);
/// the full-size pixels are read once for those copies and touched once by the gain. (Matching
/// in CIELAB at full size cost ~80 ms per 1080p face, half of a pencil clip's CPU.)
public enum ToneMatch {
    public static func apply(_ drawing: VipsImage, like photo: VipsImage, reach: Double) throws -> VipsImage {
        let sigma = max(1, reach)
        let factor = max(1, sigma / 3)
        // Read for its means and for the result: computed once.
        let drawn = try rgb(drawing).inMemory()
        let photoSmall = try rgb(photo).reduce(by: factor), drawnSmall = try drawn.reduce(by: factor)
        let w = drawnSmall.width, h = drawnSmall.height
        let p = try photoSmall.pixels(), d = try drawnSmall.pixels()
        guard p.count == d.count, p.count == w * h * 3 else { throw VipsError(operation: "tone match", message: "the photo and the drawing differ in size") }
        // Per reduced pixel: the photo's lightness, the drawing's level (the scale the gain
        // multiplies) and the drawing's chroma (how far it is from a grey drawing on paper).
        var photoL = [Double](repeating: 0, count: w * h), drawnLevel = photoL, drawnChroma = photoL
        for i in 0..<(w * h) {
            photoL[i] = Lab(p[3 * i], p[3 * i + 1], p[3 * i + 2]).l
            let lab = Lab(d[3 * i], d[3 * i + 1], d[3 * i + 2])
            drawnLevel[i] = 255 * Lab.gammaEncoded(Lab.luminance(lightness: lab.l))
            drawnChroma[i] = (lab.a * lab.a + lab.b * lab.b).squareRoot()
        }
        let s = sigma / factor
        photoL = blurred(photoL, w, h, sigma: s)
        drawnLevel = blurred(drawnLevel, w, h, sigma: s)
        drawnChroma = blurred(drawnChroma, w, h, sigma: s)
        // Not lifted from a chroma of 12 (a cartoon's bands, a relief's material, coloured pencil).
        var gain = [[Double]](repeating: [Double](repeating: 0, count: w), count: h)
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let paper = min(1, max(0, 1 - drawnChroma[i] / 12))
                let target = 255 * Lab.gammaEncoded(Lab.luminance(lightness: lifted(photoL[i], paper: paper)))
                gain[y][x] = target / (drawnLevel[i] + 1)
            }
        }
        let enlarged = try VipsImage.matrix(gain).reinterpreted(as: "b-w")
            .resize(scale: Double(drawn.width) / Double(w), verticalScale: Double(drawn.height) / Double(h), kernel: "cubic")
            .embed(x: 0, y: 0, width: drawn.width, height: drawn.height, extend: "copy")
            .crop(x: 0, y: 0, width: drawn.width, height: drawn.height)
        return try drawn.multiply(enlarged).cast("uchar").reinterpreted(as: "srgb")
    }

    /// How much of the way to white the lights are lifted: paper shows where the photo is light.
    static let paperLift = 0.6

    /// A local mean lightness (CIELAB L) with its lights lifted towards white where the drawing
    /// is paper (`paper`, 0...1): L + lift (100 - L) s paper, s rising smoothly from 0 at L 45
    /// to 1 at L 85. Shadows, dark rooms and the darker half of a face are left as they are.
    static func lifted(_ lightness: Double, paper: Double) -> Double {
        let x = min(1, max(0, (lightness - 45) / 40))
        let s = x * x * (3 - 2 * x) * paper
        return lightness + paperLift * (100 - lightness) * s
    }

    /// Three 8-bit bands: a grey image repeated, an alpha band dropped.
    static func rgb(_ image: VipsImage) throws -> VipsImage {
        if image.bands == 3 { return image }
        if image.bands >= 3 { return try image.extractBands(0, count: 3) }
        let grey = try image.extractBands(0)
        return try VipsImage.bandjoin([grey, grey, grey])
    }

    /// A separable gaussian blur of a small plane, its edges extended.
    static func blurred(_ plane: [Double], _ w: Int, _ h: Int, sigma: Double) -> [Double] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        let kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        var across = plane, out = plane
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0.0
                for k in -radius...radius { sum += kernel[k + radius] * plane[y * w + min(w - 1, max(0, x + k))] }
                across[y * w + x] = sum / total
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0.0
                for k in -radius...radius { sum += kernel[k + radius] * across[min(h - 1, max(0, y + k)) * w + x] }
                out[y * w + x] = sum / total
            }
        }
        return out
    }

    /// CIELAB (D65) of an sRGB pixel.
    struct Lab {
        var l: Double, a: Double, b: Double

        init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
            let (rl, gl, bl) = (Self.linear(r), Self.linear(g), Self.linear(b))
            let x = (0.4124 * rl + 0.3576 * gl + 0.1805 * bl) / 0.95047
            let y = 0.2126 * rl + 0.7152 * gl + 0.0722 * bl
            let z = (0.0193 * rl + 0.1192 * gl + 0.9505 * bl) / 1.08883
            let (fx, fy, fz) = (Self.f(x), Self.f(y), Self.f(z))
            self.l = 116 * fy - 16; self.a = 500 * (fx - fy); self.b = 200 * (fy - fz)
        }

        static func linear(_ v: UInt8) -> Double { FaceExposure.linear(Double(v) / 255) }

        static func f(_ t: Double) -> Double {
            t > 216.0 / 24389 ? cbrt(t) : t * 841.0 / 108 + 4.0 / 29
        }

        /// The relative luminance Y (0...1) of a CIELAB lightness.
        static func luminance(lightness: Double) -> Double {
            let fy = (min(100, max(0, lightness)) + 16) / 116
            return fy > 6.0 / 29 ? fy * fy * fy : 108.0 / 841 * (fy - 4.0 / 29)
        }

        /// sRGB's encoding of a linear value (0...1).
        static func gammaEncoded(_ c: Double) -> Double {
            c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
        }
    }
}
