/// How finished images are written.
public struct ExportOptions: Sendable, Equatable {
    /// Keep EXIF, XMP (GPS included) and other metadata; off by default for sharing.
    public var keepMetadata: Bool
    /// PNG: zlib level 0...9: 0 is fastest and largest.
    public var compression: Int
    /// The level used unless asked otherwise. With rows stored as differences from the row
    /// above (see `ImageExporter`), level 2 writes a 12 MP photo in a little over half the time of
    /// libvips' defaults (level 6, rows as they are) and the file comes out 25-30 % smaller; higher
    /// levels buy a few percent more for much more time (level 6: another ~15 %, 3x the time).
    public static let defaultCompression = 2
    /// Replace an existing output file (only ever one SketchEase wrote: see `OutputPolicy`).
    public var overwrite: Bool
    /// The destination is a file the person named themselves (`gallery --out sheet.png`), not a
    /// name SketchEase made up from a photo's: SketchEase's own earlier file there is replaced
    /// without `overwrite`; a file of anyone else's is never replaced (see `OutputPolicy`).
    public var namedDestination: Bool
    /// The file format: PNG (lossless) unless asked otherwise.
    public var format: ImageFormat
    /// JPEG and WebP quality, 1...100.
    public var quality: Int
    /// Visually transparent for photos at about a sixth of a PNG's size.
    public static let defaultQuality = 90

    public init(keepMetadata: Bool = false, compression: Int = ExportOptions.defaultCompression, overwrite: Bool = false,
                namedDestination: Bool = false, format: ImageFormat = .png, quality: Int = ExportOptions.defaultQuality) {
        self.keepMetadata = keepMetadata; self.compression = compression; self.overwrite = overwrite
        self.namedDestination = namedDestination; self.format = format; self.quality = quality
    }
}

/// The formats SketchEase writes.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable, Codable {
    case png, jpeg, webp

    /// The file name suffix, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// "png", "jpeg"/"jpg", "webp", in any case.
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }
}
