import Foundation
import Testing
import TestSupport
import Vips
@testable import Filters

@Suite struct ChromaKeyFilterTests {
    /// A synthetic green-screen shot: green backdrop, a skin-toned square, a grey square and a
    /// very dark green shadow (too dark to key).
    let shot: VipsImage

    init() throws {
        let green = try VipsImage.solid(width: 120, height: 120, pixel: [40, 190, 70])
        let skin = try VipsImage.solid(width: 40, height: 40, pixel: [224, 172, 140])
        let grey = try VipsImage.solid(width: 20, height: 20, pixel: [128, 128, 128])
        let shadow = try VipsImage.solid(width: 20, height: 20, pixel: [12, 40, 18])
        shot = try green.inserting(skin, x: 40, y: 40).inserting(grey, x: 5, y: 5).inserting(shadow, x: 95, y: 95)
            .reinterpreted(as: .srgb)
    }

    func pixel(_ image: VipsImage, _ x: Int, _ y: Int) throws -> [UInt8] {
        try image.crop(x: x, y: y, width: 1, height: 1).pixels()
    }

    @Test func replacesOnlyKeyedPixels() throws {
        let out = try FilterBench.render("chroma", shot, ["background": "#2040ff", "softness": "0", "spill": "0"])
        #expect(try pixel(out, 30, 100) == [0x20, 0x40, 0xff])       // green backdrop
        #expect(try pixel(out, 60, 60) == [224, 172, 140])           // skin kept
        #expect(try pixel(out, 10, 10) == [128, 128, 128])           // grey kept
        #expect(try pixel(out, 100, 100) == [12, 40, 18])            // too dark to key, kept
        // Exactly the green pixels changed: 120² minus the three squares.
        let changed = try out.cast(.float).subtract(shot.cast(.float)).absolute().bandMean()
            .relational("more", constant: [0]).average() / 255 * 120 * 120
        #expect(Int(changed.rounded()) == 120 * 120 - 40 * 40 - 20 * 20 - 20 * 20)
    }

    @Test func spillGreysKeptPixelsTingedWithTheKey() throws {
        let out = try FilterBench.render("chroma", shot, ["spill": "1", "softness": "0"])
        let shadow = try pixel(out, 100, 100)
        #expect(shadow[0] == shadow[1] && shadow[1] == shadow[2], "shadow greyed: \(shadow)")
        #expect(try pixel(out, 60, 60) == [224, 172, 140]) // skin is far from green: untouched
    }

    @Test func hueToleranceDecides() throws {
        // Keying blue leaves a green screen alone.
        let out = try FilterBench.render("chroma", shot, ["hue": "240", "softness": "0"])
        #expect(try out.pixels() == shot.pixels())
    }

    @Test func softEdgeStaysNearTheBoundary() throws {
        let out = try FilterBench.render("chroma", shot, ["background": "#000000"])
        #expect(try pixel(out, 60, 60) == [224, 172, 140])
        #expect(try pixel(out, 30, 100) == [0, 0, 0])
        let edge = try pixel(out, 40, 60) // first skin column, next to green
        #expect(edge != [224, 172, 140] && edge != [0, 0, 0])
    }

    @Test func replacesWithAPictureScaledToCover() throws {
        let folder = try TestAssets.temporaryFolder("chroma")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/backdrop.png"
        // A small, wide picture: left half red, right half yellow; it must cover 120×120.
        let red = try VipsImage.solid(width: 15, height: 10, pixel: [200, 0, 0])
        let yellow = try VipsImage.solid(width: 15, height: 10, pixel: [250, 220, 0])
        try red.embed(x: 0, y: 0, width: 30, height: 10).inserting(yellow, x: 15, y: 0).save(path: path)
        let out = try FilterBench.render("chroma", shot, ["image": path, "softness": "0"])
        #expect(out.width == 120 && out.height == 120)
        #expect(try pixel(out, 20, 110) == [200, 0, 0])
        #expect(try pixel(out, 110, 20) == [250, 220, 0])
        #expect(try pixel(out, 60, 60) == [224, 172, 140])
    }

    @Test func missingPictureIsOneClearError() throws {
        let error = #expect(throws: FilterError.self) {
            try FilterBench.render("chroma", shot, ["image": "/nonexistent/backdrop.jpg"])
        }
        #expect(error?.description.contains("/nonexistent/backdrop.jpg") == true)
    }
}

/// Picking the key from a pixel, and placing the background picture.
@Suite struct ChromaKeyPlacementTests {
    let filter = ChromaKeyFilter()

    func settings(_ values: [String: String]) throws -> FilterSettings {
        try FilterRegistry.standard.settings(for: "chroma", assignments: values)
    }

    @Test func pickTakesTheHueOfThatPixel() throws {
        let blueScreen = try VipsImage.solid(width: 60, height: 40, pixel: [30, 60, 200]).reinterpreted(as: .srgb)
        let picked = try filter.resolvingPick(settings(["pick": "10,10"]), in: blueScreen)
        #expect(abs(picked.number("hue") - ChromaKeyFilter.hue(red: 30, green: 60, blue: 200)) < 0.1)
        #expect(picked.point("pick") == nil)
        // Keyed with that hue, the blue screen is replaced entirely.
        let out = try filter.apply(to: blueScreen, settings: settings(["pick": "5,5", "background": "#ff0000", "softness": "0", "spill": "0"]),
                                   context: FilterContext(faceSize: 20))
        #expect(try out.crop(x: 30, y: 20, width: 1, height: 1).pixels() == [255, 0, 0])
        #expect(throws: FilterError.self) { try settings(["pick": "ten,10"]) }
    }

    @Test func backgroundPictureIsScaledTurnedAndMoved() throws {
        // A 40×20 picture, left half black, right half white, as the backdrop of a 100×100 area.
        let picture = try VipsImage.solid(width: 20, height: 20, pixel: [0, 0, 0]).embed(x: 0, y: 0, width: 40, height: 20, extend: "white")
        let cover = try filter.background(width: 100, height: 100, settings: settings([:]), picture: picture)
        #expect(try cover.crop(x: 10, y: 50, width: 1, height: 1).pixels() == [0, 0, 0])      // left: black
        #expect(try cover.crop(x: 90, y: 50, width: 1, height: 1).pixels() == [255, 255, 255])  // right: white
        // Moved 80 px left: white comes to the middle-left.
        let moved = try filter.background(width: 100, height: 100, settings: settings(["offset": "-80,0"]), picture: picture)
        #expect(try moved.crop(x: 40, y: 50, width: 1, height: 1).pixels() == [255, 255, 255])
        // Half the size: the background colour shows around it.
        let small = try filter.background(width: 100, height: 100, settings: settings(["scale": "0.5", "background": "#00ff00"]),
                                          picture: picture)
        #expect(try small.crop(x: 50, y: 5, width: 1, height: 1).pixels() == [0, 255, 0])
        // Turned half a turn: white on the left.
        let turned = try filter.background(width: 100, height: 100, settings: settings(["rotate": "180"]), picture: picture)
        #expect(try turned.crop(x: 10, y: 50, width: 1, height: 1).pixels() == [255, 255, 255])
    }
}
