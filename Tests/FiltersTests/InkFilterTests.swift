import Testing
import Vips
@testable import Filters

@Suite struct InkFilterTests {
    @Test func linesOverPaperAndAWash() throws {
        let out = try FilterBench.render("ink", FilterBench.faceCrop())
        let black = try FilterBench.fractionBelow(60, in: out)
        let white = 1 - (try FilterBench.fractionBelow(240, in: out))
        #expect(black > 0.01 && white > 0.2, "both ink and paper: black \(black), white \(white)")
        // Without the wash, what is not a line is paper.
        let plain = try FilterBench.render("ink", FilterBench.faceCrop(), ["wash": "0"])
        #expect(1 - (try FilterBench.fractionBelow(240, in: plain)) > white + 0.1)
    }

    @Test func flatLightAreasArePaperAndShadowsWashed() throws {
        #expect(try FilterBench.render("ink", FilterBench.flat(200)).minimum() == 255)
        let mid = try FilterBench.meanLevel(FilterBench.render("ink", FilterBench.flat(80)))
        let deep = try FilterBench.meanLevel(FilterBench.render("ink", FilterBench.flat(20)))
        #expect(deep < mid - 30 && mid < 230, "wash \(mid), deep \(deep)")
        // No lines without edges: a flat area has no specks.
        #expect(try FilterBench.render("ink", FilterBench.flat(80)).deviation() < 1)
    }

    @Test func higherThresholdInksMore() throws {
        let crop = try FilterBench.faceCrop()
        let sparse = try FilterBench.fractionBelow(128, in: FilterBench.render("ink", crop, ["threshold": "0.2"]))
        let dense = try FilterBench.fractionBelow(128, in: FilterBench.render("ink", crop, ["threshold": "0.6"]))
        #expect(dense > sparse + 0.05, "\(sparse) → \(dense)")
    }
}
