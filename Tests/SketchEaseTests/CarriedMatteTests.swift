import Foundation
import Testing
import Vips
@testable import SketchEase

/// A matte cut on one frame and carried to the next with its face's box: placed where the box
/// is, scaled as the box is, 0 where it does not reach.
@Suite struct CarriedMatteTests {
    /// A 20 × 30 matte: a 255 block over columns 5..<15 and rows 10..<20, 0 around it.
    static func block() throws -> VipsImage {
        var bytes = [UInt8](repeating: 0, count: 20 * 30)
        for y in 10..<20 { for x in 5..<15 { bytes[y * 20 + x] = 255 } }
        return try VipsImage.fromPixels(bytes, width: 20, height: 30, bands: 1)
    }

    static func carried(cutAt corner: (Int, Int), box: FaceBox) throws -> CarriedMatte {
        let matte = try block()
        return CarriedMatte { CarriedMatte.Cut(matte: matte, x: corner.0, y: corner.1, box: box) }
    }

    @Test func onTheBoxItWasCutForItIsTheMatteWhereItWasCut() throws {
        let box = FaceBox(x: 110, y: 60, width: 12, height: 14)
        let carried = try Self.carried(cutAt: (104, 50), box: box)
        let placed = try carried.placed(for: box, over: PixelRect(x: 100, y: 40, width: 50, height: 60))
        #expect(placed.width == 50 && placed.height == 60 && placed.bands == 1)
        let expected = try Self.block().embed(x: 4, y: 10, width: 50, height: 60)
        #expect(try placed.subtract(expected).absolute().maximum() == 0)
    }

    @Test func itMovesAndScalesWithTheBox() throws {
        let cutBox = FaceBox(x: 10, y: 10, width: 10, height: 10)
        let carried = try Self.carried(cutAt: (0, 0), box: cutBox)
        // The box twice as large, its corner moved to (30, 40): the block (5..<15, 10..<20 as
        // cut, its corner 10 px left of and above the box's) lands at 2x, from the box's corner.
        let box = FaceBox(x: 30, y: 40, width: 20, height: 20)
        let placed = try carried.placed(for: box, over: PixelRect(x: 0, y: 0, width: 100, height: 120))
        let bytes = try placed.pixels()
        func at(_ x: Int, _ y: Int) -> UInt8 { bytes[y * 100 + x] }
        // The matte's corner lands at 30 - 2 x 10 = 10, 40 - 2 x 10 = 20: the block covers
        // columns 20..<40 and rows 40..<60.
        #expect(at(30, 50) == 255 && at(21, 42) == 255 && at(38, 58) == 255)
        #expect(at(17, 50) == 0 && at(42, 50) == 0 && at(30, 37) == 0 && at(30, 62) == 0)
        // Outside the scaled matte's footprint (10..<50, 20..<80): nothing.
        #expect(at(5, 50) == 0 && at(30, 90) == 0 && at(60, 30) == 0)
        // The block's edge is a ramp of one source pixel, not a jump or a blur.
        #expect(at(19, 50) < 128 && at(20, 50) >= 128)
        let ramp = (17...22).map { Int(at($0, 50)) }
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 <= $1 }, "\(ramp)")
    }

    /// What a carried matte can cover is known before it is cut, and moves and scales with the
    /// box as the matte does: a picture's faces are drawn over all of it, though their
    /// landmarks (which set their own reach) have moved since the cut.
    @Test func itsReachIsWhereItLandsCarried() throws {
        let cutBox = FaceBox(x: 10, y: 10, width: 10, height: 10)
        let matte = try Self.block()
        let carried = CarriedMatte(reaching: FaceBox(x: 0, y: 0, width: 20, height: 30), for: cutBox) {
            CarriedMatte.Cut(matte: matte, x: 0, y: 0, box: cutBox)
        }
        // The same box as the placement test above: the footprint is 10..<50, 20..<80.
        #expect(carried.reach(for: FaceBox(x: 30, y: 40, width: 20, height: 20)) == FaceBox(x: 10, y: 20, width: 40, height: 60))
        #expect(carried.reach(for: cutBox) == FaceBox(x: 0, y: 0, width: 20, height: 30))
        #expect(try Self.carried(cutAt: (0, 0), box: cutBox).reach(for: cutBox) == nil)

        // A compositor draws a face carrying it over all of that footprint.
        let compositor = FaceCompositor()
        let reach = compositor.reach(of: FaceBox(x: 30, y: 40, width: 20, height: 20), carrying: carried)
        #expect(reach.x <= 10 && reach.y <= 20 && reach.maxX >= 50 && reach.maxY >= 80)
    }

    @Test func aPlacementOffTheCanvasIsEmpty() throws {
        let box = FaceBox(x: 10, y: 10, width: 10, height: 10)
        let carried = try Self.carried(cutAt: (0, 0), box: box)
        let placed = try carried.placed(for: FaceBox(x: 500, y: 500, width: 10, height: 10), over: PixelRect(x: 0, y: 0, width: 40, height: 40))
        #expect(try placed.maximum() == 0)
    }

    /// Bilinear sampling written plainly, pixel by pixel: what `CarriedMatte.placed` computes
    /// (each matte row sampled once and kept for the canvas rows that need it).
    static func plainlyPlaced(_ matte: [UInt8], width: Int, height: Int, scale: SIMD2<Double>, corner: SIMD2<Double>,
                              over outWidth: Int, _ outHeight: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: outWidth * outHeight)
        let x0 = max(0, Int((corner.x - 0.5).rounded(.up))), x1 = min(outWidth, Int((corner.x + Double(width) * scale.x - 0.5).rounded(.up)))
        let y0 = max(0, Int((corner.y - 0.5).rounded(.up))), y1 = min(outHeight, Int((corner.y + Double(height) * scale.y - 0.5).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return out }
        for y in y0..<y1 {
            let v = min(max((Double(y) + 0.5 - corner.y) / scale.y - 0.5, 0), Double(height - 1))
            let j = Int(v), fy = Float(v - Double(j)), below = min(j + 1, height - 1)
            for x in x0..<x1 {
                let u = min(max((Double(x) + 0.5 - corner.x) / scale.x - 0.5, 0), Double(width - 1))
                let i = Int(u), fx = Float(u - Double(i)), next = min(i + 1, width - 1)
                let upper = Float(matte[j * width + i]) * (1 - fx) + Float(matte[j * width + next]) * fx
                let lower = Float(matte[below * width + i]) * (1 - fx) + Float(matte[below * width + next]) * fx
                out[y * outWidth + x] = UInt8(upper * (1 - fy) + lower * fy + 0.5)
            }
        }
        return out
    }

    @Test func placementIsPlainBilinearSamplingToTheByte() throws {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<300 {
            let width = Int.random(in: 1...40, using: &generator), height = Int.random(in: 1...40, using: &generator)
            let matte = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Shrunk, kept and enlarged, up and down, partly off the canvas.
            let scale = SIMD2(Double.random(in: 0.3...3, using: &generator), Double.random(in: 0.3...3, using: &generator))
            let corner = SIMD2(Double.random(in: -30...40, using: &generator), Double.random(in: -30...40, using: &generator))
            let (outWidth, outHeight) = (Int.random(in: 1...70, using: &generator), Int.random(in: 1...70, using: &generator))
            let placed = try CarriedMatte.placed(matte, width: width, height: height, scale: scale, corner: corner, over: outWidth, outHeight)
            let plain = Self.plainlyPlaced(matte, width: width, height: height, scale: scale, corner: corner, over: outWidth, outHeight)
            #expect(placed == plain, "trial \(trial): \(width)×\(height) at \(corner) × \(scale) on \(outWidth)×\(outHeight)")
            if placed != plain { break }
        }
    }

    /// A matte cut where the picture ended inside the head's reach (a face at the edge of a
    /// clip's frame) goes on past that side when carried into view, as its last column, as far
    /// as the reach went past the edge; the other sides end where the matte does.
    @Test func aMatteCutAtThePicturesEdgeGoesOnAsFarAsTheHeadDid() throws {
        let box = FaceBox(x: 5, y: 10, width: 10, height: 10)
        let edge = try VipsImage.solid(width: 20, height: 30, pixel: [255])
        let open = CarriedMatte { CarriedMatte.Cut(matte: edge, x: 0, y: 0, box: box, beyond: .init(right: 15)) }
        let closed = CarriedMatte { CarriedMatte.Cut(matte: edge, x: 0, y: 0, box: box) }
        // Carried 10 pixels to the left: the matte's footprint now ends at x = 10, and the
        // head's reach 15 pixels further on, at 25.
        let moved = FaceBox(x: -5, y: 10, width: 10, height: 10), canvas = PixelRect(x: 0, y: 0, width: 40, height: 30)
        let extended = try open.placed(for: moved, over: canvas).pixels()
        let plain = try closed.placed(for: moved, over: canvas).pixels()
        #expect((0..<10).allSatisfy { plain[15 * 40 + $0] == 255 } && (10..<40).allSatisfy { plain[15 * 40 + $0] == 0 },
                "closed: the matte ends where it was cut")
        #expect((0..<25).allSatisfy { extended[15 * 40 + $0] == 255 }, "open: the head carried in from the edge is covered")
        #expect((25..<40).allSatisfy { extended[15 * 40 + $0] == 0 }, "no further than its reach went past the edge")
        // Enlarged twice, the margin is twice as wide.
        let twice = try open.placed(for: FaceBox(x: -10, y: 5, width: 20, height: 20), over: PixelRect(x: 0, y: 0, width: 80, height: 60)).pixels()
        let lastDrawn = (0..<80).last { twice[30 * 80 + $0] > 0 }
        #expect(lastDrawn == 49, "the margin scales with the box: \(lastDrawn.map(String.init) ?? "none")")
    }
}
