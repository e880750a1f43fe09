import Testing
import Vips
@testable import Filters

/// A drawing's edge left as strokes: full inside, nothing outside, strokes (not a fade) between.
@Suite struct StrokedEdgeTests {
    /// A horizontal fade 400 px wide: 1 up to x = 100, 0 from x = 300.
    static func fade() throws -> VipsImage {
        try VipsImage.coordinates(width: 400, height: 300).extractBands(0).linear(-1.0 / 200, 1.5)
    }

    @Test func fullInsideNothingOutside() throws {
        let mask = try StrokedEdge.mask(from: Self.fade(), strokeLength: 40, seed: 1)
        #expect(mask.width == 400 && mask.height == 300 && mask.bands == 1 && mask.format == .uchar)
        #expect(try mask.crop(x: 0, y: 0, width: 100, height: 300).minimum() == 255)
        #expect(try mask.crop(x: 300, y: 0, width: 100, height: 300).maximum() == 0)
    }

    @Test func theFadeIsStrokesNotAGradient() throws {
        let mask = try StrokedEdge.mask(from: Self.fade(), strokeLength: 40, seed: 1)
        let middle = try mask.crop(x: 170, y: 0, width: 60, height: 300)
        // A soft fade there is all in-between values; strokes are mostly drawn or not.
        let drawn = try middle.relational("moreeq", constant: [230]).average() / 255
        let bare = try middle.relational("lesseq", constant: [25]).average() / 255
        #expect(drawn > 0.15 && bare > 0.15 && drawn + bare > 0.6, "drawn \(drawn), bare \(bare)")
        // Reaching further out along strokes than a fade would: some drawn pixels past 3/4 of it.
        #expect(try mask.crop(x: 240, y: 0, width: 30, height: 300).maximum() > 200)
    }

    @Test func isDeterministicAndSeeded() throws {
        let a = try StrokedEdge.mask(from: Self.fade(), strokeLength: 40, seed: 1)
        #expect(try a.pixels() == StrokedEdge.mask(from: Self.fade(), strokeLength: 40, seed: 1).pixels())
        #expect(try a.pixels() != StrokedEdge.mask(from: Self.fade(), strokeLength: 40, seed: 2).pixels())
    }
}
