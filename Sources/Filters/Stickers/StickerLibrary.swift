import Foundation
import Synchronization
import Vips

/// Finds the picture for each feature's sticker: from a sticker folder when one is given, else
/// SketchEase's own drawings. Every picture is decoded or drawn once per process and kept.
///
/// A sticker folder holds `eye.png`, `nose.png`, `mouth.png` and/or `beard.png` (any image
/// format libvips reads works under those names); features without a file there use the
/// built-in drawing. Pictures without alpha are used as opaque rectangles.
public enum StickerLibrary {
    private static let cache = Mutex<[String: VipsImage]>([:])

    /// The 4-band 8-bit sRGB picture for `feature`; `folder` empty means the built-in set.
    public static func sticker(for feature: FacialFeature, folder: String = "") throws -> VipsImage {
        if !folder.isEmpty {
            try checkFolder(folder)
            let path = (folder as NSString).appendingPathComponent(feature.stickerFileName)
            if FileManager.default.fileExists(atPath: path) {
                return try cached(key: "file:" + path + ":\(modificationTime(path))") { try load(path) }
            }
        }
        return try cached(key: "built-in:" + feature.rawValue) { try StickerArt.drawing(for: feature) }
    }

    private static func cached(key: String, make: () throws -> VipsImage) throws -> VipsImage {
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let made = try make()
        return cache.withLock { table in
            if let raced = table[key] { return raced }
            table[key] = made
            return made
        }
    }

    /// A folder must exist and hold at least one sticker, so a mistyped path is not silently
    /// replaced by the built-in set.
    public static func checkFolder(_ folder: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FilterError.invalidParameter("stickers=\(folder): no such folder")
        }
        let names = FacialFeature.allCases.map(\.stickerFileName)
        guard names.contains(where: { FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0)) }) else {
            throw FilterError.invalidParameter("stickers=\(folder): the folder has none of \(names.joined(separator: ", "))")
        }
    }

    private static func modificationTime(_ path: String) -> Double {
        let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        return date?.timeIntervalSince1970 ?? 0
    }

    /// The most pixels a sticker picture may have (checked from its header, before decoding):
    /// a sticker covers an eye or a mouth, and a bigger file is more likely a mistake or a
    /// decompression bomb than artwork.
    public static let maxStickerPixels = 4096 * 4096

    /// Any readable image, as 8-bit sRGB plus alpha, decoded into memory.
    private static func load(_ path: String) throws -> VipsImage {
        do {
            // Read with its own error message (`FileErrors`).
            return try FileErrors.attributed { try decoded(path) }
        } catch let error as VipsError {
            throw FilterError.invalidParameter("stickers: \(path): cannot use this picture (\(error.message))")
        }
    }

    /// The picture as 8-bit sRGB plus alpha, in memory; too large or too many bands is an error.
    private static func decoded(_ path: String) throws -> VipsImage {
        var image = try VipsImage.load(path: path)
        // Four 16-bit channels a pixel at most, as for photos: refuse wider files unread.
        let pixels = image.width * image.height
        guard pixels <= maxStickerPixels, image.bands * image.bytesPerSample <= 8 else {
            throw VipsError(operation: "sticker", message: "too large to be a sticker (\(image.width)×\(image.height) pixels of \(image.bands) "
                            + "\(image.bytesPerSample * 8)-bit channels; at most \(maxStickerPixels) pixels of up to four 16-bit channels)")
        }
        if image.interpretation != .srgb || image.format != .uchar {
            image = try image.colourspace(.srgb)
        }
        if image.format != .uchar { image = try image.cast(.uchar) }
        if image.bands == 3 {
            image = try image.bandjoin(VipsImage.solid(width: image.width, height: image.height, pixel: [255]))
        }
        guard image.bands == 4 else {
            throw VipsError(operation: "sticker", message: "expected RGB or RGBA, got \(image.bands) bands")
        }
        return try VipsImage.fromPixels(try image.pixels(), width: image.width, height: image.height, bands: 4)
            .reinterpreted(as: .srgb)
    }
}
