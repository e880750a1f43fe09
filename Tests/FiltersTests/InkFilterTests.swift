import Testing
import Vips
@testable import Filters

@Suite struct InkFilterTests {
    @Test func lineArtIsNearlyBinary() throws {
        let out = try FilterBench.render("ink", FilterBench.faceCrop())
        let black = try FilterBench.fractionBelow(30, in: out)
        let white = 1 - (try FilterBench.fractionBelow(226, in: out))
        #expect(black + white > 0.95, "black \(black) + white \(white)")
        #expect(black > 0.03 && white > 0.3, "both ink and paper: black \(black), white \(white)")
    }

    @Test func flatLightAreasArePaperAndDarkAreasInk() throws {
        #expect(try FilterBench.render("ink", FilterBench.flat(200)).minimum() == 255)
        #expect(try FilterBench.render("ink", FilterBench.flat(20)).maximum() < 30)
    }

    @Test func higherThresholdInksMore() throws {
        let crop = try FilterBench.faceCrop()
        let sparse = try FilterBench.fractionBelow(128, in: FilterBench.render("ink", crop, ["threshold": "0.2"]))
        let dense = try FilterBench.fractionBelow(128, in: FilterBench.render("ink", crop, ["threshold": "0.6"]))
        #expect(dense > sparse + 0.05, "\(sparse) → \(dense)")
    }
}
