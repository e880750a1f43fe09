import Testing
import TestSupport
import Vips
@testable import FaceDetector

@Suite struct ContrastMapTests {
    @Test func aSmoothBackdropHasNoDetail() throws {
        let backdrop = try VipsImage.gaussianNoise(width: 800, height: 600, mean: 150, sigma: 1.5, seed: 3)
        let pixels = try RGBPixels(VipsImage.bandjoin([backdrop, backdrop, backdrop]).cast(.uchar))
        #expect(ContrastMap(pixels, cell: 16).detailedRegions(minimumContrast: 0.05, margin: 0, width: 800, height: 600).isEmpty)
    }

    @Test func aPastedPhotoIsOneRegionAroundIt() throws {
        let photo = try VipsImage.load(path: TestAssets.astronaut).resize(scale: 0.25)  // 128 × 128
        let canvas = try VipsImage.solid(width: 800, height: 600, pixel: [180, 170, 160]).inserting(photo, x: 300, y: 200)
        let regions = ContrastMap(try RGBPixels(canvas), cell: 16)
            .detailedRegions(minimumContrast: 0.05, margin: 0, width: 800, height: 600)
        #expect(regions.count == 1)
        let region = try #require(regions.first)
        // The photo, one cell more all round (its edges against the wall are detail too).
        #expect(region.x <= 300 && region.y <= 200 && region.maxX >= 428 && region.maxY >= 328)
        #expect(region.x >= 300 - 32 && region.y >= 200 - 32 && region.maxX <= 428 + 32 && region.maxY <= 328 + 32)
    }

    @Test func theInsideOfAFoundFaceIsNotSearched() throws {
        let photo = try VipsImage.load(path: TestAssets.astronaut)  // 512 × 512
        let map = ContrastMap(try RGBPixels(photo), cell: 16)
        let all = map.detailedRegions(minimumContrast: 0.05, margin: 0, width: 512, height: 512)
        #expect(all == [PixelRect(x: 0, y: 0, width: 512, height: 512)])
        let face = FaceBox(x: 0, y: 0, width: 512, height: 300)
        let rest = map.detailedRegions(minimumContrast: 0.05, margin: 0, width: 512, height: 512, ignoring: [face])
        // Cells wholly inside the face go; the region starts at its last row of cells, one cell up.
        #expect(rest.allSatisfy { $0.y >= 300 - 2 * 16 })
    }
}
