import CVips

/// sRGB levels in linear light, as libvips' colour conversions compute them.
public enum LinearLight {
    /// Each 8-bit sRGB level (0...255) multiplied by `gain` in linear light and encoded as sRGB
    /// again (clipped to white): the table libvips' `colourspace` to scRGB, `linear` and
    /// `colourspace` back to sRGB give a level, pixel by pixel, made once for all 256.
    public static func brightened(by gain: Double) throws -> [UInt8] {
        let linear = try levels()
        return (0..<256).map { level in
            var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, outOfGamut: Int32 = 0
            vips_col_scRGB2sRGB_8(Float(Double(linear[level]) * gain), 0, 0, &r, &g, &b, &outOfGamut)
            return UInt8(clamping: r)
        }
    }

    /// Counts of the grey levels (as libvips' "b-w" gives them from sRGB) of the pixels of
    /// `rgb` (packed, `width` pixels a row) in the rectangles `windows` (pooled, a pixel in two
    /// counted twice): 256 counts.
    public static func greyHistogram(of rgb: [UInt8], width: Int, windows: [(x: Range<Int>, y: Range<Int>)]) throws -> [Int] {
        let linear = try levels()
        var counts = [Int](repeating: 0, count: 256)
        for window in windows {
            for y in window.y {
                for x in window.x {
                    let at = 3 * (y * width + x)
                    var grey: Int32 = 0, outOfGamut: Int32 = 0
                    vips_col_scRGB2BW_8(linear[Int(rgb[at])], linear[Int(rgb[at + 1])], linear[Int(rgb[at + 2])], &grey, &outOfGamut)
                    counts[Int(min(max(grey, 0), 255))] += 1
                }
            }
        }
        return counts
    }

    /// Each 8-bit sRGB level in linear light (scRGB), as libvips converts it.
    public static func levels() throws -> [Float] {
        try VipsRuntime.ensureStarted()
        return (0..<256).map { level in
            var value: Float = 0, unused: Float = 0, spare: Float = 0
            vips_col_sRGB2scRGB_8(Int32(level), 0, 0, &value, &unused, &spare)
            return value
        }
    }
}
