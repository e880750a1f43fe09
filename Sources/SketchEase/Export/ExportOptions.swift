/// How finished images are written.
public struct ExportOptions: Sendable, Equatable {
    /// Keep EXIF, XMP (GPS included) and other metadata; off by default for sharing.
    public var keepMetadata: Bool
    /// zlib level 0...9: 0 is fastest and largest.
    public var compression: Int
    /// The level used unless asked otherwise. With rows stored as differences from the row
    /// above (see `PNGExporter`), level 2 writes a 12 MP photo in a little over half the time of
    /// libvips' defaults (level 6, rows as they are) and the file comes out 25-30 % smaller; higher
    /// levels buy a few percent more for much more time (level 6: another ~15 %, 3x the time).
    public static let defaultCompression = 2
    /// Replace an existing output file.
    public var overwrite: Bool

    public init(keepMetadata: Bool = false, compression: Int = ExportOptions.defaultCompression, overwrite: Bool = false) {
        self.keepMetadata = keepMetadata; self.compression = compression; self.overwrite = overwrite
    }
}
