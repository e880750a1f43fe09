import FaceDetector
import Foundation
import Testing
import TestSupport
import Vips
@testable import SketchEase

/// A styled face sits in its photo: along its region's border, the step in colour between just
/// inside and just outside is about what the photo had (`BorderStep`), for large and small
/// faces, in light and in a dark room.
@Suite struct BorderStepTests {
    static let detector = try! OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)

    /// Each face of a photo drawn alone in `style`: its border-step ratio.
    static func ratios(_ image: VipsImage, style: String = "pencil", options: RenderOptions = .init()) throws -> [Double] {
        let faces = try detector.detect(in: image)
        let compositor = FaceCompositor(options: options)
        return try faces.compactMap { face in
            let styled = [StyledFace(box: face.box, style: try .named(style), landmarks: face.landmarks)]
            let out = try compositor.render(image, faces: styled)
            return try BorderStep.ratio(original: image, output: out, region: compositor.regionMask(image, faces: styled))
        }
    }

    static func photo(_ name: String) throws -> VipsImage { try Photo.load(path: TestAssets.example(name)).rgb }

    /// The photo as if taken in a dark room: a third of the light, a little more contrast.
    static func darkRoom(_ image: VipsImage) throws -> VipsImage {
        try image.linear(1.0 / 255, 0).math2("pow", constant: [1.3]).linear(255 * 0.33, 0).cast(.uchar).reinterpreted(as: .srgb)
    }

    @Test(arguments: ["grace_hopper.jpg", "group.jpg", "faces/2008_002506.jpg", "faces/2009_004587.jpg"], ["pencil", "graphite"])
    func drawnFacesSitInTheirPhoto(name: String, style: String) throws {
        let image = try Self.photo(name)
        for (label, picture) in [("as taken", image), ("dark room", try Self.darkRoom(image))] {
            let ratios = try Self.ratios(picture, style: style)
            print("border step \(style) \(name) \(label): \(ratios.map { String(format: "%.2f", $0) })")
            #expect(!ratios.isEmpty)
            #expect(ratios.allSatisfy { $0 <= 1.15 }, "\(style) \(name) \(label): \(ratios)")
        }
    }

    /// A person drawn with its body (`--region person`) sits in its photo as a head does: a
    /// portrait whose jacket is drawn, and two men in shirts, as taken and in a dark room
    /// (0.93–1.04 when written).
    @Test(arguments: ["grace_hopper.jpg", "faces/2008_002506.jpg"])
    func drawnPeopleSitInTheirPhoto(name: String) throws {
        let image = try Self.photo(name)
        for (label, picture) in [("as taken", image), ("dark room", try Self.darkRoom(image))] {
            let ratios = try Self.ratios(picture, options: RenderOptions(region: .person))
            print("border step person \(name) \(label): \(ratios.map { String(format: "%.2f", $0) })")
            #expect(!ratios.isEmpty)
            #expect(ratios.allSatisfy { $0 <= 1.15 }, "person \(name) \(label): \(ratios)")
        }
    }

    /// Styles with tones of their own (a carved material, a cartoon's bands) take the photo's
    /// lightness too: in a dark room a relief is dark stone, not a light blob.
    @Test(arguments: ["grace_hopper.jpg", "faces/2008_002506.jpg"], ["relief", "cartoon"])
    func tonedStylesSitInADarkRoom(name: String, style: String) throws {
        let dark = try Self.darkRoom(Self.photo(name))
        let ratios = try Self.ratios(dark, style: style)
        print("border step \(style) \(name) dark room: \(ratios.map { String(format: "%.2f", $0) })")
        #expect(!ratios.isEmpty)
        #expect(ratios.allSatisfy { $0 <= 1.15 }, "\(style) \(name) dark room: \(ratios)")
    }

    @Test func aWhiteEllipseInADarkRoomStandsOut() throws {
        let dark = try Self.darkRoom(Self.photo("grace_hopper.jpg"))
        let pasted = try Self.ratios(dark, options: RenderOptions(region: .ellipse, tone: .paper))
        let placed = try Self.ratios(dark)
        print("border step dark grace: paper ellipse \(pasted), photo head \(placed)")
        #expect(placed[0] <= 1.15 && pasted[0] > placed[0] + 0.05, "paper ellipse \(pasted), head in photo tone \(placed)")
    }
}
