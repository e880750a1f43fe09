import Foundation

/// An input photo, upright and in 8-bit sRGB: what detection and every filter see.
///
/// Loading applies the EXIF orientation (`autorot`) once, converts through an embedded ICC
/// profile (or from CMYK, greyscale, 16-bit) to 8-bit sRGB, and sets any alpha channel aside.
/// The file is never written to.
public struct Photo: Sendable {
    /// Where it came from, or nil for an in-memory photo.
    public let path: String?
    /// Upright, 3-band, 8-bit sRGB pixels.
    public let rgb: VipsImage
    /// The alpha channel, 8-bit, if the original had one.
    public let alpha: VipsImage?

    public var width: Int { rgb.width }
    public var height: Int { rgb.height }

    /// Refuses images with more pixels than this (decompression bombs); 0 = no limit.
    public static let defaultPixelLimit = 100_000_000

    /// Opens `path`. Errors name the file and say why it cannot be used.
    public static func load(path: String, pixelLimit: Int = defaultPixelLimit) throws -> Photo {
        try checkReadable(path)
        let loaded: VipsImage
        do {
            loaded = try VipsImage.load(path: path)
        } catch let error as VipsError {
            throw PhotoError(path: path, reason: classify(error))
        }
        let pixels = loaded.width * loaded.height
        if pixelLimit > 0, pixels > pixelLimit {
            throw PhotoError(path: path, reason: .tooLarge(pixels: pixels, limit: pixelLimit))
        }
        do {
            return try Photo(image: loaded, path: path)
        } catch let error as VipsError {
            throw PhotoError(path: path, reason: .corrupt(error.message))
        }
    }

    /// Wraps an image already in memory (tests, previews).
    public init(image: VipsImage, path: String? = nil) throws {
        let upright = try image.autorotated()
        var colour = upright
        if colour.hasICCProfile, colour.interpretation != "b-w" || colour.bands > 2 {
            // Embedded profile: convert through it. Failing profiles fall back to the plain path.
            colour = (try? colour.iccToSRGB()) ?? colour
        }
        if colour.interpretation != "srgb" || colour.bands < 3 {
            colour = try colour.colourspace("srgb")
        }
        if colour.format != "uchar" { colour = try colour.cast("uchar") }
        self.path = path
        self.rgb = colour.bands > 3 ? try colour.extractBands(0, count: 3) : colour
        self.alpha = colour.bands > 3 ? try colour.extractBands(3) : nil
    }

    /// A reduced copy for detection, longest side at most `maxSide`, and the size it reduces from.
    ///
    /// From a file this uses shrink-on-load (JPEG decodes at 1/2, 1/4 or 1/8 size), far cheaper
    /// than decoding everything; it is upright like `rgb`.
    public func detectionCopy(maxSide: Int) throws -> VipsImage {
        if let path, max(width, height) > maxSide, let thumb = try? VipsImage.thumbnail(path: path, maxSide: maxSide),
           abs(Double(thumb.width) / Double(thumb.height) - Double(width) / Double(height)) < 0.02 {
            return thumb
        }
        return rgb
    }

    private static func checkReadable(_ path: String) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PhotoError(path: path, reason: .notFound)
        }
        if isDirectory.boolValue { throw PhotoError(path: path, reason: .notAnImage("a folder")) }
        guard fm.isReadableFile(atPath: path) else { throw PhotoError(path: path, reason: .notReadable) }
        if let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue == 0 {
            throw PhotoError(path: path, reason: .empty)
        }
    }

    private static func classify(_ error: VipsError) -> PhotoError.Reason {
        let text = error.message
        if text.contains("is not a known file format") || text.contains("not a known") {
            return .notAnImage("unrecognised format")
        }
        return .corrupt(text)
    }
}
