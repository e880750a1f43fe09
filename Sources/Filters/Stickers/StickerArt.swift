import Vips

/// SketchEase's own sticker drawings, made from simple shapes in libvips at run time (no
/// artwork files): a googly eye, a clown nose, a handlebar moustache and a full beard.
///
/// Each is drawn so that its picture's centre belongs on the feature's centre (see
/// `StickerPlacement`): the moustache fills the upper half of its picture, so it sits on the
/// upper lip, and the beard leaves a hole for the mouth and cheeks.
enum StickerArt {
    static func drawing(for feature: FacialFeature) throws -> VipsImage {
        switch feature {
        case .eyes: try googlyEye()
        case .nose: try clownNose()
        case .mouth: try moustache()
        case .beard: try beard()
        }
    }

    private static let ink = RGBColour(red: 0x1c, green: 0x1a, blue: 0x1a)
    private static let paper = RGBColour(red: 0xfc, green: 0xfc, blue: 0xf8)

    /// A white eyeball in a dark rim, its pupil looking slightly down, with a glint.
    static func googlyEye() throws -> VipsImage {
        var canvas = try ShapeCanvas(width: 256, height: 256, edgeColour: ink)
        let centre = SIMD2(128.0, 128.0)
        let ball = try canvas.circle(centre: centre, radius: 108)
        try canvas.fill(try canvas.circle(centre: centre, radius: 120), colour: ink)
        try canvas.fill(ball, colour: paper)
        // A faint shade towards the lower right gives the ball some roundness.
        try canvas.fill(try canvas.circle(centre: SIMD2(165, 170), radius: 70),
                        colour: RGBColour(red: 0xc8, green: 0xcb, blue: 0xd2), softness: 110, opacity: 0.8, within: ball)
        try canvas.fill(try canvas.circle(centre: SIMD2(128, 156), radius: 52), colour: ink)
        try canvas.fill(try canvas.circle(centre: SIMD2(110, 138), radius: 13), colour: paper)
        return try canvas.rendered()
    }

    /// A shiny red ball with a darker rim and a highlight.
    static func clownNose() throws -> VipsImage {
        let rim = RGBColour(red: 0x7a, green: 0x0c, blue: 0x0c)
        var canvas = try ShapeCanvas(width: 256, height: 256, edgeColour: rim)
        let centre = SIMD2(128.0, 128.0)
        let ball = try canvas.circle(centre: centre, radius: 116)
        try canvas.fill(try canvas.circle(centre: centre, radius: 122), colour: rim)
        try canvas.fill(ball, colour: RGBColour(red: 0xb8, green: 0x14, blue: 0x14))
        try canvas.fill(try canvas.circle(centre: SIMD2(112, 104), radius: 72),
                        colour: RGBColour(red: 0xec, green: 0x2a, blue: 0x22), softness: 90, within: ball)
        try canvas.fill(try canvas.ellipse(centre: SIMD2(92, 78), radii: SIMD2(34, 20), degrees: -35),
                        colour: .init(red: 0xff, green: 0xf4, blue: 0xf0), softness: 14, opacity: 0.9)
        return try canvas.rendered()
    }

    /// A handlebar moustache with upturned tips, in the upper half of a 2:1 picture.
    static func moustache() throws -> VipsImage {
        let hair = RGBColour(red: 0x3b, green: 0x25, blue: 0x19)
        let outline = RGBColour(red: 0x1a, green: 0x10, blue: 0x0a)
        var canvas = try ShapeCanvas(width: 512, height: 256, edgeColour: outline)
        var parts: [VipsImage] = []
        for side in [-1.0, 1.0] {
            // A full lobe either side of the middle, and a thinner tip sweeping up and out.
            parts.append(try canvas.ellipse(centre: SIMD2(256 + side * 86, 66), radii: SIMD2(96, 44), degrees: -side * 6))
            parts.append(try canvas.ellipse(centre: SIMD2(256 + side * 188, 46), radii: SIMD2(62, 17), degrees: -side * 32))
        }
        var shape = try ShapeCanvas.union(parts[0], parts[1], parts[2], parts[3])
        // The dip under the nose.
        shape = try ShapeCanvas.subtracting(try canvas.ellipse(centre: SIMD2(256, 116), radii: SIMD2(18, 30)), from: shape)
        try canvas.fill(shape.linear(1, -4), colour: outline)
        try canvas.fill(shape, texture: try hairTexture(width: 512, height: 256, dark: hair, seed: 7))
        return try canvas.rendered()
    }

    /// A full beard along the jaw and round the chin, open over the cheeks and the mouth.
    static func beard() throws -> VipsImage {
        let hair = RGBColour(red: 0x45, green: 0x2b, blue: 0x1b)
        let outline = RGBColour(red: 0x1f, green: 0x13, blue: 0x0b)
        var canvas = try ShapeCanvas(width: 512, height: 512, edgeColour: outline)
        let jaw = try canvas.ellipse(centre: SIMD2(256, 170), radii: SIMD2(236, 250))
        let cheeks = try canvas.ellipse(centre: SIMD2(256, 60), radii: SIMD2(200, 170))
        let mouth = try canvas.ellipse(centre: SIMD2(256, 186), radii: SIMD2(136, 54))
        // Strand noise on the outline gives a ragged, hairy edge.
        let ragged = try strands(width: 512, height: 512, seed: 5).linear(60, -30)
        let shape = try ShapeCanvas.subtracting(ShapeCanvas.union(cheeks, mouth), from: jaw).add(ragged)
        try canvas.fill(shape.linear(1, -4), colour: outline)
        try canvas.fill(shape, texture: try hairTexture(width: 512, height: 512, dark: hair, seed: 11))
        return try canvas.rendered()
    }

    /// Seeded noise smeared into short vertical strands: about 0.5 ± 0.11.
    private static func strands(width: Int, height: Int, seed: Int) throws -> VipsImage {
        let noise = try VipsImage.gaussianNoise(width: width, height: height, mean: 0.5, sigma: 0.5, seed: seed)
        return try noise.convolve(try VipsImage.matrix(Array(repeating: [1.0 / 21], count: 21)))
    }

    /// Hair: strands shaded between `dark` and a lighter brown.
    private static func hairTexture(width: Int, height: Int, dark: RGBColour, seed: Int) throws -> VipsImage {
        // Map the strands to 0...1 around the middle, then to the colour range.
        let t = try strands(width: width, height: height, seed: seed).linear(3.5, -1.25)
        let light = [dark.components[0] * 1.7, dark.components[1] * 1.7, dark.components[2] * 1.6]
        let span = zip(light, dark.components).map { $0 - $1 }
        return try VipsImage.bandjoin([t, t, t]).linear(span, dark.components).cast(.uchar)
    }
}
