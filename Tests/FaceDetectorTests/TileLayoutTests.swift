import Testing
import TestSupport
@testable import FaceDetector

@Suite struct TileLayoutTests {
    /// Every square up to `overlap` on a side inside a region lies whole inside some tile.
    @Test(arguments: [(640, 640), (576, 672), (800, 480), (256, 256)])
    func everyFaceUpToTheOverlapFitsInATile(tile: (Int, Int)) {
        var random = SplitMix(seed: 7)
        let width = 3000, height = 2000, overlap = 64
        for _ in 0..<20 {
            let x = Int(random.next() % 2500), y = Int(random.next() % 1500)
            let region = PixelRect(x: x, y: y, width: min(width - x, 40 + Int(random.next() % 2000)),
                                   height: min(height - y, 40 + Int(random.next() % 1500)))
            let layout = TileLayout(covering: [region], width: width, height: height,
                                    tileWidth: tile.0, tileHeight: tile.1, overlap: overlap)
            for t in layout.tiles {
                #expect(t.x >= 0 && t.y >= 0 && t.maxX <= width && t.maxY <= height)
                #expect(t.width == min(tile.0, width) && t.height == min(tile.1, height))
            }
            for fy in stride(from: region.y, through: region.maxY - overlap, by: 7) {
                for fx in stride(from: region.x, through: region.maxX - overlap, by: 7) {
                    let face = PixelRect(x: fx, y: fy, width: overlap, height: overlap)
                    #expect(layout.tiles.contains { $0.x <= face.x && $0.y <= face.y && $0.maxX >= face.maxX && $0.maxY >= face.maxY },
                            "face \(face) of region \(region) in no tile")
                }
            }
        }
    }

    @Test func aSmallRegionGetsOneTileCentredOnIt() {
        let layout = TileLayout(covering: [PixelRect(x: 1000, y: 900, width: 200, height: 100)], width: 3000, height: 2000,
                                tileWidth: 640, tileHeight: 640, overlap: 64)
        #expect(layout.tiles == [PixelRect(x: 780, y: 630, width: 640, height: 640)])
    }

    @Test func theCheapestSizeFitsTheRegions() {
        // Three separate 544 px regions: one 576-wide tile each beats 640 × 640 or smaller tiles.
        let regions = [0, 700, 1400].map { PixelRect(x: $0, y: 50, width: 544, height: 544) }
        let layout = TileLayout.cheapest(covering: regions, width: 2000, height: 1500, overlap: 64,
                                         maxArea: 640 * 640, minSide: 256, perTile: 16_384)
        #expect(layout.tiles.count == 3)
        #expect(layout.tileWidth >= 544 && layout.tileHeight >= 544 && layout.tileWidth * layout.tileHeight <= 640 * 640)
    }

    @Test func noRegionsNoTiles() {
        #expect(TileLayout(covering: [], width: 3000, height: 2000, tileWidth: 640, tileHeight: 640, overlap: 64).tiles.isEmpty)
    }
}
