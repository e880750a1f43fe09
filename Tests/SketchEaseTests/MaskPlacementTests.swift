import Foundation
import Testing
import TestSupport
@testable import SketchEase

/// The mask style end to end on detected faces: the eye stickers must follow the eyes and turn
/// with the head when the photo is rotated.
@Suite struct MaskPlacementTests {
    /// Where an eye sticker was drawn, measured from its pixels.
    struct DrawnSticker {
        var centre: SIMD2<Double>
        /// The long axis' angle from horizontal, degrees, clockwise positive.
        var degrees: Double
    }

    struct Rendered {
        var frame: LandmarkFrame
        var eyes: [DrawnSticker]
    }

    /// A sticker folder whose eye sticker is a pure red bar, so its pixels and its turn can be
    /// measured exactly (the built-in googly eye is round).
    static func barStickers() throws -> String {
        let folder = try TestAssets.temporaryFolder("bar-stickers")
        try VipsImage.solid(width: 200, height: 40, pixel: [255, 0, 0]).savePNG(path: folder + "/eye.png")
        return folder
    }

    func renderEyes(_ image: VipsImage, detector: OpenCVFaceDetector, stickers: String) throws -> Rendered {
        // Detected at full size: this measures sticker placement, and at the batch default
        // (640 px) the eye line of the turned photo comes out up to ~5° off.
        let faces = try detector.detect(in: image, options: DetectionOptions(maxSide: 1024))
        let face = try #require(faces.max { $0.box.area < $1.box.area })
        let frame = try #require(LandmarkFrame(landmarks: face.landmarks.map { SIMD2($0.x, $0.y) }))
        let settings = try FilterRegistry.standard.settings(for: "mask", assignments: ["features": "eyes", "stickers": stickers])
        let style = FaceStyle(filterID: "mask", settings: settings)
        let out = try FaceCompositor().render(image, faces: [StyledFace(box: face.box, style: style, landmarks: face.landmarks)])
        let eyes = try [frame.leftEye, frame.rightEye].map { eye in
            try measureBar(out, around: eye, reach: Int(0.45 * frame.interocular))
        }
        return Rendered(frame: frame, eyes: eyes)
    }

    /// Centroid and principal axis of the red pixels in a square around `eye`.
    func measureBar(_ out: VipsImage, around eye: SIMD2<Double>, reach: Int) throws -> DrawnSticker {
        let x = Int(eye.x) - reach, y = Int(eye.y) - reach, side = 2 * reach
        let window = try out.crop(x: x, y: y, width: side, height: side)
        let red = try window.extractBands(0).relational("more", constant: [200])
            .boolean("and", window.extractBands(1).relational("less", constant: [60]))
            .boolean("and", window.extractBands(2).relational("less", constant: [60]))
        let w = try red.linear(1.0 / 255, 0)
        let n = try w.average()
        let xy = try VipsImage.coordinates(width: side, height: side)
        let px = try xy.extractBands(0).linear(1, 0.5), py = try xy.extractBands(1).linear(1, 0.5)
        let cx = try px.multiply(w).average() / n, cy = try py.multiply(w).average() / n
        let dx = try px.linear(1, -cx), dy = try py.linear(1, -cy)
        let mxx = try dx.multiply(dx).multiply(w).average() / n
        let myy = try dy.multiply(dy).multiply(w).average() / n
        let mxy = try dx.multiply(dy).multiply(w).average() / n
        let angle = 0.5 * atan2(2 * mxy, mxx - myy) * 180 / .pi
        return DrawnSticker(centre: SIMD2(cx + Double(x), cy + Double(y)), degrees: angle)
    }

    @Test func eyeStickersFollowTheEyesAndTurnWithTheHead() throws {
        let detector = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let stickers = try Self.barStickers()
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let rotatedImage = try photo.rgb.rotated(degrees: 15, background: [255, 255, 255]).cast(.uchar)
        let upright = try renderEyes(photo.rgb, detector: detector, stickers: stickers)
        let turned = try renderEyes(rotatedImage, detector: detector, stickers: stickers)

        // On each photo the stickers sit on the detected eyes, turned by the detected roll.
        for rendered in [upright, turned] {
            for (sticker, eye) in zip(rendered.eyes, [rendered.frame.leftEye, rendered.frame.rightEye]) {
                let miss = ((sticker.centre - eye) * (sticker.centre - eye)).sum().squareRoot()
                #expect(miss < 1.5, "sticker centre \(sticker.centre) vs eye \(eye)")
                #expect(abs(sticker.degrees - rendered.frame.rollDegrees) < 2,
                        "sticker turned \(sticker.degrees)° for a roll of \(rendered.frame.rollDegrees)°")
            }
        }
        // The photo turned 15° clockwise: so did the detected eye line, and the stickers with it.
        let rollChange = turned.frame.rollDegrees - upright.frame.rollDegrees
        #expect(abs(rollChange - 15) < 3, "roll changed by \(rollChange)°")
        for (before, after) in zip(upright.eyes, turned.eyes) {
            #expect(abs(after.degrees - before.degrees - 15) < 3.5, "sticker turned by \(after.degrees - before.degrees)°")
        }
        // The stickers moved where the rotation (about the image centre) took the eyes, within
        // what detection on a rotated photo varies (a few pixels).
        let t = 15 * Double.pi / 180
        let from = SIMD2(Double(photo.width), Double(photo.height)) / 2
        let to = SIMD2(Double(rotatedImage.width), Double(rotatedImage.height)) / 2
        for (before, after) in zip(upright.eyes, turned.eyes) {
            let p = before.centre - from
            let expected = SIMD2(cos(t) * p.x - sin(t) * p.y, sin(t) * p.x + cos(t) * p.y) + to
            let miss = ((after.centre - expected) * (after.centre - expected)).sum().squareRoot()
            #expect(miss < 0.15 * upright.frame.interocular, "turned sticker at \(after.centre), expected near \(expected)")
        }
    }

    @Test func beardStaysFullyVisibleBelowTheFaceEllipse() throws {
        // The mask style is not faded by the compositor's face ellipse: its beard, reaching
        // below the chin, is drawn at full strength there.
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let detector = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let face = try #require(try detector.detect(in: photo.rgb).first)
        let frame = try #require(LandmarkFrame(landmarks: face.landmarks.map { SIMD2($0.x, $0.y) }))
        let style = FaceStyle(filterID: "mask", settings: try FilterRegistry.standard.settings(for: "mask", assignments: ["features": "beard"]))
        let out = try FaceCompositor().render(photo.rgb, faces: [StyledFace(box: face.box, style: style, landmarks: face.landmarks)])
        // The region the compositor cuts: its output there is exactly the filter's, unfaded.
        let compositor = FaceCompositor()
        let rect = try #require(PixelRect(enclosing: face.box.grown(by: compositor.options.boxScale))?
            .clipped(to: PixelRect(x: 0, y: 0, width: photo.width, height: photo.height)))
        let region = FaceRegion(box: face.box, landmarks: face.landmarks, in: rect)
        let direct = try MaskFilter().apply(to: photo.rgb.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
                                            settings: style.settings, context: FilterContext(faceSize: 182, faces: [region]))
        #expect(try out.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height).pixels() == direct.pixels())
        // A point low on the beard lies where the face ellipse is already fading, yet it is beard brown.
        let low = frame.mouthCentre + frame.eyeToMouth * 0.25 + frame.down * (0.28 * 2.1 * frame.mouthWidth)
        let ellipse = try compositor.mask(for: [face.box], in: rect)
        let fade = try ellipse.crop(x: Int(low.x) - rect.x, y: Int(low.y) - rect.y, width: 1, height: 1).average()
        #expect(fade < 230, "ellipse mask there is \(fade)")
        let patch = try out.crop(x: Int(low.x) - 3, y: Int(low.y) - 3, width: 6, height: 6)
        let brightness = try patch.bandMean().average()
        #expect(brightness < 110, "patch brightness \(brightness)")
        #expect(try patch.extractBands(0).average() > patch.extractBands(2).average())
    }
}
