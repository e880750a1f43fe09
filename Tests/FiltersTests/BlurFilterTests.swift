import Testing
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
}
