import Vips

/// Privacy pixelation: the face replaced by large blocks of its average colour.
///
/// Block size is a fraction of the face size, so a face gets the same number of blocks across
/// whether it is small or large in the photo.
public struct PixelateFilter: SketchFilter {
    public let id = "pixelate"
    public let name = "Pixelate"
    public let summary = "Anonymise: the face as coarse blocks of colour (block size follows the face)."
    public let parameters: [FilterParameter] = [
        FilterParameter("block", .number(range: 0.02...0.5, defaultValue: 0.1),
                        "Block size as a fraction of the face size (0.1 = about ten blocks across the face)."),
    ]

    public init() {}

    /// Block edge in pixels for a face of `faceSize` pixels.
    public static func blockSize(fraction: Double, faceSize: Double) -> Int {
        max(2, Int((fraction * faceSize).rounded()))
    }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let block = Self.blockSize(fraction: settings.number("block"), faceSize: context.faceSize)
        // Blocks laid from the canvas's corner (`origin`): padded to whole blocks (edge pixels
        // repeated), each averaged as libvips' `shrink` averages (down each column of a block,
        // then across, each rounded) and blown back up. Over the crop's bytes: as five libvips
        // operations it cost a clip's face ~8 ms, most of it setting them up.
        let rgb = try crop.colourspace(.srgb).cast(.uchar).extractBands(0, count: 3)
        let width = rgb.width, height = rgb.height
        let left = context.origin.x % block, top = context.origin.y % block
        let across = (left + width + block - 1) / block, down = (top + height + block - 1) / block
        let source = try rgb.pixels()
        var averages = [UInt8](repeating: 0, count: across * down * 3)
        var column = [Int](repeating: 0, count: across * block * 3)
        source.withUnsafeBufferPointer { p in
            for j in 0..<down {
                // Each padded column's mean over the block's rows, rounded.
                for px in 0..<(across * block) {
                    let x = min(max(px - left, 0), width - 1)
                    for b in 0..<3 {
                        var sum = 0
                        for row in (j * block)..<((j + 1) * block) {
                            sum += Int(p[(min(max(row - top, 0), height - 1) * width + x) * 3 + b])
                        }
                        column[px * 3 + b] = (sum + block / 2) / block
                    }
                }
                for i in 0..<across {
                    for b in 0..<3 {
                        var sum = 0
                        for px in (i * block)..<((i + 1) * block) { sum += column[px * 3 + b] }
                        averages[(j * across + i) * 3 + b] = UInt8((sum + block / 2) / block)
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let j = (y + top) / block
            for x in 0..<width {
                let at = (j * across + (x + left) / block) * 3, to = (y * width + x) * 3
                out[to] = averages[at]; out[to + 1] = averages[at + 1]; out[to + 2] = averages[at + 2]
            }
        }
        return try VipsImage.fromPixels(out, width: width, height: height, bands: 3)
    }
}
