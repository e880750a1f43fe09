import Testing
import Vips
@testable import Filters

@Suite struct CartoonFilterTests {
    @Test func flattensToFewerColours() throws {
        let crop = try FilterBench.faceCrop()
        let out = try FilterBench.render("cartoon", crop)
        #expect(out.width == crop.width && out.height == crop.height && out.bands == 3 && out.format == .uchar)
        let before = try FilterBench.coloursUsed(crop), after = try FilterBench.coloursUsed(out)
        #expect(Double(after) < Double(before) * 0.6, "colours \(before) → \(after)")
        // Fewer levels, fewer colours.
        let fewer = try FilterBench.coloursUsed(FilterBench.render("cartoon", crop, ["levels": "3"]))
        #expect(fewer < after, "levels 3: \(fewer), default: \(after)")
    }

    @Test func drawsBlackOutlines() throws {
        let crop = try FilterBench.faceCrop()
        let outlined = try FilterBench.fractionBelow(20, in: FilterBench.render("cartoon", crop).colourspace(.bw))
        let plain = try FilterBench.fractionBelow(20, in: FilterBench.render("cartoon", crop, ["outline": "0"]).colourspace(.bw))
        #expect(outlined > plain + 0.02, "black pixels with outlines \(outlined), without \(plain)")
    }

    @Test func keepsTheColoursOfTheFace() throws {
        let crop = try FilterBench.faceCrop()
        let out = try FilterBench.render("cartoon", crop, ["outline": "0", "saturation": "1"])
        // Flattening moves colours only a little on average (no hue shift, no wash-out).
        let difference = try out.cast(.float).subtract(crop.cast(.float)).absolute().average()
        #expect(difference < 25, "mean difference \(difference)")
    }

    @Test func aFaceAboutAHundredPixelsAcrossKeepsItsOutlines() throws {
        // Grace Hopper's face reduced to ~100 px, drawn at its own size: eyes, glasses and
        // jaw get black outlines (about a photo pixel wide), not only colour patches (7.9 % of
        // the crop is outline; 4.5 % with the outlines of before, 0.6 px wide).
        let small = try FilterBench.faceCrop().resize(scale: 0.75)
        let grey = { (values: [String: String]) in
            try FilterBench.render("cartoon", small, values, faceSize: 100).colourspace(.bw).extractBands(0).cast(.float)
        }
        // Outline pixels: much darker than the same picture drawn without outlines.
        let inked = try grey(["outline": "0"]).subtract(grey([:])).relational("more", constant: [60]).average() / 255
        print("cartoon outlines on a 100 px face: \(inked)")
        #expect(inked > 0.06, "outline share \(inked)")
    }
}
