import Foundation
import Synchronization

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
    /// Its exposure, once measured (`exposure()`).
    private let measuredExposure = MeasuredExposure()

    public var width: Int { rgb.width }
    public var height: Int { rgb.height }

    /// Refuses images with more pixels than this (decompression bombs); 0 = no limit.
    public static let defaultPixelLimit = 100_000_000

    /// Decoding may take at most this many bytes per pixel of the pixel limit: four 16-bit
    /// channels (CMYK or RGBA at 16 bits). A file within the pixel limit that declares many
    /// channels or 64-bit samples (a few MB of compressed TIFF can decode to gigabytes) is
    /// refused like one above it.
    public static let bytesPerPixelAllowance = 8

    /// Opens `path` and decodes it into memory. Errors name the file and say why it cannot
    /// be used; a damaged file fails here, before anything is written.
    ///
    /// The decode streams top to bottom into one buffer (the only full-size copy held); the
    /// upright, sRGB view over it stays lazy, so crops cost only what they cover.
    public static func load(path: String, pixelLimit: Int = defaultPixelLimit) throws -> Photo {
        try inspect(path: path, pixelLimit: pixelLimit)
        do {
            let decoded = try FileErrors.attributed { try VipsImage.load(path: path, sequential: true).inMemory() }
            return try Photo(image: decoded, path: path)
        } catch let error as VipsError {
            throw PhotoError(path: path, reason: VideoContainer.at(path) != nil ? classify(error, path: path) : .corrupt(error.message))
        }
    }

    /// Checks that `path` is a readable image within the pixel limit, from its header alone
    /// (nothing is decoded), and returns its upright size. Run it before anything that decodes.
    @discardableResult
    public static func inspect(path: String, pixelLimit: Int = defaultPixelLimit) throws -> (width: Int, height: Int) {
        try checkReadable(path)
        let header: VipsImage
        do {
            header = try FileErrors.attributed { try VipsImage.load(path: path) }
        } catch let error as VipsError {
            throw PhotoError(path: path, reason: classify(error, path: path))
        }
        let pixels = header.width * header.height
        if pixelLimit > 0 {
            if pixels > pixelLimit {
                throw PhotoError(path: path, reason: .tooLarge(pixels: pixels, limit: pixelLimit))
            }
            let bytes = saturatingProduct([pixels, header.bands, header.bytesPerSample])
            let limit = saturatingProduct([pixelLimit, bytesPerPixelAllowance])
            if bytes > limit {
                throw PhotoError(path: path, reason: .tooMuchData(channels: header.bands, bytesPerSample: header.bytesPerSample,
                                                                  bytes: bytes, limit: limit))
            }
        }
        let turned = [5, 6, 7, 8].contains(header.orientation)
        return turned ? (header.height, header.width) : (header.width, header.height)
    }

    /// Wraps an image already in memory (tests, previews).
    public init(image: VipsImage, path: String? = nil) throws {
        let upright = try image.autorotated()
        var colour = upright
        if colour.hasICCProfile, colour.interpretation != .bw || colour.bands > 2, !Photo.isPlainSRGB(colour) {
            // Embedded profile: convert through it. Failing profiles fall back to the plain path.
            colour = (try? colour.iccToSRGB()) ?? colour
        }
        if colour.interpretation != .srgb || colour.bands < 3 {
            colour = try colour.colourspace(.srgb)
        }
        if colour.format != .uchar { colour = try colour.cast(.uchar) }
        self.path = path
        self.rgb = colour.bands > 3 ? try colour.extractBands(0, count: 3) : colour
        self.alpha = colour.bands > 3 ? try colour.extractBands(3) : nil
    }

    /// The exposure its faces' drawings are made at (`PictureExposure`), measured on the whole
    /// photo the first time it is asked for and kept: an editor's previews and its samples, cut
    /// around one face, are drawn at it, as the photo is exported.
    public func exposure() throws -> Double {
        try measuredExposure.value.withLock { value in
            if let value { return value }
            let gain = try PictureExposure.gain(of: rgb)
            value = gain
            return gain
        }
    }

    private final class MeasuredExposure: Sendable {
        let value = Mutex<Double?>(nil)
    }

    /// 8-bit RGB whose embedded profile is sRGB itself: its pixels already are what the
    /// transform to sRGB would give, so they are used as they are.
    static func isPlainSRGB(_ image: VipsImage) -> Bool {
        guard image.format == .uchar, image.bands >= 3, image.interpretation == .srgb,
              let bytes = image.blob(field: "icc-profile-data") else { return false }
        return ICCProfile(bytes: bytes)?.describesSRGB == true
    }

    private static func saturatingProduct(_ factors: [Int]) -> Int {
        factors.reduce(1) { product, factor in
            let (result, overflow) = product.multipliedReportingOverflow(by: factor)
            return overflow ? Int.max : result
        }
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

    private static func classify(_ error: VipsError, path: String) -> PhotoError.Reason {
        // A clip given as a photo (ImageMagick may claim it, then refuse to decode it).
        if let container = VideoContainer.at(path) { return .notAnImage("\(container) video: use `sketchease video`") }
        let text = error.message
        if text.contains("is not a known file format") || text.contains("not a known") {
            return .notAnImage("unrecognised format")
        }
        return .corrupt(text)
    }
}
