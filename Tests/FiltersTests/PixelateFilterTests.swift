import Testing
import Vips
@testable import Filters

@Suite struct PixelateFilterTests {
    /// Width of the uniform blocks along the middle row: the distance between colour changes.
    func blockWidths(_ image: VipsImage) throws -> Set<Int> {
        let row = try image.crop(x: 0, y: image.height / 2, width: image.width, height: 1).pixels()
        var widths: [Int] = [], run = 1
        for x in 1..<image.width {
            let same = (0..<3).allSatisfy { row[x * 3 + $0] == row[(x - 1) * 3 + $0] }
            if same { run += 1 } else { widths.append(run); run = 1 }
        }
        return Set(widths)
    }

    @Test func blocksScaleWithTheFaceSize() throws {
        let crop = try FilterBench.faceCrop()
        let small = try blockWidths(FilterBench.render("pixelate", crop, faceSize: 100))
        let large = try blockWidths(FilterBench.render("pixelate", crop, faceSize: 200))
        #expect(small == [10], "face 100 px, block 0.1: \(small)")
        #expect(large == [20], "face 200 px, block 0.1: \(large)")
        #expect(PixelateFilter.blockSize(fraction: 0.1, faceSize: 12) == 2)
    }

    @Test func eachBlockIsOneAverageColour() throws {
        let crop = try FilterBench.faceCrop()
        let out = try FilterBench.render("pixelate", crop, faceSize: 200)
        let block = try out.crop(x: 100, y: 100, width: 20, height: 20)
        let source = try crop.crop(x: 100, y: 100, width: 20, height: 20)
        for band in 0..<3 {
            #expect(try block.extractBands(band).maximum() == block.extractBands(band).minimum())
            #expect(abs(try block.extractBands(band).average() - source.extractBands(band).average()) < 1)
        }
        #expect(out.width == crop.width && out.height == crop.height && out.format == .uchar)
    }
}
