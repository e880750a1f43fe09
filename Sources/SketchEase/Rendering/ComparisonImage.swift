import Foundation

/// Before and after, side by side: the original on the left, the result on the right.
public enum ComparisonImage {
    /// `OUT/name.png` → `OUT/name.compare.png` (`name.jpg` → `name.compare.jpg`).
    public static func path(forExport output: String) -> String {
        let suffix = (output as NSString).pathExtension
        return (output as NSString).deletingPathExtension + ".compare." + (suffix.isEmpty ? "png" : suffix)
    }

    /// The two images joined left to right with a 16-pixel white gap.
    public static func image(original: VipsImage, result: VipsImage) throws -> VipsImage {
        try original.joined(result, .horizontal, shim: 16, expand: true, background: [255, 255, 255])
    }

    /// Writes the comparison beside the export at `exportPath`, replacing an earlier one.
    public static func write(original: VipsImage, result: VipsImage, exportedTo exportPath: String, source: String?,
                             options: ExportOptions) throws {
        var options = options
        options.overwrite = true
        try ImageExporter.write(try image(original: original, result: result), to: path(forExport: exportPath),
                                source: source, options: options)
    }
}
