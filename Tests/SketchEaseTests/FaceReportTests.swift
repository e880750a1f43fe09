import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct FaceReportTests {
    let detector: OpenCVFaceDetector

    init() throws {
        detector = try .centerFace(modelPath: TestAssets.model)
    }

    func assess(_ image: VipsImage) throws -> [FaceAssessment] {
        let photo = try Photo(image: image)
        return try FaceReport.analyse(photo: photo, faces: try detector.detect(in: photo.rgb))
    }

    func assess(path: String) throws -> [FaceAssessment] {
        let photo = try Photo.load(path: path)
        return try FaceReport.analyse(photo: photo, faces: try detector.detect(in: photo.rgb))
    }

    func kinds(_ assessment: FaceAssessment) -> Set<FaceQualityWarning.Kind> { Set(assessment.warnings.map(\.kind)) }

    @Test func goodPhotosGetNoWarnings() throws {
        let grace = try assess(path: TestAssets.graceHopper)
        #expect(grace.count == 1)
        #expect(grace[0].warnings.isEmpty, "\(grace[0].summaryLines)")
        #expect(grace[0].summaryLines.contains { $0.contains("good") })
        // The example faces below 96 px (in whole pixels, as shown) are too small, and nothing else.
        for path in [TestAssets.group, TestAssets.astronaut] {
            for face in try assess(path: path) {
                let expected: Set<FaceQualityWarning.Kind> = Rounding.pixels(face.measurements.faceSize) < 96 ? [.tooSmall] : []
                #expect(kinds(face) == expected, "\(path): \(face.summaryLines)")
            }
        }
    }

    /// A box with no landmarks (drawn by hand, or found by the cascade) gets typical ones, which
    /// are upright by construction: its report does not call its tilt fine.
    @Test func aFaceWithoutLandmarksIsNotSaidToBeUpright() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let drawn = DetectedFace(box: FaceBox(x: 175, y: 132, width: 182, height: 205), score: nil, landmarks: [])
        let assessed = try #require(try FaceReport.analyse(photo: photo, faces: [drawn]).first)
        #expect(assessed.landmarksEstimated && assessed.warnings.isEmpty, "\(assessed.summaryLines)")
        #expect(assessed.summaryLines.contains("  good: size, framing, lighting and sharpness fine (tilt not measured: no landmarks)"))
        let found = try #require(try assess(path: TestAssets.graceHopper).first)
        #expect(found.summaryLines.contains("  good: size, framing, lighting, sharpness and tilt all fine"))
    }

    /// Live's guidance wants only the checks: without the skin tone, the same measurements and
    /// warnings, and no tone.
    @Test func theChecksAloneAreTheChecksOfTheWholeReport() throws {
        let photo = try Photo.load(path: TestAssets.group)
        let faces = try detector.detect(in: photo.rgb)
        let whole = try FaceReport.analyse(photo: photo, faces: faces)
        let checks = try FaceReport.analyse(photo: photo, faces: faces, skinTone: false)
        #expect(whole.count == 3 && checks.count == 3)
        #expect(whole.allSatisfy { $0.skinTone != nil } && checks.allSatisfy { $0.skinTone == nil })
        #expect(zip(whole, checks).allSatisfy { $0.measurements == $1.measurements && $0.warnings == $1.warnings })
    }

    @Test func smallFaceIsTooSmall() throws {
        let small = try Photo.load(path: TestAssets.graceHopper).rgb.resize(scale: 0.4)
        let face = try #require(try assess(small).first)
        let warning = try #require(face.warnings.first { $0.kind == .tooSmall })
        #expect(warning.value < 96 && warning.threshold == 96)
        #expect(warning.message.contains("px across"))
    }

    @Test func faceCutByTheBorderIsCutOff() throws {
        // Cut through Grace Hopper's face just left of her image-left eye, and above her mouth.
        let photo = try Photo.load(path: TestAssets.graceHopper).rgb
        for (crop, edge) in [((200, 0, 312, 600), "left"), ((0, 0, 512, 290), "bottom")] {
            let face = try #require(try assess(photo.crop(x: crop.0, y: crop.1, width: crop.2, height: crop.3)).first)
            let warning = try #require(face.warnings.first { $0.kind == .cutOff }, "\(face.summaryLines)")
            #expect(warning.value > 0.03 && warning.message.contains(edge), "\(warning.message)")
            #expect(face.measurements.edgesTouched.contains(edge) || face.measurements.edgesCrossed.contains(edge))
        }
    }

    @Test func faceDarkenedOnOneSideIsUnevenlyLit() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let faces = try detector.detect(in: photo.rgb)
        let frame = try #require(LandmarkFrame(landmarks: faces[0].landmarks.map { SIMD2($0.x, $0.y) }))
        // Everything right of the nose at 30 % brightness (about 1.7 stops darker).
        let rightSide = try VipsImage.coordinates(width: photo.width, height: photo.height).extractBands(0)
            .relational("more", constant: [frame.nose.x])
        let darkened = try rightSide.ifThenElse(photo.rgb.linear(0.3, 0).cast(.uchar), photo.rgb)
        let assessed = try FaceReport.analyse(photo: try Photo(image: darkened), faces: faces)[0]
        let warning = try #require(assessed.warnings.first { $0.kind == .unevenLighting }, "\(assessed.summaryLines)")
        #expect(warning.value > 1.2 && warning.threshold == 1)
        #expect(warning.message.contains("image-right half"))
        #expect(assessed.measurements.rightLuminance < assessed.measurements.leftLuminance)
        // The same faces on the untouched photo: even.
        let original = try FaceReport.analyse(photo: photo, faces: faces)[0]
        #expect(original.measurements.lightingStops < 0.3)
    }

    @Test func blurredCopyIsBlurred() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let blurred = try photo.rgb.gaussianBlur(sigma: 2.5).cast(.uchar)
        let face = try #require(try assess(blurred).first)
        let warning = try #require(face.warnings.first { $0.kind == .blurred }, "\(face.summaryLines)")
        #expect(warning.value < 100)
        let sharp = try #require(try assess(path: TestAssets.graceHopper).first)
        // Sharpness drops by more than ten times.
        #expect(sharp.measurements.sharpness > 10 * face.measurements.sharpness)
    }

    @Test func tiltedHeadIsRotated() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let tilted = try photo.rgb.rotated(degrees: 30, background: [255, 255, 255]).cast(.uchar)
        let face = try #require(try assess(tilted).first)
        let warning = try #require(face.warnings.first { $0.kind == .rotated }, "\(face.summaryLines)")
        // Grace Hopper's head is already tilted about 5° anticlockwise, so about 25°; CenterFace's
        // landmarks on a strongly turned face are a few degrees off (it measures 29°).
        #expect(warning.value > 20 && abs(warning.value - 25) < 6, "roll \(warning.value)")
        let upright = try #require(try assess(path: TestAssets.graceHopper).first)
        #expect(abs(upright.measurements.rollDegrees) < 8)
    }

    @Test func skinToneOfAKnownColourIsMeasuredWithinTwoDeltaE() throws {
        // A synthetic "face": a flat skin colour with mild sensor-like noise, landmarks placed by hand.
        let colour: (r: Double, g: Double, b: Double) = (198, 134, 103)
        let noise = try VipsImage.gaussianNoise(width: 400, height: 400, mean: 0, sigma: 4, seed: 3)
        let skin = try VipsImage.bandjoin([noise, noise, noise]).linear([1, 1, 1], [colour.r, colour.g, colour.b]).cast(.uchar)
        let photo = try Photo(image: skin.reinterpreted(as: .srgb))
        let face = DetectedFace(box: FaceBox(x: 100, y: 80, width: 200, height: 240), score: 1, landmarks: [
            Point(x: 152, y: 164), Point(x: 248, y: 164), Point(x: 200, y: 210), Point(x: 162, y: 250), Point(x: 238, y: 250),
        ])
        let tone = try #require(try FaceReport.analyse(photo: photo, faces: [face])[0].skinTone)
        let expected = Self.lab(red: colour.r, green: colour.g, blue: colour.b)
        let deltaE = zip(tone.lab, expected).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        #expect(deltaE < 2, "measured \(tone.lab), expected \(expected)")
        #expect(tone.hex == "#c68667")
        // Three patches of about 23×23, 23×23 and 35×17 pixels were measured...
        #expect(tone.patches.count == 3)
        #expect(tone.pixelCount == tone.patches.map { $0[2] * $0[3] }.reduce(0, +))
        #expect(tone.pixelCount > 1000)
        // ...and their spread is the noise's, small.
        #expect(tone.labStandardDeviation[0] > 0.5 && tone.labStandardDeviation[0] < 4)
        #expect(tone.meanDeltaE < 6)
    }

    /// sRGB → CIELAB (D65), the textbook formulas, independent of libvips.
    static func lab(red: Double, green: Double, blue: Double) -> [Double] {
        func linear(_ c: Double) -> Double {
            let v = c / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(red), linear(green), linear(blue))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
    }

    @Test func exportWritesFaceAndEyeCropsAndJSON() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let assessments = try FaceReport.analyse(photo: photo, faces: try detector.detect(in: photo.rgb))
        let folder = try TestAssets.temporaryFolder("crops")
        let result = try FaceCropExporter().write(photo: photo, assessments: assessments, to: folder, stem: "grace")
        #expect(result.written.map { ($0 as NSString).lastPathComponent }.sorted()
            == ["grace-face1-left-eye.png", "grace-face1-right-eye.png", "grace-face1.png", "grace-faces.json"])
        let face = try VipsImage.load(path: folder + "/grace-face1.png")
        // The face crop (~266 px) would need 4.06× to reach 1080 px: it is enlarged 4× and says so.
        #expect(max(face.width, face.height) < 1080 && max(face.width, face.height) > 1000)
        #expect(result.limited.map(\.face) == [1] && result.limited[0].edge == max(face.width, face.height))
        struct Crop: Decodable { var file: String; var rect: [Int]; var scale: Double }
        struct Face: Decodable { var face_crop: Crop; var eye_crops: [String: Crop]; var landmarks_in_face_crop: [String: [Double]] }
        struct Document: Decodable { var width: Int; var height: Int; var faces: [Face] }
        let json = try JSONDecoder().decode(Document.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/grace-faces.json")))
        #expect(json.width == 512 && json.faces.count == 1)
        // Eye crops are the photo's own pixels, unscaled and lossless.
        let eye = try #require(json.faces[0].eye_crops["left_eye"])
        let saved = try VipsImage.load(path: folder + "/" + eye.file)
        #expect(saved.width == saved.height && eye.rect[2] == eye.rect[3], "eye crops are square")
        let source = try photo.rgb.crop(x: eye.rect[0], y: eye.rect[1], width: eye.rect[2], height: eye.rect[3])
        #expect(try saved.pixels() == source.pixels())
        // Landmarks in the face crop lie inside it.
        for point in json.faces[0].landmarks_in_face_crop.values {
            #expect(point[0] > 0 && point[0] < Double(face.width) && point[1] > 0 && point[1] < Double(face.height))
        }
        // A second export keeps every file that is there (and goes on), unless told to overwrite.
        let again = try FaceCropExporter().write(photo: photo, assessments: assessments, to: folder, stem: "grace")
        #expect(again.written.isEmpty && again.kept.count == 4)
        let replaced = try FaceCropExporter(export: ExportOptions(overwrite: true))
            .write(photo: photo, assessments: assessments, to: folder, stem: "grace")
        #expect(replaced.written.count == 4 && replaced.kept.isEmpty)
    }
}
