import Filters
import Testing

/// Under a grey drawing's soft edge, the picture's colour where it has the head's hue fades to
/// its grey (`PortraitOperations.greyFringe`); the backdrop beside the head keeps its colour.
@Suite struct GreyFringeTests {
    static let width = 60, height = 8
    static let skin: [UInt8] = [220, 170, 140], blue: [UInt8] = [60, 90, 200]

    /// Whole over the first 20 columns, then falling from 254 to 1 across the other 40.
    static let mask: [UInt8] = {
        var row = [UInt8](repeating: 255, count: width)
        for x in 20..<width {
            let falling: Int = 254 - (x - 20) * 253 / 39
            row[x] = UInt8(max(1, falling))
        }
        return [UInt8]((0..<height).map { _ in row }.joined())
    }()

    static func picture(_ colour: (Int) -> [UInt8]) -> [UInt8] {
        (0..<height).flatMap { _ in (0..<width).flatMap(colour) }
    }

    static func fringed(_ base: [UInt8], top: [UInt8] = [128, 128, 128]) throws -> [UInt8] {
        var out = base
        let drawing = (0..<(width * height)).flatMap { _ in top }
        try PortraitOperations.greyFringe(under: drawing, through: mask, width: width, height: height, over: &out, baseWidth: width, x: 0, y: 0)
        return out
    }

    static func chroma(_ p: ArraySlice<UInt8>) -> Int {
        let v = p.map(Int.init)
        return v.max()! - v.min()!
    }

    @Test func skinUnderTheSoftEdgeTurnsGrey() throws {
        let out = try Self.fringed(Self.picture { _ in Self.skin })
        for x in 20..<Self.width {
            let m = Int(Self.mask[x]), c = Self.chroma(out[(3 * x)..<(3 * x + 3)])
            if m >= 90 { #expect(c <= 1, "column \(x), mask \(m): \(c)") }
            else { // faded in step with the mask: wholly from 0.35 of it
                let expected = 80 * (1 - Double(m) / (0.35 * 255))
                #expect(abs(Double(c) - expected) <= 2, "column \(x), mask \(m): \(c), not \(expected)")
            }
        }
        #expect(Array(out[0..<60]) == Array(Self.picture { _ in Self.skin }[0..<60]), "where the mask is whole, the drawing covers it")
    }

    @Test func theBackdropKeepsItsColour() throws {
        let base = Self.picture { x in x < 20 ? Self.skin : Self.blue }
        #expect(try Self.fringed(base) == base)
    }

    @Test func aColouredDrawingLeavesThePictureAlone() throws {
        let base = Self.picture { _ in Self.skin }
        #expect(try Self.fringed(base, top: [128, 100, 90]) == base)
    }
}
