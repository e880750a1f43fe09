import Testing
import TestSupport
import Vips
@testable import Filters

/// Pencil, graphite and charcoal keep a face's small forms (`SmallForms`): irises, nostrils,
/// the line between the lips and glasses' rims keep their darks, the whites of the eyes and
/// teeth their lights, against the same drawing without them; broad areas are left as they were.
@Suite struct SmallFormsTests {
    @Test(arguments: ["pencil", "graphite", "charcoal"])
    func smallFormsKeepTheirDarksAndLights(style: String) throws {
        let crop = try FilterBench.faceCrop()
        // Where Grace Hopper's photo is darker or lighter than its surroundings at the scale
        // of an eye (3 % of the 200 px face: 6 px), and where it is flat.
        let grey = try crop.colourspace(.bw).extractBands(0).cast(.float)
        let around = try grey.gaussianBlur(sigma: 6, minAmplitude: 0.05)
        let darker = try around.subtract(grey), lighter = try grey.subtract(around)
        func drawn(_ values: [String: String]) throws -> VipsImage {
            try FilterBench.render(style, crop, values, faceSize: 200, seed: 0).extractBands(0).cast(.float)
        }
        let detailed = try drawn([:]), plain = try drawn(["detail": "0"])
        func mean(_ image: VipsImage, where mask: VipsImage) throws -> Double {
            let share = try mask.cast(.float).linear(1.0 / 255, 0)
            return try image.multiply(share).average() / share.average()
        }
        let darkSpots = try darker.relational("more", constant: [20])
        let lightSpots = try lighter.relational("more", constant: [20])
        let flat = try darker.absolute().relational("less", constant: [3])
        let darkDrop = try mean(plain, where: darkSpots) - mean(detailed, where: darkSpots)
        let lightRise = try mean(detailed, where: lightSpots) - mean(plain, where: lightSpots)
        let flatChange = try abs(mean(detailed, where: flat) - mean(plain, where: flat))
        print("\(style) small forms: darks \(darkDrop), lights \(lightRise), flat \(flatChange) levels")
        // Measured: pencil 59 and 25 levels, graphite 110 and 28, charcoal 3.6 and 36 (its small
        // darks are black already).
        #expect(darkDrop + lightRise > 35, "the small forms' contrast: \(darkDrop + lightRise) levels more")
        #expect(darkDrop >= 0, "the small darks: \(darkDrop) levels darker")
        #expect(lightRise > 10, "the small lights: \(lightRise) levels lighter")
        #expect(flatChange < 3, "broad areas: \(flatChange) levels")
    }

    /// On a small face the darks are kept about the eyes, nose and mouth, placed from its
    /// landmarks, and only `SmallForms.smallFaceAway` of them elsewhere; the lights everywhere: the
    /// same dark spot drawn on an eye and on a cheek (a mole, an age spot) is darkened as much
    /// on both on a face drawn at its own size, and far less on the cheek of a face enlarged 3x
    /// to be drawn ("dirty blotches" on an old man's small face, docs/look-panel.md), while a
    /// light spot on the other cheek keeps its light.
    @Test func aSmallFaceKeepsItsDarkSpotsAtItsFeatures() throws {
        let eye = (x: 42, y: 52), cheek = (x: 117, y: 92), otherCheek = (x: 20, y: 92), side = 6
        var skin = try FilterBench.flat(190, size: 144)
        let spot = try FilterBench.flat(110, size: side), light = try FilterBench.flat(250, size: side)
        skin = try skin.inserting(spot, x: eye.x, y: eye.y).inserting(spot, x: cheek.x, y: cheek.y)
            .inserting(light, x: otherCheek.x, y: otherCheek.y)
        let face = FaceRegion(x: 20, y: 20, width: 104, height: 120,
                              landmarks: [SIMD2(45, 55), SIMD2(99, 55), SIMD2(72, 85), SIMD2(52, 110), SIMD2(92, 110)])
        let pencil = PencilFilter()
        func darkening(photoPixel: Double) throws -> (eye: Double, cheek: Double, light: Double) {
            func drawn(_ detail: String) throws -> VipsImage {
                let settings = try FilterRegistry.standard.settings(for: "pencil", assignments: ["grain": "0", "detail": detail])
                let context = FilterContext(faceSize: 144, seed: 3, faces: [face], photoPixel: photoPixel)
                return try pencil.apply(to: skin, settings: settings, context: context).extractBands(0)
            }
            let with = try drawn("0.6"), without = try drawn("0")
            func drop(_ at: (x: Int, y: Int)) throws -> Double {
                try without.crop(x: at.x, y: at.y, width: side, height: side).average()
                    - with.crop(x: at.x, y: at.y, width: side, height: side).average()
            }
            return (try drop(eye), try drop(cheek), -(try drop(otherCheek)))
        }
        let own = try darkening(photoPixel: 1), enlarged = try darkening(photoPixel: 3)
        print("a spot darkened on the eye and the cheek: at its own size \(own), enlarged 3x \(enlarged) levels")
        #expect(own.eye > 20 && own.cheek > 20, "a face drawn at its own size keeps every spot: \(own)")
        #expect(abs(own.eye - own.cheek) < 0.3 * max(own.eye, own.cheek), "alike on the eye and the cheek: \(own)")
        #expect(enlarged.eye > 20, "a small face's eye keeps its dark: \(enlarged.eye)")
        #expect(enlarged.cheek < 0.5 * enlarged.eye, "and its cheek's spot far less of it: \(enlarged)")
        #expect(enlarged.light > 10, "a light spot on a small face's cheek keeps its light: \(enlarged.light) levels")
    }

    /// Without it (`detail` 0) the drawing is the one made before it existed: nothing is
    /// computed for it.
    @Test func noneIsNothing() {
        let plan = SmallForms.plan(face: 200, pixel: 1, greySigma: 0.6, amount: 0)
        #expect(plan.dark == 0 && plan.light == 0)
        let small = SmallForms.plan(face: 30, pixel: 3, greySigma: 1.05, amount: 1)
        #expect(small.sigma == 4.5, "never finer than 1.5 photo pixels: \(small.sigma)")
    }
}
