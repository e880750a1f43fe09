import Foundation
import Testing
import TestSupport
import Vips
@testable import FaceDetector

@Suite struct CenterFaceDetectorTests {
    let detector: OpenCVFaceDetector

    init() throws {
        detector = try .centerFace(modelPath: TestAssets.model)
    }

    @Test(arguments: [
        (TestAssets.astronaut, KnownFaces.astronaut),
        (TestAssets.graceHopper, KnownFaces.graceHopper),
    ])
    func findsTheFaceInEachExamplePhoto(path: String, expected: FaceBox) throws {
        let faces = try detector.detect(in: try VipsImage.load(path: path))
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        #expect(face.box.iou(expected) >= 0.5, "box \(face.box) vs \(expected)")
        #expect((face.score ?? 0) > 0.7)
        #expect(face.landmarks.count == 5)
        // Landmarks lie inside the box, eyes above the mouth, image-left eye left of the other.
        for p in face.landmarks {
            #expect(p.x >= face.box.x && p.x <= face.box.maxX && p.y >= face.box.y && p.y <= face.box.maxY)
        }
        let le = try #require(face.landmark(.leftEye)), re = try #require(face.landmark(.rightEye))
        let ml = try #require(face.landmark(.mouthLeft))
        #expect(le.x < re.x)
        #expect(le.y < ml.y)
    }

    @Test func findsAllThreeFacesInTheGroupPhoto() throws {
        let faces = try detector.detect(in: try VipsImage.load(path: TestAssets.group))
        #expect(faces.count == 3)
        // Composition offsets from scripts/setup.sh: astronaut at (30,100), Hopper at (580,60).
        let shifted = [
            KnownFaces.astronaut.offset(dx: 30, dy: 100),
            KnownFaces.graceHopper.offset(dx: 580, dy: 60),
        ]
        for expected in shifted {
            #expect(faces.contains { $0.box.iou(expected) >= 0.5 }, "no face near \(expected)")
        }
    }

    /// OpenCV 4.6 trap: a Net that has run one input size gives wrong output for another.
    @Test func twoInputSizesInOneProcessBothDetectCorrectly() throws {
        let photo = try VipsImage.load(path: TestAssets.astronaut)
        let large = try photo.resize(scale: 1.5)       // 768 x 768
        let wide = try photo.embed(x: 0, y: 0, width: 900, height: 512, extend: "white")
        let detector = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let options = DetectionOptions(maxSide: 2048)
        let first = try detector.detect(in: photo, options: options)
        let second = try detector.detect(in: large, options: options)
        let third = try detector.detect(in: wide, options: options)
        let again = try detector.detect(in: photo, options: options)
        #expect(first.count == 1 && second.count == 1 && third.count == 1 && again.count == 1)
        let expectedLarge = KnownFaces.astronaut.scaled(x: 1.5, y: 1.5)
        #expect((second.first?.box.iou(expectedLarge) ?? 0) >= 0.6)
        #expect((third.first?.box.iou(KnownFaces.astronaut) ?? 0) >= 0.6)
        #expect((again.first?.box.iou(first[0].box) ?? 0) > 0.99)
    }

    @Test func boxesMapBackFromTheDownscaledCopy() throws {
        let photo = try VipsImage.load(path: TestAssets.graceHopper)
        let big = try photo.resize(scale: 4)             // 2048 x 2400, detected at 1024 longest side
        let faces = try detector.detect(in: big, options: DetectionOptions(maxSide: 1024))
        let face = try #require(faces.first)
        #expect(face.box.iou(KnownFaces.graceHopper.scaled(x: 4, y: 4)) >= 0.5)
    }

    @Test func rotatedPhotoGivesTheSameFacesRotated() throws {
        let photo = try VipsImage.load(path: TestAssets.graceHopper) // 512 x 600
        let upright = try #require(try detector.detect(in: photo).first)
        // EXIF orientation 6: stored rotated 90° anticlockwise; autorot turns it back.
        let stored = try photo.rotated("d270").settingOrientation(6)
        let viewed = try stored.autorotated()
        #expect(viewed.width == 512 && viewed.height == 600)
        let face = try #require(try detector.detect(in: viewed).first)
        #expect(face.box.iou(upright.box) > 0.8)
        // The same photo turned 90° clockwise and detected as is: the box turns with it.
        let turned = try photo.rotated("d90")
        let turnedFace = try #require(try detector.detect(in: turned).first)
        let expected = FaceBox(x: Double(photo.height) - upright.box.maxY, y: upright.box.x,
                               width: upright.box.height, height: upright.box.width)
        #expect(turnedFace.box.iou(expected) > 0.6, "\(turnedFace.box) vs \(expected)")
    }

    @Test func aPhotoWithoutFacesGivesNone() throws {
        let wall = try VipsImage.solid(width: 640, height: 480, pixel: [120, 130, 140])
        #expect(try detector.detect(in: wall).isEmpty)
    }

    @Test func missingOrCorruptModelIsAClearError() throws {
        let missing = #expect(throws: FaceDetectionError.self) { try OpenCVFaceDetector.centerFace(modelPath: "/no/model.onnx") }
        #expect(missing?.message.contains("/no/model.onnx") == true)
        let folder = try TestAssets.temporaryFolder("model")
        let junk = folder + "/junk.onnx"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: junk))
        #expect(throws: FaceDetectionError.self) { try OpenCVFaceDetector.centerFace(modelPath: junk) }
    }
}
