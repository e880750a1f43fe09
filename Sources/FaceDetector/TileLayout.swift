/// Where the tiles of one search level go: tiles of one size (so one network serves them
/// all), overlapping by at least `overlap` so that every face up to that size lies whole
/// inside some tile, covering only the regions that hold detail.
struct TileLayout {
    let tileWidth: Int
    let tileHeight: Int
    let tiles: [PixelRect]

    /// The tiles of `tileWidth` × `tileHeight` (or the image's side, where smaller) covering
    /// `regions` of a `width` × `height` image.
    init(covering regions: [PixelRect], width: Int, height: Int, tileWidth: Int, tileHeight: Int, overlap: Int) {
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        let tw = min(tileWidth, width), th = min(tileHeight, height)
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

    /// What running the network on every tile costs, in pixels it reads (each tile padded to
    /// a multiple of 32) plus `perTile` for each tile's fixed costs.
    func cost(perTile: Int) -> Int {
        tiles.reduce(0) { $0 + Self.padded($1.width) * Self.padded($1.height) + perTile }
    }

    /// The cheapest layout with tiles of at most `maxArea` pixels (sides multiples of 32, from
    /// `minSide`): tiles cut to the image or to its detailed regions waste less than one size
    /// for all, and larger tiles overlap less. A size that cannot also hold `alsoHolding` (the
    /// coarse copy, which then needs a network of its own) costs `otherwise` more.
    static func cheapest(covering regions: [PixelRect], width: Int, height: Int, overlap: Int,
                         maxArea: Int, minSide: Int, perTile: Int,
                         alsoHolding other: (width: Int, height: Int)? = nil, otherwise: Int = 0) -> TileLayout {
        var best: (layout: TileLayout, cost: Int)?
        let sides = stride(from: minSide, through: maxArea / minSide, by: 32)
        for tw in sides where tw <= padded(width) {
            for th in sides where th <= padded(height) && tw * th <= maxArea {
                let layout = TileLayout(covering: regions, width: width, height: height, tileWidth: tw, tileHeight: th, overlap: overlap)
                let holds = other.map { tw >= $0.width && th >= $0.height } ?? true
                let cost = layout.cost(perTile: perTile) + (holds ? 0 : otherwise)
                if best == nil || cost < best!.cost { best = (layout, cost) }
            }
        }
        return best?.layout ?? TileLayout(covering: regions, width: width, height: height,
                                          tileWidth: minSide, tileHeight: minSide, overlap: overlap)
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
