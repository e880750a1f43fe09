import Synchronization
import Vips

/// One tile of seeded white gaussian noise, made once per process and shared by every face.
///
/// Generating noise is the dearest step of a grain texture (libvips sums twelve random numbers
/// per pixel): a 600×700 face crop spent a quarter of its pencil time on it. Faces take their
/// noise from this tile instead, each from its own seeded offset, wrapping around at the edges
/// (1024 pixels apart, far beyond where a grain a few pixels fine could be seen to repeat).
///
/// The tile is 8-bit, 128 + 30 × noise (±4.2 deviations before clipping, levels rounded): 1 MB
/// for the life of the process.
enum NoiseTile {
    static let side = 1024
    /// Levels per unit deviation in the tile.
    static let levelsPerDeviation = 30.0
    static let midLevel = 128.0

    private static let tile = Mutex<VipsImage?>(nil)
    private static let tileBytes = Mutex<[UInt8]?>(nil)

    /// The shared tile, made on first use.
    static func shared() throws -> VipsImage {
        try tile.withLock { cached in
            if let cached { return cached }
            // Half a level up, as the cast to 8 bits truncates: the levels are rounded, mean 128.
            let noise = try VipsImage.gaussianNoise(width: side, height: side, mean: midLevel + 0.5,
                                                    sigma: levelsPerDeviation, seed: 0x5ce7)
            let made = try noise.cast(.uchar).inMemory()
            cached = made
            return made
        }
    }

    /// The shared tile's pixels (row-major, `side` × `side`), for drawings made in one pass
    /// in C (`sk_pencil`), which take their window of it themselves.
    static func bytes() throws -> [UInt8] {
        if let made = tileBytes.withLock({ $0 }) { return made }
        let made = try shared().pixels()
        tileBytes.withLock { $0 = made }
        return made
    }

    /// Where `seed` puts a face's window in the tile .
    static func offset(seed: Int) -> (x: Int, y: Int) {
        let mixed = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15
        return (Int(mixed >> 40) % side, Int((mixed >> 16) & 0xFF_FFFF) % side)
    }
}
