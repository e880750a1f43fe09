import FaceDetector
import Foundation
import Testing
import TestSupport
import Vips
@testable import SketchEase

/// A box enlarged by hand around a face (at the prompt, in the browser) still draws the head:
/// the region is the face's, not the box's, so the backdrop and clothes the larger box takes in
/// are left as they are.
@Suite struct EnlargedBoxTests {
    @Test func aBoxEnlargedAroundAFaceDrawsTheHeadNotTheBackdrop() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper).rgb
        let detector = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let found = try #require(try detector.detect(in: photo).first)
        var history = EditHistory(detected: [EditableFace(id: 1, box: found.box, landmarks: found.landmarks)],
                                  imageSize: ImageSize(width: photo.width, height: photo.height))
        try history.perform(.resize(face: 1, width: found.box.width * 1.7, height: found.box.height * 1.6))
        let enlarged = try #require(history.face(1))
        let pencil = try FaceStyle.named("pencil")
        let compositor = FaceCompositor()
        let asFound = try compositor.regionMask(photo, faces: [StyledFace(box: found.box, style: pencil, landmarks: found.landmarks)]).pixels()
        let asEnlarged = try compositor.regionMask(photo, faces: [StyledFace(box: enlarged.box, style: pencil, landmarks: enlarged.landmarks)]).pixels()
        // The blue backdrop: pixels far bluer than they are red.
        let rgb = try photo.pixels()
        let backdrop = (0..<(photo.width * photo.height)).filter { Int(rgb[3 * $0 + 2]) > Int(rgb[3 * $0]) + 60 }
        func share(_ mask: [UInt8], of pixels: [Int]) -> Double { Double(pixels.filter { mask[$0] >= 128 }.count) / Double(pixels.count) }
        let area = { (mask: [UInt8]) in Double(mask.filter { $0 >= 128 }.count) }
        #expect(backdrop.count > 20_000, "the photo has its blue backdrop")
        #expect(share(asEnlarged, of: backdrop) <= share(asFound, of: backdrop) + 0.01,
                "backdrop drawn: \(share(asEnlarged, of: backdrop)) against \(share(asFound, of: backdrop))")
        #expect(area(asEnlarged) <= 1.35 * area(asFound), "region \(area(asEnlarged)) px against \(area(asFound))")
    }
}
