import FaceDetector
import Foundation
import Testing
import TestSupport
import Vips
@testable import SketchEase

/// A face's region is cut and drawn on a crop that holds all of it: its matte never meets an
/// edge of the crop inside the photo (where it would end in a straight, hard edge), and a
/// turned head's far cheek, ear and hair are in it.
@Suite struct RegionReachTests {
    static let detector = try! OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)

    static var photos: [String] {
        let folder = TestAssets.root.appendingPathComponent("examples/faces").path
        let dlib = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
        return dlib.map { "\(folder)/\($0)" } + [TestAssets.group, TestAssets.graceHopper]
    }

    /// The matte of every face of a photo, cut as a photo's faces are, with where it lies.
    static func cuts(_ path: String, region: RenderOptions.Region = .head) throws -> (VipsImage, [(DetectedFace, CarriedMatte.Cut)]) {
        let image = try Photo.load(path: path).rgb
        let faces = try detector.detect(in: image)
        let compositor = FaceCompositor(options: RenderOptions(region: region))
        let styled = try faces.map { StyledFace(box: $0.box, style: try .named("pencil"), landmarks: $0.landmarks) }
        let cuts = try faces.indices.compactMap { i -> (DetectedFace, CarriedMatte.Cut)? in
            let others = styled.enumerated().filter { $0.offset != i }.map(\.element)
            return try compositor.cutMatte(for: styled[i], others: others, in: image).map { (faces[i], $0) }
        }
        return (image, cuts)
    }

    @Test(arguments: [RenderOptions.Region.head, .face])
    func aMatteNeverMeetsTheEdgeOfItsCropInsideThePhoto(region: RenderOptions.Region) throws {
        var faces = 0
        for path in Self.photos {
            let (image, cuts) = try Self.cuts(path, region: region)
            for (face, cut) in cuts {
                faces += 1
                let matte = try cut.matte.pixels(), w = cut.matte.width, h = cut.matte.height
                var edge: [UInt8] = []
                if cut.x > 0 { edge += (0..<h).map { matte[$0 * w] } }
                if cut.x + w < image.width { edge += (0..<h).map { matte[$0 * w + w - 1] } }
                if cut.y > 0 { edge += matte[0..<w] }
                if cut.y + h < image.height { edge += matte[(h - 1) * w..<h * w] }
                #expect((edge.max() ?? 0) == 0, "\(URL(fileURLWithPath: path).lastPathComponent): face at \(face.box) meets its crop's edge (\(edge.max() ?? 0))")
            }
        }
        #expect(faces > 60)
    }

    /// dlib's 2007_007763.jpg: a man laughing, turned to the image-left, his box over the front of
    /// his face; the back of his head (ear, cheek, hair) lies beyond its right side.
    @Test func aTurnedHeadIsCoveredBehindItsFace() throws {
        let (_, cuts) = try Self.cuts(TestAssets.root.appendingPathComponent("examples/faces/2007_007763.jpg").path)
        let (face, cut) = try #require(cuts.first { $0.0.box.contains(Point(x: 410, y: 105)) })
        let matte = try cut.matte.pixels(), w = cut.matte.width
        // Beside the box's right side, at the height of the eyes: the ear and the hair around it.
        let x0 = Int(face.box.maxX) + 2 - cut.x, y0 = Int(face.box.y + 0.25 * face.box.height) - cut.y
        let patch = (y0..<y0 + 10).flatMap { y in (x0..<x0 + 6).map { Double(matte[y * w + $0]) } }
        #expect(patch.reduce(0, +) / Double(patch.count) > 160, "\(patch)")
    }
}
