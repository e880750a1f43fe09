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

    /// Without it (`detail` 0) the drawing is the one made before it existed: nothing is
    /// computed for it.
    @Test func noneIsNothing() {
        let plan = SmallForms.plan(face: 200, pixel: 1, greySigma: 0.6, amount: 0)
        #expect(plan.dark == 0 && plan.light == 0)
        let small = SmallForms.plan(face: 30, pixel: 3, greySigma: 1.05, amount: 1)
        #expect(small.sigma == 4.5, "never finer than 1.5 photo pixels: \(small.sigma)")
    }
}
