import Filters
import Testing
import TestSupport
import Vips
@testable import SketchEase

/// The styled region follows the head: on synthetic heads (skin face, dark hair, plain
/// backdrop) the head matte covers the hair and leaves the backdrop, the face matte leaves the
/// hair, and neighbours' heads stay apart.
@Suite struct RegionMatteTests {
    /// A 400×400 head: a skin-coloured face ellipse over a dark-brown hair ellipse reaching
    /// above it, on a light blue-grey backdrop; `centreX` moves it sideways.
    static func head(on base: VipsImage? = nil, centreX: Double = 200) throws -> VipsImage {
        let coords = try VipsImage.coordinates(width: 400, height: 400)
        func inside(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) throws -> VipsImage {
            let o = try coords.linear([1 / rx, 1 / ry], [-cx / rx, -cy / ry])
            let r = try o.multiply(o)
            return try r.extractBands(0).add(r.extractBands(1)).relational("less", constant: [1])
        }
        let backdrop = try base ?? VipsImage.solid(width: 400, height: 400, pixel: [196, 208, 222]).reinterpreted(as: .srgb)
        let hair = try VipsImage.solid(width: 400, height: 400, pixel: [62, 44, 30])
        let skin = try VipsImage.solid(width: 400, height: 400, pixel: [222, 178, 150])
        let withHair = try inside(centreX, 185, 82, 105).ifThenElse(hair, backdrop)
        return try inside(centreX, 215, 62, 80).ifThenElse(skin, withHair).reinterpreted(as: .srgb)
    }

    static func face(centreX: Double = 200) -> StyledFace {
        let box = FaceBox(x: centreX - 60, y: 145, width: 120, height: 140)
        let frame = LandmarkFrame(estimatedIn: (box.x, box.y, box.width, box.height))
        return StyledFace(box: box, style: try! .named("pencil"), landmarks: frame.landmarks.map { Point(x: $0.x, y: $0.y) })
    }

    static func mean(_ mask: VipsImage, _ x: Int, _ y: Int, _ w: Int, _ h: Int) throws -> Double {
        try mask.crop(x: x, y: y, width: w, height: h).average() / 255
    }

    @Test func headCoversTheHairAndLeavesTheBackdrop() throws {
        let mask = try FaceCompositor().regionMask(Self.head(), faces: [Self.face()])
        #expect(try Self.mean(mask, 180, 200, 40, 40) > 0.95, "face")
        #expect(try Self.mean(mask, 185, 90, 30, 15) > 0.8, "hair above the face")
        #expect(try Self.mean(mask, 125, 170, 10, 30) > 0.7, "hair beside the face")
        #expect(try Self.mean(mask, 20, 20, 60, 60) == 0, "backdrop")
        #expect(try Self.mean(mask, 90, 120, 15, 15) < 0.1, "backdrop just beside the hair")
    }

    @Test func faceLeavesTheHair() throws {
        let compositor = FaceCompositor(options: RenderOptions(region: .face))
        let mask = try compositor.regionMask(Self.head(), faces: [Self.face()])
        #expect(try Self.mean(mask, 180, 200, 40, 40) > 0.95)
        #expect(try Self.mean(mask, 185, 88, 30, 10) < 0.2, "hair above the face")
    }

    @Test func neighboursHeadsStayApart() throws {
        let two = try Self.head(on: Self.head(centreX: 110), centreX: 290)
        let left = Self.face(centreX: 110), right = Self.face(centreX: 290)
        let onlyLeft = try FaceCompositor().regionMask(two, faces: [left])
        #expect(try Self.mean(onlyLeft, 90, 200, 40, 40) > 0.95)
        #expect(try Self.mean(onlyLeft, 270, 200, 40, 40) < 0.05, "the neighbour's face")
    }

    @Test func strokesStayInsideTheRegion() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let face = StyledFace(box: FaceBox(x: 175, y: 132, width: 182, height: 205), style: try .named("pencil"))
        let compositor = FaceCompositor()
        let outside = try compositor.regionMask(photo.rgb, faces: [face]).relational("equal", constant: [0])
        for id in FilterRegistry.standard.ids where id != "mask" {
            let styled = StyledFace(box: face.box, style: try .named(id), landmarks: face.landmarks)
            let out = try compositor.render(photo.rgb, faces: [styled])
            let changed = try out.cast(.float).subtract(photo.rgb.cast(.float)).absolute().bandMean()
                .relational("more", constant: [0]).boolean("and", outside)
            #expect(try changed.maximum() == 0, "\(id) drew outside its region")
        }
    }
}
