import Testing
import TestSupport
import Vips
@testable import Filters

@Suite struct PencilFilterTests {
    let crop: VipsImage
    let pencil = PencilFilter()

    init() throws {
        crop = try FilterBench.faceCrop()
    }

    func render(_ values: [String: String] = [:], seed: Int = 0) throws -> VipsImage {
        try FilterBench.render("pencil", crop, values, faceSize: 200, seed: seed)
    }

    @Test func keepsSizeAndGivesGreyRGB() throws {
        let out = try render()
        #expect(out.width == crop.width && out.height == crop.height)
        #expect(out.bands == 3 && out.format == "uchar" && out.interpretation == "srgb")
        let r = try out.extractBands(0), g = try out.extractBands(1)
        #expect(try r.subtract(g).absolute().maximum() == 0)
    }

    @Test func looksLikePaperWithDarkLines() throws {
        let out = try render().extractBands(0)
        // Mostly light paper...
        #expect(try out.average() > 150)
        // ...with real dark strokes: some pixels well below the paper tone.
        let dark = try FilterBench.fractionBelow(100, in: out)
        #expect(dark > 0.01 && dark < 0.4, "dark fraction \(dark)")
    }

    @Test func blacksAreShadedNotWashedOut() throws {
        // Plain colour dodge turns near-black white; the tone layer keeps the order of tones.
        let nearBlack = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(12)))
        let mid = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(110)))
        let light = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(230)))
        #expect(nearBlack < mid - 20 && mid < light - 20, "\(nearBlack) \(mid) \(light)")
        let unshaded = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(12), ["shading": "0"]))
        #expect(unshaded > 200, "without shading the dodge alone washes black out: \(unshaded)")
    }

    @Test func flatAreasShowPaperGrain() throws {
        let out = try FilterBench.render("pencil", FilterBench.flat(190))
        #expect(try out.extractBands(0).deviation() > 2)
        let clean = try FilterBench.render("pencil", FilterBench.flat(190), ["grain": "0"])
        #expect(try clean.extractBands(0).deviation() < 1)
    }

    @Test func shadowsAreLaidInWithStrokesNotASmoothGrey() throws {
        // Without paper grain, a flat dark area is still strokes: light and dark pixels, not one grey.
        let shadow = try FilterBench.render("pencil", FilterBench.flat(60, size: 160), ["grain": "0"]).extractBands(0)
        let deviation = try shadow.deviation()
        #expect(deviation > 20, "deviation \(deviation)")
        // Light tones stay smudged graphite, smooth.
        let light = try FilterBench.render("pencil", FilterBench.flat(200, size: 160), ["grain": "0"]).extractBands(0)
        #expect(try light.deviation() < 1)
    }

    @Test func darknessParameterDarkens() throws {
        let light = try render(["darkness": "0.8"]).average()
        let dark = try render(["darkness": "3"]).average()
        #expect(dark < light - 5)
    }

    @Test func isDeterministicAndSeeded() throws {
        #expect(try render().pixels() == render().pixels())
        #expect(try render(seed: 1).pixels() != render(seed: 2).pixels())
    }
}
