import Testing
import TestSupport
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

    /// Grace Hopper as a face some 36 pixels across in the photo (the photo at a fifth), drawn
    /// as the compositor draws a small face: on a copy enlarged three times.
    func smallFace(_ values: [String: String] = [:]) throws -> VipsImage {
        let photo = try VipsImage.load(path: TestAssets.graceHopper).resize(scale: 0.2)
        let crop = try photo.resize(scale: 3)
        // Her face box in the photo, (175, 132, 182 × 205), at three fifths.
        let face = FaceRegion(x: 175 * 0.6, y: 132 * 0.6, width: 182 * 0.6, height: 205 * 0.6)
        let registry = FilterRegistry.standard
        let settings = try registry.settings(for: "hatching", assignments: values)
        let context = FilterContext(faceSize: face.width, seed: 7, faces: [face], photoPixel: 3)
        return try registry.filter("hatching").apply(to: crop, settings: settings, context: context).extractBands(0)
    }

    @Test func aSmallFaceKeepsItsSkinAndFeatures() throws {
        let drawn = try smallFace()
        // The face (inside its box, hair and hat left out): its skin hatched half-way, neither
        // left as paper (0.65 of it paper: "a smooth grey mask" once the tone match greys it) nor
        // a screen of stripes (0.44: "stripes hide the features"), as a blind A/B chose.
        let skin = try drawn.crop(x: 118, y: 100, width: 84, height: 80)
        let paper = try skin.relational("more", constant: [200]).average() / 255
        #expect(paper > 0.48 && paper < 0.6, "paper inside the face \(paper)")
        // The eyes (behind the glasses) darker than the cheeks, the mouth darker than the chin.
        let eyes = try drawn.crop(x: 123, y: 115, width: 20, height: 10).average() + drawn.crop(x: 173, y: 113, width: 20, height: 10).average()
        let cheeks = try drawn.crop(x: 123, y: 145, width: 20, height: 12).average() + drawn.crop(x: 173, y: 145, width: 20, height: 12).average()
        #expect(eyes < cheeks - 60, "eyes \(eyes / 2), cheeks \(cheeks / 2)")
        let mouth = try drawn.crop(x: 145, y: 162, width: 30, height: 8).average()
        let chin = try drawn.crop(x: 145, y: 182, width: 30, height: 8).average()
        #expect(mouth < chin - 30, "mouth \(mouth), chin \(chin)")
    }

    @Test func noLineIsFinerThanTheLimit() throws {
        // A flat mid tone at 1 crop pixel = 1 photo pixel: lines 2 pixels apart at the finest;
        // enlarged three times (a small face) they are 6 crop pixels apart, so the fine
        // detail drops.
        let mid = try FilterBench.flat(110, size: 160)
        let registry = FilterRegistry.standard
        let settings = try registry.settings(for: "hatching", assignments: ["outline": "0", "spacing": "0.008"])
        func energy(_ photoPixel: Double) throws -> Double {
            let context = FilterContext(faceSize: 100, seed: 7, photoPixel: photoPixel)
            return try FilterBench.highFrequencyEnergy(registry.filter("hatching").apply(to: mid, settings: settings, context: context))
        }
        let fine = try energy(1), coarse = try energy(3)
        #expect(coarse < fine * 0.7, "photo pixel 1: \(fine), 3: \(coarse)")
    }
}
