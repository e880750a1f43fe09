/// How finished images are written.
public struct ExportOptions: Sendable, Equatable {
    /// Keep EXIF, XMP (GPS included) and other metadata; off by default for sharing.
    public var keepMetadata: Bool
    /// zlib level 0...9: 0 is fastest and largest.
    public var compression: Int
    /// Replace an existing output file.
    public var overwrite: Bool

    public init(keepMetadata: Bool = false, compression: Int = 6, overwrite: Bool = false) {
        self.keepMetadata = keepMetadata; self.compression = compression; self.overwrite = overwrite
    }
}
