import Foundation
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
        #expect(out.bands == 3 && out.format == .uchar && out.interpretation == .srgb)
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

    @Test func tonesKeepTheirOrderAndShadingCanBeLeftOut() throws {
        // Darker photo tones are hatched darker; the lights are paper.
        let nearBlack = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(12)))
        let mid = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(110)))
        let light = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(230)))
        #expect(nearBlack < mid - 20 && mid < light - 20, "\(nearBlack) \(mid) \(light)")
        #expect(light > 235, "the lights are paper: \(light)")
        // Without shading only the outlines are drawn: a flat black is white paper.
        let unshaded = try FilterBench.meanLevel(FilterBench.render("pencil", FilterBench.flat(12), ["shading": "0"]))
        #expect(unshaded > 200, "\(unshaded)")
    }

    @Test func darksAreHatchingWithPaperBetweenNotASmear() throws {
        // The darkest tone is still strokes with paper showing between them.
        let black = try FilterBench.render("pencil", FilterBench.flat(40, size: 160), ["grain": "0"]).extractBands(0)
        let mean = try black.average(), inked = try FilterBench.fractionBelow(170, in: black)
        let solid = try FilterBench.fractionBelow(40, in: black)
        print("pencil on black: mean \(mean), below 170 \(inked), below 40 \(solid)")
        #expect(mean > 60, "lifted to a hatching: \(mean)")
        #expect(inked < 0.95, "light between the strokes: \(inked)")
        #expect(solid < 0.3, "not a solid smear: \(solid)")
        #expect(try black.deviation() > 20)
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
        // The lights are paper, untouched.
        let light = try FilterBench.render("pencil", FilterBench.flat(200, size: 160), ["grain": "0"]).extractBands(0)
        #expect(try light.deviation() < 1)
    }

    @Test func aSmallFaceGetsBoldStrokesNotABlur() throws {
        // A face a third of the size, drawn as the compositor draws it: on a copy enlarged 3x,
        // told that a photo pixel is 3 of its pixels, then reduced back.
        let small = try crop.resize(scale: 1.0 / 3)
        let copy = try small.resize(scale: 3)
        let settings = try FilterRegistry.standard.settings(for: "pencil", assignments: [:])
        let drawn = try pencil.apply(to: copy, settings: settings, context: FilterContext(faceSize: 200, seed: 7, photoPixel: 3))
        let out = try drawn.resize(scale: Double(small.width) / Double(copy.width)).extractBands(0)
        // Strokes that survive the reduction: dark lines on light paper, not one grey.
        let dark = try FilterBench.fractionBelow(110, in: out), inked = try FilterBench.fractionBelow(225, in: out)
        let contrast = try out.deviation()
        #expect(dark > 0.03, "dark strokes: \(dark)")
        #expect(inked < 0.9, "paper: \(inked)")
        #expect(contrast > 35, "contrast \(contrast)")
    }

    /// A small face's light skin is hatched on paper, not a smooth grey: drawn as the compositor
    /// draws a 40 px face (on a copy enlarged 3x, reduced back) and its lightness matched to the
    /// photo's, a flat skin tone lighter than `paperLevel` comes out as strokes with paper
    /// between them (a deviation of 4-6 levels). It was paper, greyed by the tone match to one
    /// flat grey: "a grey photo face", a deviation of 0.
    @Test func aSmallFacesLightSkinIsHatchedNotAGreyWash() throws {
        let settings = try FilterRegistry.standard.settings(for: "pencil", assignments: ["grain": "0"])
        for level in [190.0, 200] {
            let skin = try FilterBench.flat(level, size: 48)
            let copy = try skin.resize(scale: 3, kernel: "nearest")
            let drawn = try pencil.apply(to: copy, settings: settings, context: FilterContext(faceSize: 120, seed: 7, photoPixel: 3))
            let reduced = try drawn.resize(scale: 1.0 / 3)
            let out = try ToneMatch.apply(reduced, like: skin, reach: 0.12 * 40, paperLift: pencil.paperLift).extractBands(0)
            let deviation = try out.deviation(), mean = try out.average()
            print("a small face's skin at \(level): mean \(mean), deviation \(deviation)")
            #expect(abs(mean - level) < 25, "its lightness is the photo's: \(mean)")
            #expect(deviation > 2.5, "strokes, not a flat grey: deviation \(deviation)")
        }
    }

    /// The hatching turns with the forms: across a shadow's slope, as a hand shades a jaw or a
    /// neck, where one slant everywhere read as "a fake beard". A face's light-to-shadow ramp
    /// running down the crop turns its strokes toward the horizontal, one running across toward
    /// the vertical; a flat tone keeps the fixed slant of -55 degrees. (The stroke direction is
    /// measured from the drawing's own gradients, across the strokes; the ramp's tones are
    /// hatched in one layer, above `crossHatchBelow`.)
    @Test func theHatchingTurnsAcrossAShadowsSlope() throws {
        let size = 240
        func ramp(down: Bool) throws -> VipsImage {
            var bytes = [UInt8](repeating: 0, count: size * size * 3)
            for y in 0..<size {
                for x in 0..<size {
                    let t = Double(down ? y : x) / Double(size - 1)
                    let level = UInt8((175 - 60 * t).rounded()), at = (y * size + x) * 3
                    bytes[at] = level; bytes[at + 1] = level; bytes[at + 2] = level
                }
            }
            return try VipsImage.fromPixels(bytes, width: size, height: size, bands: 3).reinterpreted(as: .srgb)
        }
        let settings = try FilterRegistry.standard.settings(for: "pencil", assignments: ["grain": "0", "edges": "0"])
        let face = FaceRegion(x: 60, y: 40, width: 120, height: 160)
        func strokeAngle(_ crop: VipsImage) throws -> Double {
            let drawn = try pencil.apply(to: crop, settings: settings, context: FilterContext(faceSize: 160, seed: 3, faces: [face]))
            let grey = try drawn.extractBands(0).pixels().map(Double.init)
            var xx = 0.0, yy = 0.0, xy = 0.0
            for y in 40..<200 {
                for x in 40..<200 {
                    let gx = grey[y * size + x + 1] - grey[y * size + x - 1], gy = grey[(y + 1) * size + x] - grey[(y - 1) * size + x]
                    xx += gx * gx; yy += gy * gy; xy += gx * gy
                }
            }
            // Across the strokes, turned a quarter: along them, in degrees within -90...90.
            let across: Double = 0.5 * atan2(2 * xy, xx - yy) * 180 / Double.pi
            var along = across + 90
            if along > 90 { along -= 180 }
            return along
        }
        let flat = try strokeAngle(FilterBench.flat(150, size: size))
        let downward = try strokeAngle(ramp(down: true)), across = try strokeAngle(ramp(down: false))
        print("pencil's strokes: flat \(flat) degrees, shadow down the crop \(downward), across it \(across)")
        #expect(abs(flat + 55) < 8, "a flat tone keeps the fixed slant: \(flat)")
        #expect(abs(downward) < 30, "a shadow down the crop is hatched across: \(downward)")
        #expect(abs(across) > 65, "a shadow across the crop is hatched down: \(across)")
    }

    @Test func darknessParameterDarkens() throws {
        let light = try render(["darkness": "0.8"]).average()
        let dark = try render(["darkness": "3"]).average()
        #expect(dark < light - 5)
    }

    /// In a clip a face's size wavers by a pixel from frame to frame: its hatching must not be
    /// redrawn with other strokes each time (its window of the shared textures is chosen by its
    /// seed, not by its size).
    @Test func aFaceAPixelLargerKeepsItsStrokes() throws {
        let here = try render()
        let larger = try FilterBench.render("pencil", crop, faceSize: 201, seed: 0)
        let reseeded = try render(seed: 5)
        let wavered = try here.subtract(larger).absolute().average()
        let redrawn = try here.subtract(reseeded).absolute().average()
        #expect(wavered < 0.25 * redrawn, "a pixel of size changed \(wavered) levels, new strokes change \(redrawn)")
    }

    @Test func isDeterministicAndSeeded() throws {
        #expect(try render().pixels() == render().pixels())
        #expect(try render(seed: 1).pixels() != render(seed: 2).pixels())
    }

    /// Faces drawn side by side share the texture tiles they make: four threads at once ask for
    /// the same new tiles (a face size no other test draws), each tile is made by one of them
    /// while the others wait, and every drawing is the one the face gets drawn alone.
    @Test func facesDrawnSideBySideAreTheFaceDrawnAlone() throws {
        let crop = self.crop
        let drawings = Locked([[UInt8]](repeating: [], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let pixels = try? FilterBench.render("pencil", crop, faceSize: 233, seed: 3).pixels()
            drawings.withLock { $0[i] = pixels ?? [] }
        }
        let alone = try FilterBench.render("pencil", crop, faceSize: 233, seed: 3).pixels()
        #expect(!alone.isEmpty)
        for drawing in drawings.withLock({ $0 }) { #expect(drawing == alone) }
    }
}

