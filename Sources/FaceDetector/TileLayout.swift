/// Where the tiles of one search level go: square tiles of one size (so one network serves
/// them all), overlapping by at least `overlap` so that every face up to that size lies whole
/// inside some tile, covering only the regions that hold detail.
struct TileLayout {
    let tileSize: Int
    let tiles: [PixelRect]

    /// The tiles of side `tileSize` (or the image's side, where smaller) covering `regions`
    /// of a `width` × `height` image.
    init(covering regions: [PixelRect], width: Int, height: Int, tileSize: Int, overlap: Int) {
        self.tileSize = tileSize
        let tw = min(tileSize, width), th = min(tileSize, height)
        var placed = Set<PixelRect>()
        var ordered: [PixelRect] = []
        for region in regions {
            for y in Self.starts(from: region.y, to: region.maxY, length: height, tile: th, overlap: overlap) {
                for x in Self.starts(from: region.x, to: region.maxX, length: width, tile: tw, overlap: overlap) {
                    let tile = PixelRect(x: x, y: y, width: tw, height: th)
                    if placed.insert(tile).inserted { ordered.append(tile) }
                }
            }
        }
        tiles = ordered.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// Pixels the network reads for all tiles (each padded to a multiple of 32).
    var cost: Int { tiles.reduce(0) { $0 + Self.padded($1.width) * Self.padded($1.height) } }

    /// The cheapest layout among tile sizes `sizes` (largest first on a tie): small tiles
    /// waste less around small detailed regions, large ones overlap less.
    static func cheapest(covering regions: [PixelRect], width: Int, height: Int, sizes: [Int], overlap: Int) -> TileLayout {
        sizes.map { TileLayout(covering: regions, width: width, height: height, tileSize: $0, overlap: overlap) }
            .min { $0.cost < $1.cost || ($0.cost == $1.cost && $0.tileSize > $1.tileSize) }!
    }

    static func padded(_ n: Int) -> Int { (n + 31) / 32 * 32 }

    /// Tile origins along one axis covering [from, to) of a line `length` long with tiles of
    /// `tile`, neighbours overlapping by at least `overlap`, every tile inside the line.
    static func starts(from: Int, to: Int, length: Int, tile: Int, overlap: Int) -> [Int] {
        guard tile < length else { return [0] }
        let span = to - from
        if span <= tile {
            let centred = (from + to) / 2 - tile / 2
            return [min(max(0, centred), length - tile)]
        }
        let count = (span - overlap + (tile - overlap) - 1) / (tile - overlap)
        return (0..<count).map { i in
            let start = from + Int((Double(i) * Double(span - tile) / Double(count - 1)).rounded())
            return min(max(0, start), length - tile)
        }
    }
}
