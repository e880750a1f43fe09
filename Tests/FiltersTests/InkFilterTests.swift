import Testing
import Vips
@testable import Filters

@Suite struct InkFilterTests {
    /// Fraction of pixels whose first band is in `low..<high`: how much of a drawing is grey.
    static func fractionBetween(_ low: Double, _ high: Double, in image: VipsImage) throws -> Double {
        try FilterBench.fractionBelow(high, in: image) - FilterBench.fractionBelow(low, in: image)
    }

    /// Light paper on the left half, a dark shadow on the right.
    static func lightAndShadow(light: Double = 235, shadow: Double) throws -> VipsImage {
        let left = try VipsImage.coordinates(width: 128, height: 128).extractBands(0).relational("less", constant: [64])
        let fill = { (level: Double) in try VipsImage.solid(width: 128, height: 128, pixel: [level, level, level]) }
        return try left.ifThenElse(fill(light), fill(shadow)).cast(.uchar).reinterpreted(as: .srgb)
    }

    static func render(_ crop: VipsImage, _ values: [String: String] = [:], faceSize: Double = 180, seed: Int = 7,
                       photoPixel: Double = 1) throws -> VipsImage {
        let registry = FilterRegistry.standard
        let settings = try registry.settings(for: "ink", assignments: values)
        return try registry.filter("ink").apply(to: crop, settings: settings,
                                                context: FilterContext(faceSize: faceSize, seed: seed, photoPixel: photoPixel))
    }

    @Test func aRealFaceIsNearlyTwoTone() throws {
        let out = try FilterBench.render("ink", FilterBench.faceCrop())
        let grey = try Self.fractionBetween(60, 200, in: out)
        let black = try FilterBench.fractionBelow(60, in: out)
        let white = 1 - (try FilterBench.fractionBelow(200, in: out))
        // Paper and ink, a pixel of antialiasing between: never a grey wash.
        #expect(grey < 0.15, "mid-grey fraction \(grey)")
        #expect(black > 0.15 && white > 0.2, "black \(black), white \(white)")
    }

    @Test func lightsArePaperAndShadowsAreInked() throws {
        let out = try Self.render(Self.lightAndShadow(shadow: 35))
        let paper = try out.crop(x: 4, y: 4, width: 56, height: 120)
        let shadow = try out.crop(x: 68, y: 4, width: 56, height: 120)
        #expect(try paper.minimum() == 255, "the lights are untouched paper")
        #expect(try FilterBench.fractionBelow(60, in: shadow) > 0.8, "a deep shadow is mostly solid ink")
        // A mid tone is hatched: part ink, part paper, little grey.
        let mid = try Self.render(Self.lightAndShadow(shadow: 120)).crop(x: 68, y: 4, width: 56, height: 120)
        let inked = try FilterBench.fractionBelow(60, in: mid)
        #expect(inked > 0.25 && inked < 0.85, "hatched mid tone: \(inked) ink")
        #expect(try Self.fractionBetween(60, 200, in: mid) < 0.3)
        // Without the wash, the shadow is left to the lines: nothing but paper in a flat area.
        #expect(try Self.render(Self.lightAndShadow(shadow: 35), ["wash": "0"]).crop(x: 68, y: 4, width: 56, height: 120).minimum() > 200)
    }

    @Test func higherThresholdInksMore() throws {
        let crop = try FilterBench.faceCrop()
        let sparse = try FilterBench.fractionBelow(128, in: FilterBench.render("ink", crop, ["threshold": "0.5"]))
        let dense = try FilterBench.fractionBelow(128, in: FilterBench.render("ink", crop, ["threshold": "0.95"]))
        #expect(dense > sparse + 0.05, "\(sparse) → \(dense)")
    }

    @Test func hatchingIsSeededAndDeterministic() throws {
        let image = try Self.lightAndShadow(shadow: 120)
        #expect(try Self.render(image, seed: 3).pixels() == Self.render(image, seed: 3).pixels())
        #expect(try Self.render(image, seed: 3).pixels() != Self.render(image, seed: 4).pixels())
    }

    @Test func aSmallFaceGetsFewerBolderMarks() throws {
        // The same mid tone drawn for a face enlarged 2.5× from the photo: wider-spaced strokes,
        // so fewer ink-paper edges, and still two-tone.
        let image = try Self.lightAndShadow(shadow: 110)
        let fine = try Self.render(image, faceSize: 120).crop(x: 68, y: 4, width: 56, height: 120)
        let bold = try Self.render(image, faceSize: 120, photoPixel: 2.5).crop(x: 68, y: 4, width: 56, height: 120)
        let fineEdges = try FilterBench.highFrequencyEnergy(fine), boldEdges = try FilterBench.highFrequencyEnergy(bold)
        #expect(boldEdges < fineEdges * 0.75, "edges \(fineEdges) → \(boldEdges)")
        #expect(try Self.fractionBetween(60, 200, in: bold) < 0.3)
    }

    @Test func inkAndCharcoalAreDifferentDrawings() throws {
        let crop = try FilterBench.faceCrop()
        let ink = try FilterBench.render("ink", crop), charcoal = try FilterBench.render("charcoal", crop)
        let difference = try ink.extractBands(0).subtract(charcoal.extractBands(0)).absolute().average()
        #expect(difference > 40, "mean difference \(difference)")
        // Ink is two-tone; charcoal has its tones in between.
        let inkGrey = try Self.fractionBetween(60, 200, in: ink), charcoalGrey = try Self.fractionBetween(60, 200, in: charcoal)
        #expect(charcoalGrey > inkGrey + 0.15, "grey: ink \(inkGrey), charcoal \(charcoalGrey)")
    }
}
