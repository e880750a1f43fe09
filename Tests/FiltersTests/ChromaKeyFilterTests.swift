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
            .reinterpreted(as: "srgb")
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
        let changed = try out.cast("float").subtract(shot.cast("float")).absolute().bandMean()
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
