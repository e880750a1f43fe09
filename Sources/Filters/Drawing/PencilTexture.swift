import Foundation
import Synchronization
import Vips

/// Graphite laid in with strokes: a seeded texture of slanted pencil strokes
/// (`sk_pencil_texture`), in which any tone is the texture raised to some power (Lu, Xu & Jia
/// 2012). It is made as one tile that wraps around and repeated over the canvas, so shading a
/// whole photo costs no more texture than shading a face, and no more memory than the tile.
///
/// Tiles are kept for reuse (the last few made): a face in a clip is shaded with the same tile
/// on every frame, its stroke length rounded to an eighth of an octave so that a face whose
/// size wavers by a pixel keeps its tile, and its strokes.
struct PencilTexture {
    /// The natural log of the texture's brightness (float), `width` × `height`.
    let logBrightness: VipsImage
    /// The mean of `logBrightness` (negative).
    let meanLog: Double

    /// The texture over a `width` × `height` crop whose corner lies at `origin` on the canvas.
    init(width: Int, height: Int, strokeLength: Double, strokeWidth: Double, angle: Double, seed: Int,
         origin: SIMD2<Int> = .zero) throws {
        let tile = try Self.tile(length: Self.rounded(strokeLength), width: Self.rounded(strokeWidth), angle: angle, seed: seed)
        meanLog = tile.meanLog
        let x = origin.x % tile.side, y = origin.y % tile.side
        logBrightness = x == 0 && y == 0 && width == tile.side && height == tile.side
            ? tile.logBrightness : try tile.logBrightness.embed(x: -x, y: -y, width: width, height: height, extend: "repeat")
    }

    /// Strokes giving each area the brightness `tone` (0...1) on average: the texture raised to
    /// the power ln(tone) / mean ln(texture), so light tones are a few strokes, dark ones many.
    func shading(_ tone: VipsImage) throws -> VipsImage {
        try logBrightness.multiply(tone.math("log")).linear(1 / meanLog, 0).math("exp")
    }

    /// A size rounded to an eighth of an octave.
    static func rounded(_ value: Double) -> Double {
        exp2((8 * log2(max(value, 0.25))).rounded() / 8)
    }

    private struct Tile {
        let key: Key, side: Int, logBrightness: VipsImage, meanLog: Double
    }
    private struct Key: Equatable {
        let length: Double, width: Double, angle: Double, seed: Int
    }
    /// The tiles made last, newest first (a 512 × 512 tile is 1 MB of floats).
    private static let recent = Mutex<[Tile]>([])
    private static let kept = 8

    private static func tile(length: Double, width: Double, angle: Double, seed: Int) throws -> Tile {
        let key = Key(length: length, width: width, angle: angle, seed: seed)
        if let found = recent.withLock({ tiles -> Tile? in
            guard let i = tiles.firstIndex(where: { $0.key == key }) else { return nil }
            let tile = tiles.remove(at: i)
            tiles.insert(tile, at: 0)
            return tile
        }) { return found }
        // A tile several strokes long, so its repeats are not seen.
        let side = max(512, Int((4 * length).rounded(.up)))
        let bytes = try PortraitOperations.pencilTexture(width: side, height: side, length: length,
                                                         strokeWidth: width, angle: angle, seed: seed)
        let logTile = try bytes.linear(1.0 / 255, 0).math("log").inMemory()
        let made = Tile(key: key, side: side, logBrightness: logTile, meanLog: min(-0.01, try logTile.average()))
        recent.withLock { tiles in
            tiles.insert(made, at: 0)
            if tiles.count > kept { tiles.removeLast() }
        }
        return made
    }
}
