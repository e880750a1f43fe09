import Testing
import Vips
@testable import Filters

@Suite struct ReliefFilterTests {
    /// A bright round bump on a dark ground: a dome in the height field.
    func dome() throws -> VipsImage {
        let coords = try VipsImage.coordinates(width: 120, height: 120)
        let offset = try coords.linear([1], [-60])
        let squared = try offset.multiply(offset)
        let r2 = try squared.extractBands(0).add(squared.extractBands(1))
        let height = try r2.linear(-1.0 / (2 * 25 * 25), 0).math("exp").linear(200, 30).cast("uchar")
        return try VipsImage.bandjoin([height, height, height]).reinterpreted(as: "srgb")
    }

    func halves(_ image: VipsImage) throws -> (left: Double, right: Double) {
        (try image.crop(x: 20, y: 40, width: 35, height: 40).average(), try image.crop(x: 65, y: 40, width: 35, height: 40).average())
    }

    @Test(arguments: ["phong", "harmonics"])
    func theSideFacingTheLightIsBrighter(lighting: String) throws {
        let fromLeft = try halves(FilterBench.render("relief", dome(), ["lighting": lighting, "azimuth": "180"], faceSize: 100))
        #expect(fromLeft.left > fromLeft.right + 10, "\(lighting) lit from the left: \(fromLeft)")
        let fromRight = try halves(FilterBench.render("relief", dome(), ["lighting": lighting, "azimuth": "0"], faceSize: 100))
        #expect(fromRight.right > fromRight.left + 10, "\(lighting) lit from the right: \(fromRight)")
    }

    @Test func differsWithLightDirectionOnAFace() throws {
        let crop = try FilterBench.faceCrop()
        let a = try FilterBench.render("relief", crop, ["azimuth": "45"]).cast("float")
        let b = try FilterBench.render("relief", crop, ["azimuth": "225"]).cast("float")
        #expect(try a.subtract(b).absolute().average() > 8)
    }

    @Test func flatSurfaceIsEvenlyLitAndHeightDeepens() throws {
        #expect(try FilterBench.render("relief", FilterBench.flat(120)).extractBands(0).deviation() < 0.5)
        let shallow = try FilterBench.render("relief", dome(), ["height": "0.5"], faceSize: 100).extractBands(0).deviation()
        let deep = try FilterBench.render("relief", dome(), ["height": "5"], faceSize: 100).extractBands(0).deviation()
        #expect(deep > shallow * 1.5, "shading contrast \(shallow) → \(deep)")
    }

    @Test func materialAndTintColourTheSurface() throws {
        let flat = try FilterBench.flat(120)
        let stone = try FilterBench.render("relief", flat, ["material": "#ff8000"])
        #expect(try stone.extractBands(0).average() > stone.extractBands(2).average() + 100)
        let photo = try FilterBench.faceCrop()
        let tinted = try FilterBench.render("relief", photo, ["tint": "1", "material": "#ffffff"])
        // Full tint shows the photo's own colours: the blue backdrop stays bluer than red.
        let corner = try tinted.crop(x: 250, y: 0, width: 30, height: 30)
        #expect(try corner.extractBands(2).average() > corner.extractBands(0).average() + 30)
    }

    @Test func lightingModelsDiffer() throws {
        let crop = try FilterBench.faceCrop()
        let phong = try FilterBench.render("relief", crop, ["lighting": "phong"]).cast("float")
        let harmonics = try FilterBench.render("relief", crop, ["lighting": "harmonics"]).cast("float")
        #expect(try phong.subtract(harmonics).absolute().average() > 3)
    }
}
