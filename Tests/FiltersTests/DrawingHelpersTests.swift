import Testing
import TestSupport
import Vips
@testable import Filters

/// The building blocks every style shares (VipsImage+Drawing, NoiseTile).
@Suite struct DrawingHelpersTests {
    /// The mean CIELAB lightness of an image.
    private func lightness(_ image: VipsImage) throws -> Double { try image.colourspace(.lab).extractBands(0).average() }

    /// The mean lightness of the 5 × 5 pixels about (x, y).
    private func lightness(_ image: VipsImage, x: Int, y: Int) throws -> Double {
        try lightness(image.crop(x: x - 2, y: y - 2, width: 5, height: 5))
    }

    /// A 160 × 160 matte of a disc of radius 60 about the middle, half at the rim, from 0 to 255
    /// over the 16 px across it: a region a drawing is laid in through.
    private func disc() throws -> VipsImage {
        let coords = try VipsImage.coordinates(width: 160, height: 160).linear(1, -80)
        let squared = try coords.multiply(coords)
        let radius = try squared.extractBands(0).add(squared.extractBands(1)).math2("pow", constant: [0.5])
        return try radius.linear(-16, 60 * 16 + 127.5).cast(.uchar)
    }

    /// A tone match laid through `disc()` with a ramp of 30 px: `inside` (CIELAB L) in the
    /// middle, `outside` at the rim and beyond it, and half the ramp in strictly between (by
    /// `margin`).
    private func expectRamp(_ image: VipsImage, from inside: Double, to outside: Double, margin: Double, _ what: String) throws {
        let middle = try lightness(image, x: 80, y: 80), halfway = try lightness(image, x: 125, y: 80)
        let rim = try lightness(image, x: 140, y: 80), beyond = try lightness(image, x: 8, y: 8)
        print("\(what) through a disc: L \(middle) in the middle, \(halfway) half the ramp in, \(rim) at the rim, \(beyond) outside; \(inside) inside, \(outside) outside")
        #expect(abs(middle - inside) < 1, "\(what): the middle \(middle) against \(inside)")
        #expect(abs(rim - outside) < 2, "\(what): the rim meets the photo, \(rim) against \(outside)")
        #expect(abs(beyond - outside) < 1)
        #expect(halfway > outside + margin && halfway < inside - margin, "\(what): \(halfway) between \(outside) and \(inside)")
    }

    /// A one-band float ramp: x / (width - 1) * span + offset.
    private func ramp(width: Int = 256, height: Int = 8, span: Double, offset: Double) throws -> VipsImage {
        try VipsImage.coordinates(width: width, height: height).extractBands(0).linear(span / Double(width - 1), offset)
    }

    @Test func clampedKeepsValuesInsideTheBoundsAndPinsTheRest() throws {
        let values = try ramp(span: 3, offset: -1) // -1 ... 2
        let clamped = try values.clamped()
        #expect(try clamped.minimum() == 0 && clamped.maximum() == 1)
        // Inside the bounds nothing moves.
        let inside = try values.crop(x: 100, y: 0, width: 60, height: 8)
        #expect(try inside.subtract(inside.clamped()).absolute().maximum() == 0)
        #expect(try values.clamped(-0.5, 0.25).minimum() == -0.5)
        #expect(try values.clamped(-0.5, 0.25).maximum() == 0.25)
        // Three bands are clamped band by band.
        let colour = try VipsImage.bandjoin([values, values.linear(-1, 0), values.linear(0, 0.5)]).clamped()
        #expect(colour.bands == 3)
        #expect(try colour.extractBands(2).average() == 0.5)
    }

    @Test func greyRGBIsThreeEqualEightBitBands() throws {
        let grey = try ramp(span: 1, offset: 0).unitToGreyRGB()
        #expect(grey.bands == 3 && grey.format == .uchar && grey.interpretation == .srgb)
        let red = try grey.extractBands(0), blue = try grey.extractBands(2)
        #expect(try red.minimum() == 0 && red.maximum() == 255)
        #expect(try PixelStats.maxAbsoluteDifference(red, blue) == 0)
        // Values beyond 0...1 clip rather than wrap.
        #expect(try ramp(span: 3, offset: -1).unitToGreyRGB().extractBands(0).minimum() == 0)
    }

    @Test func eightBitSofteningStaysCloseToTheFloatBlur() throws {
        let photo = try FilterBench.faceCrop().colourspace(.bw).extractBands(0)
        let fast = try photo.softened(sigma: 4, eightBit: true)
        let exact = try photo.softened(sigma: 4)
        #expect(fast.format == .uchar && exact.format == .float)
        // libvips' integer kernel rounds its weights: within 2 levels, a quarter level on average.
        #expect(try PixelStats.maxAbsoluteDifference(fast, exact) <= 2)
        #expect(try fast.cast(.float).subtract(exact).absolute().average() < 0.5)
    }

    @Test(arguments: [0.5, 1.0, 2.0, 3.0, 8.0, 20.0])
    func paperGrainHasZeroMeanAndUnitDeviationAtEverySize(grainSize: Double) throws {
        // Large enough to hold some ten thousand grains (blobs, for the smooth noise).
        let side = max(400, Int(100 * grainSize))
        let grain = try PortraitOperations.paperGrain(width: side, height: side * 3 / 4, grainSize: grainSize, seed: 11)
        #expect(grain.width == side && grain.height == side * 3 / 4)
        #expect(abs(try grain.average()) < 0.05)
        let deviation = try grain.deviation()
        #expect(abs(deviation - 1) < 0.2, "deviation \(deviation) at size \(grainSize)")
    }

    @Test func grainIsTheSameForASeedAndDifferentAcrossSeedsAndBeyondTheTile() throws {
        let a = try PortraitOperations.paperGrain(width: 200, height: 200, grainSize: 1, seed: 5)
        let again = try PortraitOperations.paperGrain(width: 200, height: 200, grainSize: 1, seed: 5)
        let other = try PortraitOperations.paperGrain(width: 200, height: 200, grainSize: 1, seed: 6)
        #expect(try PixelStats.maxAbsoluteDifference(a, again) == 0)
        #expect(try PixelStats.maxAbsoluteDifference(a, other) > 1)
        // Larger than the shared tile: it wraps around rather than failing or going flat.
        let wide = try PortraitOperations.paperGrain(width: NoiseTile.side + 300, height: 50, grainSize: 1, seed: 5)
        let past = try wide.crop(x: NoiseTile.side, y: 0, width: 300, height: 50)
        #expect(abs(try past.deviation() - 1) < 0.2)
    }

    /// A part of a picture, drawn with its corner's place on the canvas, gets the grain the
    /// whole has there: fine grain and smooth noise alike.
    @Test(arguments: [1.0, 12.0])
    func grainOfAPartIsTheWholesGrainThere(grainSize: Double) throws {
        let whole = try PortraitOperations.paperGrain(width: 300, height: 200, grainSize: grainSize, seed: 9)
        let part = try PortraitOperations.paperGrain(width: 100, height: 80, grainSize: grainSize, seed: 9, origin: SIMD2(150, 90))
        let there = try whole.crop(x: 150, y: 90, width: 100, height: 80)
        // Away from the part's edges, where the softening sees the same noise.
        let inside = { (image: VipsImage) in try image.crop(x: 12, y: 12, width: 76, height: 56) }
        #expect(try PixelStats.maxAbsoluteDifference(inside(part), inside(there)) < 0.01)
    }

    @Test func toneMatchLiftsTheLightsTowardsPaperAndKeepsTheDarks() throws {
        // A drawing of flat mid grey placed in photos of three lightnesses: it takes a dark
        // photo's lightness as it is, and a light one's lifted towards white (paper shows).
        let drawing = try FilterBench.flat(128, size: 64)
        for level in [40.0, 120, 200] {
            let photo = try FilterBench.flat(level, size: 64)
            let matched = try lightness(ToneMatch.apply(drawing, like: photo, reach: 8))
            let target = try lightness(photo)
            if target < 50 {
                #expect(abs(matched - target) < 1.5, "dark: \(matched) vs \(target)")
            } else if target > 75 {
                #expect(matched > target + 5 && matched < 100, "light: \(matched) vs \(target)")
            } else {
                #expect(matched >= target - 1 && matched < target + 8, "middle: \(matched) vs \(target)")
            }
        }
        // A coloured drawing (a cartoon's bands) keeps the light photo's lightness: no paper to lift.
        let coloured = try VipsImage.solid(width: 64, height: 64, pixel: [200, 160, 130]).reinterpreted(as: .srgb)
        let light = try FilterBench.flat(200, size: 64)
        let matched = try lightness(ToneMatch.apply(coloured, like: light, reach: 8)), target = try lightness(light)
        #expect(abs(matched - target) < 1.5, "coloured: \(matched) vs \(target)")
    }

    /// At an exposure (`PictureExposure`), a drawing is matched to the photo as if exposed that
    /// many times as long: as to the photo brightened so in linear light.
    @Test func toneMatchAtAnExposureMatchesTheBrighterPhoto() throws {
        let drawing = try FilterBench.flat(128, size: 64)
        let dark = try FilterBench.flat(40, size: 64)
        let table = try LinearLight.brightened(by: 3)
        let brighter = try FilterBench.flat(Double(table[40]), size: 64)
        let lifted = try lightness(ToneMatch.apply(drawing, like: dark, reach: 8, exposure: 3))
        let asBrighter = try lightness(ToneMatch.apply(drawing, like: brighter, reach: 8))
        print("matched to a dark photo at 3 x the exposure: L \(lifted); to the photo 3 x brighter: L \(asBrighter); as it is: L \(try lightness(ToneMatch.apply(drawing, like: dark, reach: 8)))")
        #expect(abs(lifted - asBrighter) < 1, "\(lifted) against \(asBrighter)")
        #expect(lifted > (try lightness(dark)) + 10)
        #expect(try PixelStats.maxAbsoluteDifference(ToneMatch.apply(drawing, like: dark, reach: 8, exposure: 1),
                                                     ToneMatch.apply(drawing, like: dark, reach: 8)) == 0)
    }

    /// With the region a drawing is laid in through, an exposure rises from none at the
    /// region's edge (where its matte is half) to all of it `regionRamp` pixels inside: an
    /// under-exposed photo's drawing meets the photo at the photo's own lightness, where it
    /// had lifted the backdrop and hair its region took in to a glow around the head.
    @Test func toneMatchAtAnExposureMeetsThePhotoAtItsRegionsEdge() throws {
        let drawing = try FilterBench.flat(128, size: 160), dark = try FilterBench.flat(40, size: 160)
        let region = try disc(), ramp = 30.0
        let lifted = try ToneMatch.apply(drawing, like: dark, reach: 8, exposure: 3)
        let asItIs = try ToneMatch.apply(drawing, like: dark, reach: 8)
        let met = try ToneMatch.apply(drawing, like: dark, reach: 8, exposure: 3, region: region, regionRamp: ramp)
        let full = try lightness(lifted, x: 80, y: 80), none = try lightness(asItIs, x: 80, y: 80)
        #expect(full > none + 10)
        // Drawn at the exposure in the middle, meeting the photo as it is at the rim.
        try expectRamp(met, from: full, to: none, margin: 2, "at 3 x the exposure")
        // At no exposure, or with no ramp, the region changes nothing.
        #expect(try PixelStats.maxAbsoluteDifference(ToneMatch.apply(drawing, like: dark, reach: 8, region: region, regionRamp: ramp),
                                                     asItIs) == 0)
        #expect(try PixelStats.maxAbsoluteDifference(ToneMatch.apply(drawing, like: dark, reach: 8, exposure: 3, region: region),
                                                     lifted) == 0)
    }

    /// A drawing that keeps its own tone (`ownTone`, a carving's one material) is as drawn inside
    /// its region from the ramp's end in, and matched to the photo at the region's edge and
    /// outside it: a pale stone face in a dark photo, that meets the photo at its lightness.
    @Test func toneMatchKeepsADrawingsOwnToneInsideItsRegion() throws {
        let drawing = try FilterBench.flat(200, size: 160), dark = try FilterBench.flat(40, size: 160)
        let region = try disc(), ramp = 30.0
        let matched = try ToneMatch.apply(drawing, like: dark, reach: 8)
        let kept = try ToneMatch.apply(drawing, like: dark, reach: 8, region: region, regionRamp: ramp, ownTone: 1)
        let own = try lightness(drawing, x: 80, y: 80), none = try lightness(matched, x: 80, y: 80)
        #expect(own > none + 30)
        // As drawn in the middle, matched to the photo at the rim.
        try expectRamp(kept, from: own, to: none, margin: 5, "its own tone kept")
        // Half of it kept: half-way in gain, inside; none kept: matched all through.
        let half = try lightness(ToneMatch.apply(drawing, like: dark, reach: 8, region: region, regionRamp: ramp, ownTone: 0.5), x: 80, y: 80)
        #expect(half > none + 5 && half < own - 5, "\(half) between \(none) and \(own)")
        #expect(try PixelStats.maxAbsoluteDifference(ToneMatch.apply(drawing, like: dark, reach: 8, region: region, regionRamp: ramp, ownTone: 0),
                                                     matched) == 0)
    }

    /// Where the match darkens a grey drawing (a dark room, dark skin), `shadowContrast` keeps
    /// its strokes legible: their contrast about the local mean is raised, not scaled down with
    /// it to a murky grey; its mean stays near the photo's. Where the match lightens, and for a
    /// coloured drawing, it changes nothing.
    @Test func toneMatchKeepsADarkenedDrawingsStrokes() throws {
        // Strokes: columns of 130 between columns of 250 (paper), as a hatching is.
        let side = 64
        let bytes = (0..<(side * side)).flatMap { i -> [UInt8] in let v: UInt8 = i % 2 == 0 ? 250 : 130; return [v, v, v] }
        let hatched = try VipsImage.fromPixels(bytes, width: side, height: side, bands: 3).reinterpreted(as: .srgb)
        func strokeContrast(_ image: VipsImage) throws -> Double {
            let grey = try image.extractBands(0).cast(.float)
            let paper = try grey.crop(x: 20, y: 20, width: 1, height: 24).average(), stroke = try grey.crop(x: 21, y: 20, width: 1, height: 24).average()
            return paper / max(stroke, 1)
        }
        let dark = try FilterBench.flat(40, size: side)
        let scaled = try ToneMatch.apply(hatched, like: dark, reach: 8)
        let kept = try ToneMatch.apply(hatched, like: dark, reach: 8, shadowContrast: 2)
        let plain = try strokeContrast(scaled), raised = try strokeContrast(kept)
        print("strokes in a dark photo: paper over stroke \(plain) scaled, \(raised) kept; lightness \(try lightness(scaled)), \(try lightness(kept)) against \(try lightness(dark))")
        #expect(abs(plain - 250.0 / 130) < 0.2, "scaled: the drawing's own ratio, \(plain)")
        #expect(raised > 1.8 * plain, "kept: \(raised) against \(plain)")
        #expect(abs(try lightness(kept) - lightness(dark)) < 8, "its mean stays near the photo's")
        // Lightened (a light photo), or coloured: the same bytes with it as without.
        let light = try FilterBench.flat(230, size: side)
        #expect(try PixelStats.maxAbsoluteDifference(ToneMatch.apply(hatched, like: light, reach: 8),
                                                     ToneMatch.apply(hatched, like: light, reach: 8, shadowContrast: 2)) <= 1)
        let coloured = try VipsImage.solid(width: side, height: side, pixel: [200, 120, 60]).reinterpreted(as: .srgb)
        #expect(try PixelStats.maxAbsoluteDifference(ToneMatch.apply(coloured, like: dark, reach: 8),
                                                     ToneMatch.apply(coloured, like: dark, reach: 8, shadowContrast: 2)) <= 1)
    }
}
