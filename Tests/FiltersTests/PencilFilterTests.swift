import Testing
import TestSupport
import Vips
@testable import Filters

@Suite struct PencilFilterTests {
    let crop: VipsImage
    let pencil = PencilFilter()

    init() throws {
        crop = try VipsImage.load(path: TestAssets.graceHopper).crop(x: 120, y: 60, width: 280, height: 340)
    }

    func render(_ values: [String: String] = [:]) throws -> VipsImage {
        let settings = try FilterRegistry.standard.settings(for: "pencil", assignments: values)
        return try pencil.apply(to: crop, settings: settings, context: FilterContext(faceSize: 200))
    }

    @Test func keepsSizeAndGivesGreyRGB() throws {
        let out = try render()
        #expect(out.width == crop.width && out.height == crop.height)
        #expect(out.bands == 3 && out.format == "uchar")
        let r = try out.extractBands(0), g = try out.extractBands(1)
        #expect(try r.subtract(g).absolute().maximum() == 0)
    }

    @Test func looksLikePaperWithDarkLines() throws {
        let out = try render().extractBands(0)
        // Mostly light paper...
        #expect(try out.average() > 180)
        // ...with real dark strokes: some pixels well below the paper tone.
        let dark = try out.relational("less", constant: [120]).average() / 255
        #expect(dark > 0.005 && dark < 0.3, "dark fraction \(dark)")
    }

    @Test func flatGreyBecomesBlankPaper() throws {
        let flat = try VipsImage.solid(width: 64, height: 64, pixel: [90, 90, 90])
        let settings = try FilterRegistry.standard.settings(for: "pencil", assignments: [:])
        let out = try pencil.apply(to: flat, settings: settings, context: FilterContext(faceSize: 64))
        #expect(try out.minimum() >= 250)
    }

    @Test func darknessParameterDarkens() throws {
        let light = try render(["darkness": "0.8"]).average()
        let dark = try render(["darkness": "3"]).average()
        #expect(dark < light - 5)
    }

    @Test func isDeterministic() throws {
        #expect(try render().pixels() == render().pixels())
    }
}
