import Testing
import Vips
@testable import Filters

@Suite struct CharcoalFilterTests {
    /// Standard deviation of the first band over 8×8 windows, averaged: texture, not tone.
    static func localDeviation(_ image: VipsImage) throws -> Double {
        let band = try image.extractBands(0).cast(.float)
        let mean = try band.softened(sigma: 3)
        return try band.subtract(mean).multiply(band.subtract(mean)).softened(sigma: 3).math2("pow", constant: [0.5]).average()
    }

    @Test func darkerTonesGetDenserCharcoal() throws {
        let levels: [Double] = [60, 140, 225]
        let means = try levels.map { level in
            try FilterBench.meanLevel(FilterBench.render("charcoal", InkFilterTests.lightAndShadow(light: 240, shadow: level))
                .crop(x: 68, y: 4, width: 56, height: 120))
        }
        #expect(means[0] < means[1] - 30 && means[1] < means[2] - 30, "means \(means)")
    }

    @Test func deepShadowsAreVelvetyBlack() throws {
        let out = try FilterBench.render("charcoal", InkFilterTests.lightAndShadow(light: 240, shadow: 30))
        let shadow = try out.crop(x: 68, y: 4, width: 56, height: 120)
        let shadowMean = try FilterBench.meanLevel(shadow)
        #expect(shadowMean < 25, "shadow mean \(shadowMean)")
        #expect(try FilterBench.fractionBelow(40, in: shadow) > 0.9)
        // The lights stay near paper white.
        #expect(try FilterBench.meanLevel(out.crop(x: 4, y: 4, width: 56, height: 120)) > 225)
    }

    @Test func aRealFaceHasTheFullTonalRange() throws {
        let out = try FilterBench.render("charcoal", FilterBench.faceCrop())
        #expect(out.bands == 3 && out.format == .uchar)
        let black = try FilterBench.fractionBelow(30, in: out), light = 1 - (try FilterBench.fractionBelow(200, in: out))
        let between = 1 - black - light - (try FilterBench.fractionBelow(60, in: out) - black)
        #expect(black > 0.1 && light > 0.06, "black \(black), light \(light)")
        #expect(between > 0.25, "tones in between: \(between)")
    }

    @Test func midTonesShowThePapersTooth() throws {
        let image = try InkFilterTests.lightAndShadow(light: 240, shadow: 120)
        let textured = try Self.localDeviation(FilterBench.render("charcoal", image).crop(x: 68, y: 4, width: 56, height: 120))
        let smooth = try Self.localDeviation(FilterBench.render("charcoal", image, ["grain": "0"]).crop(x: 68, y: 4, width: 56, height: 120))
        #expect(textured > 7, "local deviation with grain \(textured)") // 9.6 at the default grain; 4.4 with the streaks of before
        #expect(smooth < textured / 2, "without grain \(smooth)")
    }

    @Test func noArtefactsAtTheCropEdges() throws {
        let out = try FilterBench.render("charcoal", InkFilterTests.lightAndShadow(light: 240, shadow: 120), ["grain": "0"])
        // The mid-tone half: its outer columns and rows are about as dark as its inside (no
        // stroke along the border, no darkening or lightening there).
        let inside = try FilterBench.meanLevel(out.crop(x: 80, y: 16, width: 32, height: 96))
        for edge in [try out.crop(x: 126, y: 16, width: 2, height: 96), try out.crop(x: 80, y: 0, width: 32, height: 2),
                     try out.crop(x: 80, y: 126, width: 32, height: 2)] {
            let level = try FilterBench.meanLevel(edge)
            #expect(abs(level - inside) < 20, "edge \(level) vs \(inside)")
        }
    }

    @Test func grainIsSeededAndDeterministic() throws {
        let image = try InkFilterTests.lightAndShadow(light: 240, shadow: 110)
        #expect(try FilterBench.render("charcoal", image, seed: 3).pixels() == FilterBench.render("charcoal", image, seed: 3).pixels())
        #expect(try FilterBench.render("charcoal", image, seed: 3).pixels() != FilterBench.render("charcoal", image, seed: 4).pixels())
    }
}
