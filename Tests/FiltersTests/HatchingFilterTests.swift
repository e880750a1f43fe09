import Testing
import Vips
@testable import Filters

@Suite struct HatchingFilterTests {
    @Test func darkerTonesGetDenserHatching() throws {
        let levels: [Double] = [30, 100, 160, 245]
        let inked = try levels.map { try FilterBench.fractionBelow(200, in: FilterBench.render("hatching", FilterBench.flat($0, size: 160))) }
        #expect(inked[0] > inked[1] && inked[1] > inked[2] && inked[2] > inked[3], "inked fractions \(inked)")
        #expect(inked[3] < 0.01, "light tones stay paper: \(inked[3])")
    }

    @Test func darkTonesAreCrossHatched() throws {
        // One set of parallel lines leaves paper between them; crossing sets fill most of it.
        let dark = try FilterBench.flat(30, size: 160)
        let single = try FilterBench.fractionBelow(128, in: FilterBench.render("hatching", dark, ["layers": "1"]))
        let crossed = try FilterBench.fractionBelow(128, in: FilterBench.render("hatching", dark))
        #expect(1 - crossed < (1 - single) * 0.5, "paper left: single \(1 - single), crossed \(1 - crossed)")
    }

    @Test func lineSpacingFollowsTheFace() throws {
        let mid = try FilterBench.flat(100, size: 160)
        // Twice the face size, twice the spacing: half as many lines, so less fine detail.
        let small = try FilterBench.highFrequencyEnergy(FilterBench.render("hatching", mid, ["outline": "0"], faceSize: 150))
        let large = try FilterBench.highFrequencyEnergy(FilterBench.render("hatching", mid, ["outline": "0"], faceSize: 300))
        #expect(large < small * 0.8, "small face \(small), large face \(large)")
    }

    @Test func isDeterministic() throws {
        let crop = try FilterBench.faceCrop()
        #expect(try FilterBench.render("hatching", crop).pixels() == FilterBench.render("hatching", crop).pixels())
    }
}
