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
    /// Grace Hopper's photo, her face as detected, and its box enlarged 1.7 × 1.6 at the prompt.
    static func graceHopperEnlarged() throws -> (photo: VipsImage, found: DetectedFace, enlarged: EditableFace) {
        let photo = try Photo.load(path: TestAssets.graceHopper).rgb
        let detector = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let found = try #require(try detector.detect(in: photo).first)
        var history = EditHistory(detected: [EditableFace(id: 1, box: found.box, landmarks: found.landmarks)],
                                  imageSize: ImageSize(width: photo.width, height: photo.height))
        try history.perform(.resize(face: 1, width: found.box.width * 1.7, height: found.box.height * 1.6))
        return (photo, found, try #require(history.face(1)))
    }

    @Test func aBoxEnlargedAroundAFaceDrawsTheHeadNotTheBackdrop() throws {
        let (photo, found, enlarged) = try Self.graceHopperEnlarged()
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

    /// Its strokes are drawn at the face's size, not coarser for the larger box: the enlarged
    /// box's drawing of the face is the found box's, where a drawing at the box's size is not.
    @Test func aBoxEnlargedAroundAFaceDrawsItsStrokesAtTheFacesSize() throws {
        let (photo, found, enlarged) = try Self.graceHopperEnlarged()
        let foundSize = FaceCompositor.drawnSize(of: found.box, landmarks: found.landmarks)
        let enlargedSize = FaceCompositor.drawnSize(of: enlarged.box, landmarks: enlarged.landmarks)
        #expect(foundSize == min(found.box.width, found.box.height), "a detected box is its own size")
        // At most the cap (0.95 of the features' size, where a detected box is 0.76 of it at
        // the median), where the box's shorter side is 1.6 times the face's.
        #expect(enlargedSize < 1.3 * foundSize, "enlarged: drawn for \(enlargedSize) px, the face \(foundSize)")
        #expect(FaceCompositor.drawnSize(of: enlarged.box, landmarks: []) == min(enlarged.box.width, enlarged.box.height),
                "without landmarks, the box")
        // The face drawn in pencil for each box, compared over the found box.
        let pencil = try FaceStyle.named("pencil")
        let compositor = FaceCompositor()
        func drawn(_ box: FaceBox, _ landmarks: [Point]) throws -> VipsImage {
            try compositor.render(photo, faces: [StyledFace(box: box, style: pencil, landmarks: landmarks, seed: 7)])
                .crop(x: Int(found.box.x), y: Int(found.box.y), width: Int(found.box.width), height: Int(found.box.height))
                .cast(.float)
        }
        let asFound = try drawn(found.box, found.landmarks), asEnlarged = try drawn(enlarged.box, enlarged.landmarks)
        let atTheBoxSize = try drawn(enlarged.box, [])
        let apart = try asEnlarged.subtract(asFound).absolute().average()
        let coarser = try atTheBoxSize.subtract(asFound).absolute().average()
        #expect(apart < 0.6 * coarser, "the face's drawing moved \(apart) levels; at the box's size \(coarser)")
    }

    /// However far a box is enlarged around a face, its region and its strokes are the face's:
    /// the box shrinks to the face's own box (CPortrait's `sk_own_scale`, for the region's frame
    /// and the styles alike), and the own box is its own own box. (With a floor of 0.3 on the
    /// frame's shrinking, as it had, this box's head region was 2.2 times the found box's.)
    @Test func aBoxEnlargedFarAroundAFaceIsShrunkToTheFacesOwnBox() throws {
        let (photo, found, _) = try Self.graceHopperEnlarged()
        let c = SIMD2(found.box.x + found.box.width / 2, found.box.y + found.box.height / 2)
        let far = FaceBox(x: c.x - 2.5 * found.box.width, y: c.y - 2.5 * found.box.height,
                          width: 5 * found.box.width, height: 5 * found.box.height)
        let region = FaceRegion(box: far, landmarks: found.landmarks, in: PixelRect(x: 0, y: 0, width: 0, height: 0))
        let own = region.ownBox
        let drawn = FaceCompositor.drawnSize(of: far, landmarks: found.landmarks)
        let foundSize = FaceCompositor.drawnSize(of: found.box, landmarks: found.landmarks)
        #expect(drawn < 1.3 * foundSize, "a box 5 times the face's is drawn for \(drawn) px, the face \(foundSize)")
        #expect(abs(min(own.width, own.height) - drawn) < 1e-3)
        #expect(abs(own.ownBox.width - own.width) < 1e-3 && abs(own.ownBox.height - own.height) < 1e-3, "the own box is its own own box")
        // The head's region for the far box is about the found box's, not a larger head.
        let pencil = try FaceStyle.named("pencil")
        let compositor = FaceCompositor()
        func area(_ box: FaceBox) throws -> Int {
            try compositor.regionMask(photo, faces: [StyledFace(box: box, style: pencil, landmarks: found.landmarks)]).pixels().filter { $0 >= 128 }.count
        }
        let asFar = try area(far), asFound = try area(found.box)
        #expect(Double(asFar) >= 0.75 * Double(asFound), "region \(asFar) px, the found box's \(asFound)")
        #expect(Double(asFar) <= 1.35 * Double(asFound), "region \(asFar) px, the found box's \(asFound)")
    }
}
