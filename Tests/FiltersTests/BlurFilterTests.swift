import Testing
import TestSupport
import Vips
@testable import Filters

@Suite struct BlurFilterTests {
    @Test func removesFineDetail() throws {
        let crop = try FilterBench.faceCrop()
        let before = try FilterBench.highFrequencyEnergy(crop)
        let after = try FilterBench.highFrequencyEnergy(FilterBench.render("blur", crop))
        #expect(after < before / 10, "high-frequency energy \(before) → \(after)")
    }

    @Test func strengthFollowsTheFaceSize() throws {
        let crop = try FilterBench.faceCrop()
        let small = try FilterBench.highFrequencyEnergy(FilterBench.render("blur", crop, faceSize: 60))
        let large = try FilterBench.highFrequencyEnergy(FilterBench.render("blur", crop, faceSize: 240))
        #expect(large < small, "small face \(small), large face \(large)")
    }

    @Test func keepsTheAverageColour() throws {
        let crop = try FilterBench.faceCrop()
        let out = try FilterBench.render("blur", crop)
        #expect(abs(try out.average() - crop.average()) < 3)
        #expect(out.width == crop.width && out.height == crop.height && out.bands == 3)
    }

    /// Drawn on a part of a picture with its corner on the canvas (`FilterContext.origin`), the
    /// blur is the whole picture's blur there, away from the part's edges (its blocks are laid
    /// from the canvas's corner): a clip's face keeps its blur as its drawn part moves.
    @Test func aPartIsBlurredAsTheWholeIsThere() throws {
        let crop = try FilterBench.faceCrop()
        let filter = try FilterRegistry.standard.filter("blur")
        let settings = try FilterRegistry.standard.settings(for: "blur", assignments: [:])
        let whole = try filter.apply(to: crop, settings: settings, context: FilterContext(faceSize: 180))
        let part = try filter.apply(to: crop.crop(x: 37, y: 51, width: 200, height: 220), settings: settings,
                                    context: FilterContext(faceSize: 180, origin: SIMD2(37, 51)))
        // The blur (sigma 14) reaches ~40 pixels: compare the middle, 50 pixels in from the part's edges.
        let inner = try part.crop(x: 50, y: 50, width: 100, height: 120)
        let same = try whole.crop(x: 87, y: 101, width: 100, height: 120)
        #expect(try PixelStats.maxAbsoluteDifference(inner, same) <= 1)
    }
}

