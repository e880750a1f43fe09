import Testing
import Vips
@testable import Filters

@Suite struct GraphiteFilterTests {
    func render(_ crop: VipsImage, _ values: [String: String] = [:], seed: Int = 7) throws -> VipsImage {
        try FilterBench.render("graphite", crop, values, faceSize: 180, seed: seed)
    }

    @Test func drawsDarkStrokesOnLightPaper() throws {
        let out = try render(FilterBench.faceCrop())
        let crop = try FilterBench.faceCrop()
        #expect(out.width == crop.width && out.height == crop.height && out.bands == 3)
        // Mostly paper and light shading, with real strokes: a drawing, not a grey photo.
        let dark = try FilterBench.fractionBelow(90, in: out)
        #expect(dark > 0.005 && dark < 0.35, "dark fraction \(dark)")
        #expect(try FilterBench.fractionBelow(200, in: out) < 0.9)
    }

    @Test func strokesDarkenWithTheDarknessSetting() throws {
        let crop = try FilterBench.faceCrop()
        let light = try FilterBench.meanLevel(render(crop, ["darkness": "0.3"]))
        let dark = try FilterBench.meanLevel(render(crop, ["darkness": "2.5"]))
        #expect(dark < light - 3, "light strokes \(light), dark strokes \(dark)")
    }

    @Test func flatToneCarriesPencilTexture() throws {
        // A flat area has no strokes but is shaded with the pencil texture, not a flat grey.
        let out = try render(FilterBench.flat(110, size: 160))
        #expect(try out.extractBands(0).deviation() > 3)
    }

    @Test func isDeterministicAndSeeded() throws {
        let crop = try FilterBench.faceCrop()
        #expect(try render(crop).pixels() == render(crop).pixels())
        #expect(try render(crop, seed: 1).pixels() != render(crop, seed: 2).pixels())
    }

    @Test func toneTableIsMonotoneAndMostlyPaper() {
        // A photo with every grey level equally often: the table keeps the order of tones and
        // sends about half the pixels to bright paper, as in real pencil drawings.
        let table = PencilTone().lookupTable(for: [Int](repeating: 100, count: 256))
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 <= $1 })
        let bright = table.filter { $0 >= 225 }.count
        #expect(bright > 100 && bright < 160, "levels mapped to paper: \(bright)")
        #expect(table[0] < 110, "the darkest level stays dark: \(table[0])")
    }

    @Test func aLightWallDoesNotPushTheFaceIntoTheDarks() throws {
        // The face with a wide white wall around it: matched over the whole crop, the face
        // would hold most of the crop's dark levels and be drawn as dense strokes.
        let crop = try FilterBench.faceCrop().embed(x: 300, y: 300, width: 880, height: 940, extend: "white")
        let face = FaceRegion(x: 375, y: 395, width: 130, height: 160)
        let registry = FilterRegistry.standard
        let settings = try registry.settings(for: "graphite", assignments: [:])
        let mean = { (faces: [FaceRegion]) in
            try GraphiteFilter().apply(to: crop, settings: settings, context: FilterContext(faceSize: 150, seed: 3, faces: faces))
                .crop(x: 375, y: 395, width: 130, height: 160).extractBands(0).average()
        }
        let own = try mean([face]), wholeCrop = try mean([])
        print("graphite face mean: tones of the face \(own), of the whole crop \(wholeCrop)")
        #expect(own > wholeCrop + 15, "face tones matched on the face \(own), on the whole crop \(wholeCrop)")
    }
}
