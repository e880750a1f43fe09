import Foundation

extension FilteredImage {
    /// Renders at full size and writes the PNG (and, with `compare`, `name.compare.png` beside it).
    /// `edit` and `apply` both export through here, so a session re-applied gives the same bytes.
    public func export(to path: String, compositor: FaceCompositor, options: ExportOptions, compare: Bool) throws {
        let image = try render(with: compositor)
        try ImageExporter.write(image, alpha: photo.alpha, to: path, source: photo.path, options: options)
        if compare {
            try ComparisonImage.write(original: photo.rgb, result: image, exportedTo: path, source: photo.path, options: options)
        }
    }
}
