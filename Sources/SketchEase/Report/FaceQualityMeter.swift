import Foundation

/// Measures a face for the quality checks, in libvips: its size, how much of it is outside the
/// photo, the lighting of its two halves, its sharpness, and its roll.
///
/// Lighting and sharpness are measured inside an ellipse placed from the landmarks that covers
/// the eyes, cheeks, nose and mouth but not the hair or the background: 0.8 interocular
/// distances to each side of the face's centre line and 0.85 up and down from a point half an
/// interocular distance below the eyes.
enum FaceQualityMeter {
    /// Sharpness is measured with the face scaled (down only) to this many pixels between the eyes.
    static let sharpnessInterocular = 64.0

    static func measure(_ rgb: VipsImage, box: FaceBox, frame: LandmarkFrame) throws -> FaceQualityMeasurements {
        let (left, right) = try lighting(rgb, frame: frame)
        let brighter = max(left, right), darker = max(min(left, right), 0.01)
        let outside = outsideExtent(frame: frame, width: rgb.width, height: rgb.height)
        return FaceQualityMeasurements(
            faceSize: min(box.width, box.height),
            outsideFraction: outside.fraction,
            edgesTouched: edgesTouched(box, width: rgb.width, height: rgb.height),
            edgesCrossed: ["left", "top", "right", "bottom"].filter(outside.edges.contains),
            leftLuminance: left, rightLuminance: right,
            lightingStops: log2(brighter / darker),
            sharpness: try sharpness(rgb, frame: frame),
            rollDegrees: frame.rollDegrees)
    }

    // MARK: Framing

    /// Where the whole face is expected from its landmarks, as CenterFace frames faces: eyes at
    /// 35 % and the mouth at 71 % of the box height, the eyes 47 % of its width apart. Returns
    /// the fraction of that (turned) rectangle outside the photo, sampled on a 24×24 grid, and
    /// the edges it crosses.
    static func outsideExtent(frame: LandmarkFrame, width: Int, height: Int) -> (fraction: Double, edges: Set<String>) {
        let eyeToMouth = frame.eyeToMouthDistance
        let faceHeight = eyeToMouth / 0.36, faceWidth = frame.interocular / 0.47
        let steps = 24
        var outside = 0
        var edges = Set<String>()
        for i in 0..<steps {
            for j in 0..<steps {
                let a = (Double(i) + 0.5) / Double(steps) - 0.5
                let d = (Double(j) + 0.5) / Double(steps) * faceHeight - 0.35 * faceHeight
                let p = frame.eyeCentre + frame.across * (a * faceWidth) + frame.down * d
                if p.x < 0 { edges.insert("left") }
                if p.y < 0 { edges.insert("top") }
                if p.x > Double(width) { edges.insert("right") }
                if p.y > Double(height) { edges.insert("bottom") }
                if p.x < 0 || p.y < 0 || p.x > Double(width) || p.y > Double(height) { outside += 1 }
            }
        }
        return (Double(outside) / Double(steps * steps), edges)
    }

    /// The photo edges a face box reaches (within half a percent of the photo's size, at least
    /// a pixel): the detector clips its boxes to the photo, so a face running off the edge ends there.
    static func edgesTouched(_ box: FaceBox, width: Int, height: Int) -> [String] {
        let mx = max(1, 0.005 * Double(width)), my = max(1, 0.005 * Double(height))
        var edges: [String] = []
        if box.x <= mx { edges.append("left") }
        if box.y <= my { edges.append("top") }
        if box.maxX >= Double(width) - mx { edges.append("right") }
        if box.maxY >= Double(height) - my { edges.append("bottom") }
        return edges
    }

    // MARK: Pixels

    /// The square around the face's skin ellipse, clipped to the photo; nil if none of it is inside.
    private static func region(of frame: LandmarkFrame, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let centre = frame.point(across: 0, down: 0.5)
        let reach = 0.9 * frame.interocular
        let x0 = max(0, Int((centre.x - reach).rounded(.down))), y0 = max(0, Int((centre.y - reach).rounded(.down)))
        let x1 = min(width, Int((centre.x + reach).rounded(.up))), y1 = min(height, Int((centre.y + reach).rounded(.up)))
        guard x1 - x0 >= 4, y1 - y0 >= 4 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// Face-frame coordinates of each pixel of an image whose pixel (0, 0) lies at `origin` in
    /// the photo and which is scaled by `scale`: `across` and `down`
    /// from the ellipse centre, both in interocular distances.
    private static func faceCoordinates(width: Int, height: Int, origin: (x: Int, y: Int), scale: Double,
                                        frame: LandmarkFrame) throws -> (across: VipsImage, down: VipsImage) {
        let centre = frame.point(across: 0, down: 0.5)
        let xy = try VipsImage.coordinates(width: width, height: height)
        // Photo position of a pixel centre: origin + (index + 0.5) / scale.
        let px = try xy.extractBands(0).linear(1 / scale, Double(origin.x) + 0.5 / scale - centre.x)
        let py = try xy.extractBands(1).linear(1 / scale, Double(origin.y) + 0.5 / scale - centre.y)
        let k = 1 / frame.interocular
        let across = try px.linear(frame.across.x * k, 0).add(py.linear(frame.across.y * k, 0))
        let down = try px.linear(frame.down.x * k, 0).add(py.linear(frame.down.y * k, 0))
        return (across, down)
    }

    /// 8-bit masks (255 inside) of the skin ellipse and its image-left and image-right halves,
    /// leaving out a strip a sixth of the interocular distance wide along the nose.
    private static func ellipseMasks(across: VipsImage, down: VipsImage) throws -> (whole: VipsImage, left: VipsImage, right: VipsImage) {
        let a = try across.linear(1 / 0.8, 0), d = try down.linear(1 / 0.85, 0)
        let whole = try a.multiply(a).add(d.multiply(d)).relational("lesseq", constant: [1])
        let left = try whole.boolean("and", across.relational("less", constant: [-0.08]))
        let right = try whole.boolean("and", across.relational("more", constant: [0.08]))
        return (whole, left, right)
    }

    /// Mean of `image` over the pixels where `mask` is non-zero; nil if there are none.
    private static func maskedMean(_ image: VipsImage, _ mask: VipsImage) throws -> Double? {
        let weight = try mask.linear(1.0 / 255, 0).inMemory()
        let share = try weight.average()
        guard share > 0 else { return nil }
        return try image.multiply(weight).average() / share
    }

    /// Mean relative luminance (CIE Y, 0...100) of the image-left and image-right face halves.
    static func lighting(_ rgb: VipsImage, frame: LandmarkFrame) throws -> (left: Double, right: Double) {
        guard let r = region(of: frame, width: rgb.width, height: rgb.height) else { return (0, 0) }
        // Each image read more than once is computed once (a libvips pipeline is run again for
        // every read: the checks of one face cost ~20 ms that way, read by Live twice a second).
        let luminance = try rgb.crop(x: r.x, y: r.y, width: r.width, height: r.height).colourspace(.xyz).extractBands(1).inMemory()
        let coords = try faceCoordinates(width: r.width, height: r.height, origin: (r.x, r.y), scale: 1, frame: frame)
        let masks = try ellipseMasks(across: coords.across.inMemory(), down: coords.down.inMemory())
        return (try maskedMean(luminance, masks.left) ?? 0, try maskedMean(luminance, masks.right) ?? 0)
    }

    /// Variance of the Laplacian of the grey face inside the skin ellipse, after scaling the
    /// face down to `sharpnessInterocular` pixels between the eyes, so faces of any size compare.
    static func sharpness(_ rgb: VipsImage, frame: LandmarkFrame) throws -> Double {
        guard let r = region(of: frame, width: rgb.width, height: rgb.height) else { return 0 }
        var grey = try rgb.crop(x: r.x, y: r.y, width: r.width, height: r.height).colourspace(.bw).extractBands(0)
        let scale = min(1, sharpnessInterocular / frame.interocular)
        if scale < 1 { grey = try grey.resize(scale: scale) }
        let laplacian = try grey.cast(.float).convolve(try VipsImage.matrix([[0, 1, 0], [1, -4, 1], [0, 1, 0]])).inMemory()
        let coords = try faceCoordinates(width: grey.width, height: grey.height, origin: (r.x, r.y), scale: scale, frame: frame)
        // Away from the crop's border, where the convolution sees the edge.
        let inner = try VipsImage.solid(width: grey.width - 2, height: grey.height - 2, pixel: [255])
            .embed(x: 1, y: 1, width: grey.width, height: grey.height)
        let mask = try ellipseMasks(across: coords.across, down: coords.down).whole.boolean("and", inner).inMemory()
        guard let mean = try maskedMean(laplacian, mask),
              let meanSquare = try maskedMean(laplacian.multiply(laplacian), mask) else { return 0 }
        return max(0, meanSquare - mean * mean)
    }
}
