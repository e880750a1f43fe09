import Foundation

/// Before and after, side by side: the original on the left, the result on the right.
public enum ComparisonImage {
    /// `OUT/name.png` → `OUT/name.compare.png`.
    public static func path(forExport pngPath: String) -> String {
        (pngPath as NSString).deletingPathExtension + ".compare.png"
    }

    /// The two images joined left to right with a 16-pixel white gap.
    public static func image(original: VipsImage, result: VipsImage) throws -> VipsImage {
        try VipsCall.image("join", ["in1": .image(original), "in2": .image(result), "direction": .nick("horizontal"),
                                    "expand": .bool(true), "shim": .int(16), "background": .doubles([255, 255, 255])])
    }

    public static func write(original: VipsImage, result: VipsImage, exportedTo pngPath: String,
                             options: ExportOptions) throws {
        var options = options
        options.overwrite = true
        try PNGExporter.write(try image(original: original, result: result), to: path(forExport: pngPath), options: options)
    }
}
