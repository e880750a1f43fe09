import ArgumentParser
import SketchEase

/// `--format`, `--quality`, `--compression`: how every image a command writes is encoded.
struct ExportFlags: ParsableArguments {
    @Option(help: ArgumentHelp(
        "File format of the results: png (lossless, the default), jpeg or webp (small, for sharing).",
        valueName: "png|jpeg|webp"),
        completion: .list(ImageFormat.allCases.map(\.rawValue)))
    var format: String = ImageFormat.png.rawValue

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "JPEG and WebP quality, 1 (smallest) to 100 (best).",
        discussion: "At the default 90 a 12 MP sketch is about a sixth of its PNG's size and looks the same."))
    var quality: Int = ExportOptions.defaultQuality

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "PNG compression level, 0 (fastest, largest) to 9 (smallest, slowest).",
        discussion: """
            Rows are stored as differences from the row above, which makes photos about a third \
            smaller at the same level and speed. Level 6 gives files ~15 % smaller than the \
            default at about three times the writing time.
            """))
    var compression: Int = ExportOptions.defaultCompression

    func validate() throws {
        guard ImageFormat(name: format) != nil else {
            throw ValidationError("--format must be png, jpeg or webp (got '\(format)')")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1...100 (got \(quality))") }
        guard (0...9).contains(compression) else { throw ValidationError("--compression must be 0...9 (got \(compression))") }
    }

    /// Export options with these flags (and the rest as given).
    func options(keepMetadata: Bool = false, overwrite: Bool = false) -> ExportOptions {
        ExportOptions(keepMetadata: keepMetadata, compression: compression, overwrite: overwrite,
                      format: ImageFormat(name: format) ?? .png, quality: quality)
    }
}
