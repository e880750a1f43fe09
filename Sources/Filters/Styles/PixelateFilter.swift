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
        // repeated), each averaged and blown back up.
        let left = context.origin.x % block, top = context.origin.y % block
        let across = (left + crop.width + block - 1) / block, down = (top + crop.height + block - 1) / block
        let padded = try crop.embed(x: left, y: top, width: across * block, height: down * block, extend: "copy")
        let blocks = try padded.shrunk(by: block).zoomed(x: block, y: block)
        return try blocks.crop(x: left, y: top, width: crop.width, height: crop.height).cast(.uchar).reinterpreted(as: .srgb)
    }
}
