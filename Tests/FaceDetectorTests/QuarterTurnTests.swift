import Testing
import TestSupport
import Vips
@testable import FaceDetector

@Suite struct QuarterTurnTests {
    /// A bright square in a dark image, turned by libvips: its box maps back to where it was.
    @Test(arguments: QuarterTurn.allCases)
    func boxesMapBackFromTheTurnedImage(turn: QuarterTurn) throws {
        let square = try VipsImage.solid(width: 30, height: 20, pixel: [255])
        let image = try VipsImage.solid(width: 200, height: 120, pixel: [0]).inserting(square, x: 40, y: 70)
        let turned = try image.rotated(turn.vipsAngle)
        let bytes = try turned.pixels()
        var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
        for y in 0..<turned.height {
            for x in 0..<turned.width where bytes[y * turned.width + x] > 128 {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x + 1); y1 = max(y1, y + 1)
            }
        }
        let found = FaceBox(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
        #expect(turn.unturn(found, width: 200, height: 120) == FaceBox(x: 40, y: 70, width: 30, height: 20))
    }
}
