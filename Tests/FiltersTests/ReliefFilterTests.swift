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
        let height = try r2.linear(-1.0 / (2 * 25 * 25), 0).math("exp").linear(200, 30).cast(.uchar)
        return try VipsImage.bandjoin([height, height, height]).reinterpreted(as: .srgb)
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
        let a = try FilterBench.render("relief", crop, ["azimuth": "45"]).cast(.float)
        let b = try FilterBench.render("relief", crop, ["azimuth": "225"]).cast(.float)
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

    /// Grace Hopper's face box in `FilterBench.faceCrop()`.
    static let faceBox = FaceRegion(x: 55, y: 72, width: 182, height: 205)

    func renderFace(_ values: [String: String]) throws -> VipsImage {
        let registry = FilterRegistry.standard
        let settings = try registry.settings(for: "relief", assignments: values)
        let context = FilterContext(faceSize: 182, seed: 7, faces: [Self.faceBox])
        return try registry.filter("relief").apply(to: FilterBench.faceCrop(), settings: settings, context: context)
    }

    /// The face's fine relief: how far each pixel of the face box lies from its surroundings.
    func localContrast(_ image: VipsImage) throws -> Double {
        let grey = try image.colourspace(.bw).extractBands(0).cast(.float).crop(x: 55, y: 72, width: 182, height: 205)
        return try grey.subtract(grey.gaussianBlur(sigma: 6)).absolute().average()
    }

    @Test func lightingModelsAreTwoLooks() throws {
        let phong = try renderFace(["lighting": "phong"])
        let harmonics = try renderFace(["lighting": "harmonics"])
        let difference = try phong.cast(.float).subtract(harmonics.cast(.float)).absolute()
            .crop(x: 55, y: 72, width: 182, height: 205).average()
        #expect(difference > 25, "mean difference in the face \(difference)")
        // Polished and raking-lit against matte and soft: the face's fine contrast differs by far.
        let crisp = try localContrast(phong), soft = try localContrast(harmonics)
        #expect(crisp > soft * 1.6, "local contrast: phong \(crisp), harmonics \(soft)")
    }

    @Test func onlyPhongHasHighlights() throws {
        // On a mid-grey material the matte surface never rises above the material's fully lit
        // level; the polished one has near-white highlights.
        let phong = try renderFace(["lighting": "phong", "material": "#808080"]).extractBands(0)
        let harmonics = try renderFace(["lighting": "harmonics", "material": "#808080"]).extractBands(0)
        let brightest = try harmonics.maximum()
        #expect(brightest < 150, "harmonics brightest \(brightest)")
        let shining = try phong.relational("more", constant: [200]).average() / 255
        #expect(shining > 0.005, "phong highlights cover \(shining)")
    }

    @Test func harmonicsDarkensTheHollows() throws {
        // The eye sockets behind the glasses (the ambient-occlusion term) against the cheeks,
        // under light from straight in front, so direction plays no part.
        let clay = try renderFace(["lighting": "harmonics", "elevation": "90"]).extractBands(0)
        let eyes = try clay.crop(x: 81, y: 130, width: 40, height: 20).average() + clay.crop(x: 164, y: 127, width: 40, height: 20).average()
        let cheeks = try clay.crop(x: 81, y: 185, width: 40, height: 25).average() + clay.crop(x: 164, y: 185, width: 40, height: 25).average()
        #expect(eyes < cheeks - 20, "eyes \(eyes / 2), cheeks \(cheeks / 2)")
    }

    @Test func aFaceIsRoundedByADome() throws {
        // A flat photo with a face box: the dome over the head shades it, lit side to dark side.
        let registry = FilterRegistry.standard
        let settings = try registry.settings(for: "relief", assignments: ["azimuth": "180"])
        let context = FilterContext(faceSize: 60, seed: 7, faces: [FaceRegion(x: 30, y: 30, width: 60, height: 60)])
        let out = try registry.filter("relief").apply(to: FilterBench.flat(120, size: 120), settings: settings, context: context)
        let left = try out.crop(x: 25, y: 40, width: 20, height: 40).extractBands(0).average()
        let right = try out.crop(x: 75, y: 40, width: 20, height: 40).extractBands(0).average()
        #expect(left > right + 20, "lit side \(left), far side \(right)")
    }

    @Test(arguments: ["phong", "harmonics"])
    func isDeterministic(lighting: String) throws {
        #expect(try renderFace(["lighting": lighting]).pixels() == renderFace(["lighting": lighting]).pixels())
    }
}
