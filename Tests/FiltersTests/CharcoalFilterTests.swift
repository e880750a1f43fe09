import Testing
import Vips
@testable import Filters

@Suite struct CharcoalFilterTests {
    @Test func darkerTonesGetDenserStrokes() throws {
        let levels: [Double] = [40, 120, 220]
        let means = try levels.map { try FilterBench.meanLevel(FilterBench.render("charcoal", FilterBench.flat($0))) }
        #expect(means[0] < means[1] - 15 && means[1] < means[2] - 15, "means \(means)")
    }

    @Test func drawsEdgesOfAFaceOnLightPaper() throws {
        let crop = try FilterBench.faceCrop()
        let out = try FilterBench.render("charcoal", crop)
        #expect(out.width == crop.width && out.height == crop.height && out.bands == 3 && out.format == "uchar")
        let black = try FilterBench.fractionBelow(60, in: out)
        #expect(black > 0.02 && black < 0.5, "near-black fraction \(black)")
    }

    @Test func grainIsSeededAndDeterministic() throws {
        let flat = try FilterBench.flat(90)
        #expect(try FilterBench.render("charcoal", flat, seed: 3).pixels() == FilterBench.render("charcoal", flat, seed: 3).pixels())
        #expect(try FilterBench.render("charcoal", flat, seed: 3).pixels() != FilterBench.render("charcoal", flat, seed: 4).pixels())
        // With grain, a flat shaded area is textured; without, it is even.
        #expect(try FilterBench.render("charcoal", flat).extractBands(0).deviation() > 3)
        #expect(try FilterBench.render("charcoal", flat, ["grain": "0"]).extractBands(0).deviation() < 1)
    }
}
