import Vips

/// Graphite laid in with strokes: a seeded texture of slanted pencil strokes
/// (`sk_pencil_texture`), in which any tone is the texture raised to some power (Lu, Xu & Jia
/// 2012). It is made as one tile that wraps around and repeated over the picture, so shading a
/// whole photo costs no more texture than shading a face, and no more memory than the tile.
struct PencilTexture {
    /// The natural log of the texture's brightness (float), `width` × `height`.
    let logBrightness: VipsImage
    /// The mean of `logBrightness` (negative).
    let meanLog: Double

    init(width: Int, height: Int, strokeLength: Double, strokeWidth: Double, angle: Double, seed: Int) throws {
        // A tile several strokes long, so its repeats are not seen.
        let side = max(512, Int((4 * strokeLength).rounded(.up)))
        let tileWidth = min(width, side), tileHeight = min(height, side)
        let tile = try PortraitOperations.pencilTexture(width: tileWidth, height: tileHeight, length: strokeLength,
                                                        strokeWidth: strokeWidth, angle: angle, seed: seed)
        let logTile = try tile.linear(1.0 / 255, 0).math("log").inMemory()
        meanLog = min(-0.01, try logTile.average())
        logBrightness = tileWidth == width && tileHeight == height
            ? logTile : try logTile.embed(x: 0, y: 0, width: width, height: height, extend: "repeat")
    }

    /// Strokes giving each area the brightness `tone` (0...1) on average: the texture raised to
    /// the power ln(tone) / mean ln(texture), so light tones are a few strokes, dark ones many.
    func shading(_ tone: VipsImage) throws -> VipsImage {
        try logBrightness.multiply(tone.math("log")).linear(1 / meanLog, 0).math("exp")
    }
}
