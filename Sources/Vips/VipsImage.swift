import CVips
import Foundation

/// An immutable libvips image. Owns one reference, released in `deinit`.
///
/// Operations never change an image: each returns a new one. Pipelines stay lazy and
/// demand-driven; pixels are computed only when something reads or saves them.
public final class VipsImage: @unchecked Sendable {
    // libvips images are safe to read from many threads once built; nothing here mutates one.
    let pointer: CVipsImagePointer

    /// Takes over a reference the caller owns.
    init(owning pointer: CVipsImagePointer) {
        self.pointer = pointer
    }

    deinit { g_object_unref(pointer) }

    public var width: Int { Int(vips_image_get_width(pointer)) }
    public var height: Int { Int(vips_image_get_height(pointer)) }
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    public var size: (width: Int, height: Int) { (width, height) }

    /// The sample format of the bands (nil for libvips' "notset").
    public var format: BandFormat? {
        BandFormat(rawValue: String(cString: vips_enum_nick(vips_band_format_get_type(), Int32(vips_image_get_format(pointer).rawValue))))
    }

    /// Bytes in one sample of one band: 1 for `.uchar`, 2 for `.ushort`, 8 for `.double`, ...
    public var bytesPerSample: Int { Int(vips_format_sizeof(vips_image_get_format(pointer))) }

    /// How the bands are read (nil for libvips' "error").
    public var interpretation: Interpretation? {
        Interpretation(rawValue: String(cString: vips_enum_nick(vips_interpretation_get_type(), Int32(vips_image_get_interpretation(pointer).rawValue))))
    }

    /// The name of the loader that produced this image ("jpegload"), if it came from a file.
    public var loader: String? { string(field: "vips-loader") }

    /// EXIF orientation tag (1...8), 1 when absent.
    public var orientation: Int { Int(sk_image_get_int(pointer, "orientation", 1)) }

    public var hasICCProfile: Bool { hasField("icc-profile-data") }

    public func hasField(_ name: String) -> Bool { sk_image_has_field(pointer, name) != 0 }

    /// An integer metadata field ("n-pages", "page-height"), nil when absent.
    public func int(field: String) -> Int? {
        hasField(field) ? Int(sk_image_get_int(pointer, field, 0)) : nil
    }

    public func string(field: String) -> String? {
        guard hasField(field) else { return nil }
        return FileErrors.beside {
            var value: UnsafePointer<CChar>?
            guard vips_image_get_string(pointer, field, &value) == 0, let value else {
                _ = VipsError.takeFromLibvips(operation: "get \(field)")
                return nil
            }
            return String(cString: value)
        }
    }

    /// The bytes of a binary metadata field ("icc-profile-data", "exif-data"), nil when absent.
    public func blob(field: String) -> [UInt8]? {
        guard hasField(field) else { return nil }
        return FileErrors.beside {
            var data: UnsafeRawPointer?
            var length = 0
            guard vips_image_get_blob(pointer, field, &data, &length) == 0, let data else {
                _ = VipsError.takeFromLibvips(operation: "get \(field)")
                return nil
            }
            return Array(UnsafeRawBufferPointer(start: data, count: length))
        }
    }

    /// Names of every metadata field (EXIF, XMP, ICC, ...).
    public var fieldNames: [String] {
        guard let fields = sk_image_fields(pointer) else { return [] }
        defer { g_strfreev(fields) }
        var names: [String] = []
        var cursor = fields
        while let name = cursor.pointee {
            names.append(String(cString: name))
            cursor += 1
        }
        return names
    }
}

// MARK: - Creating images

extension VipsImage {
    /// Opens an image file. Only the header is read here; pixels are decoded on demand and
    /// decoding errors surface when they are read. Fails on truncated data rather than
    /// returning grey padding.
    ///
    /// `sequential` decodes top to bottom once, with no cache: right for reading the whole
    /// image into memory (`inMemory()`) or straight into a save, wrong for anything that reads
    /// regions out of order (crops, rotation) — for those keep the default random access.
    public static func load(path: String, sequential: Bool = false) throws -> VipsImage {
        try VipsRuntime.ensureStarted()
        let loader = try FileErrors.beside {
            guard let loader = vips_foreign_find_load(path) else { throw VipsError.takeFromLibvips(operation: "load") }
            return loader
        }
        return try VipsCall.image(String(cString: loader), [
            "filename": .string(path),
            "fail_on": .nick("truncated"),
            "access": .nick(sequential ? "sequential" : "random"),
        ])
    }

    /// Computes every pixel now into one memory buffer. Later operations read it at random,
    /// and any decoding error is raised here.
    public func inMemory() throws -> VipsImage {
        try FileErrors.beside {
            guard let copy = vips_image_copy_memory(pointer) else {
                throw VipsError.takeFromLibvips(operation: "copy_memory")
            }
            return VipsImage(owning: copy)
        }
    }

    /// Whether the image is held whole in memory (made from pixels, or computed into memory).
    var isHeld: Bool {
        var size = 0
        return sk_image_memory(pointer, &size) != nil
    }

    /// A rectangle of the image copied into memory: a held image's rows copied as they are,
    /// any other computed for the rectangle only (`crop`, then `inMemory`).
    public func copied(x: Int, y: Int, width: Int, height: Int) throws -> VipsImage {
        var held = 0
        guard let memory = sk_image_memory(pointer, &held), x >= 0, y >= 0, width > 0, height > 0,
              x + width <= self.width, y + height <= self.height else {
            return try crop(x: x, y: y, width: width, height: height).inMemory()
        }
        let pixel = held / (self.width * self.height), row = width * pixel, stride = self.width * pixel
        let bytes = [UInt8](unsafeUninitializedCapacity: row * height) { out, count in
            let source = memory.assumingMemoryBound(to: UInt8.self)
            for line in 0..<height {
                (out.baseAddress! + line * row).update(from: source + (y + line) * stride + x * pixel, count: row)
            }
            count = row * height
        }
        return try bytes.withUnsafeBytes { try holding($0, width: width, height: height) }
    }

    /// A new image held in memory over a copy of `bytes`: `width` × `height` pixels with this
    /// image's bands and band format, read as `type` (this image's interpretation by default).
    func holding(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, as type: VipsInterpretation? = nil) throws -> VipsImage {
        try FileErrors.beside {
            guard let made = sk_image_from_memory(bytes.baseAddress, bytes.count, Int32(width), Int32(height), Int32(bands),
                                                  vips_image_get_format(pointer), type ?? vips_image_get_interpretation(pointer)) else {
                throw VipsError.takeFromLibvips(operation: "new_from_memory")
            }
            return VipsImage(owning: made)
        }
    }

    /// Opens an image with shrink-on-load so its longest side is at most `maxSide`, upright.
    ///
    /// Cheap for JPEG and WebP, which decode at a fraction of full size.
    public static func thumbnail(path: String, maxSide: Int) throws -> VipsImage {
        try VipsCall.image("thumbnail", [
            "filename": .string(path),
            "width": .int(maxSide),
            "height": .int(maxSide),
            "size": .nick("down"),
            "fail_on": .nick("truncated"),
        ])
    }

    /// An image over a copy of packed 8-bit pixels.
    public static func fromPixels(_ bytes: [UInt8], width: Int, height: Int, bands: Int) throws -> VipsImage {
        try fromMemory(bytes, width: width, height: height, bands: bands, format: VipsBandFormat(rawValue: 0))  // VIPS_FORMAT_UCHAR
    }

    /// An image over a copy of packed 32-bit float pixels.
    public static func fromFloats(_ values: [Float], width: Int, height: Int, bands: Int) throws -> VipsImage {
        try fromMemory(values, width: width, height: height, bands: bands, format: VipsBandFormat(rawValue: 6))  // VIPS_FORMAT_FLOAT
    }

    private static func fromMemory<Value>(_ values: [Value], width: Int, height: Int, bands: Int,
                                          format: VipsBandFormat) throws -> VipsImage {
        try VipsRuntime.ensureStarted()
        precondition(values.count == width * height * bands, "pixel buffer size mismatch")
        return try FileErrors.beside {
            let made = values.withUnsafeBytes { raw in
                vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), Int32(bands), format)
            }
            guard let made else { throw VipsError.takeFromLibvips(operation: "new_from_memory") }
            return VipsImage(owning: made)
        }
    }

    /// A constant image: every pixel equals `pixel` (one value per band), 8-bit.
    public static func solid(width: Int, height: Int, pixel: [Double]) throws -> VipsImage {
        let black = try VipsCall.image("black", ["width": .int(width), "height": .int(height), "bands": .int(pixel.count)])
        return try black.linear([1], pixel).cast(.uchar)
    }
}

// MARK: - Reading pixels and saving

extension VipsImage {
    /// Computes the image and returns its packed pixels (band-interleaved, row-major).
    ///
    /// An image already held in memory (made from pixels, or `inMemory()`) is copied as it is:
    /// computing it again would set up a pipeline and wake worker threads for nothing, which on
    /// a face's crop of a few hundred pixels costs more than the copy.
    public func pixels() throws -> [UInt8] {
        var held = 0
        if let memory = sk_image_memory(pointer, &held) {
            return Array(UnsafeRawBufferPointer(start: memory, count: held))
        }
        return try FileErrors.beside {
            var size = 0
            guard let memory = vips_image_write_to_memory(pointer, &size) else {
                throw VipsError.takeFromLibvips(operation: "write_to_memory")
            }
            defer { g_free(memory) }
            return Array(UnsafeRawBufferPointer(start: memory, count: size))
        }
    }

    /// How PNG rows are stored before zlib compresses them (PNG's per-row filters).
    public enum PNGRowFilter: String, Sendable {
        /// Stored as they are (libvips' default).
        case none
        /// Each byte as the difference from the pixel to its left.
        case sub
        /// Each byte as the difference from the pixel above.
        case up
        /// Each byte as the difference from the mean of the pixels left and above.
        case average = "avg"
        /// Each byte as the difference from the Paeth predictor (left, above or above-left).
        case paeth
        /// The best of all five, chosen row by row (slowest).
        case adaptive = "all"
    }

    /// Writes a PNG. `strip` drops every metadata field (EXIF, XMP, GPS, comments, ICC);
    /// `compression` is zlib's level, 0 (none) to 9.
    public func savePNG(path: String, compression: Int = 6, rowFilter: PNGRowFilter = .none,
                        strip: Bool = true) throws {
        _ = try FileErrors.attributed { try VipsCall("pngsave", [
            "in": .image(self),
            "filename": .string(path),
            "compression": .int(compression),
            "filter": .nick(rowFilter.rawValue),
            "strip": .bool(strip),
        ]) }
    }

    /// The image encoded in memory, in the format a file suffix names, with libvips' save
    /// options: `encoded(as: ".jpg[Q=85,strip]")`.
    public func encoded(as suffix: String) throws -> [UInt8] {
        try FileErrors.beside {
            var size = 0
            guard let buffer = sk_image_write_to_buffer(pointer, suffix, &size) else {
                throw VipsError.takeFromLibvips(operation: "save to memory")
            }
            defer { g_free(buffer) }
            return Array(UnsafeRawBufferPointer(start: buffer, count: size))
        }
    }

    /// Writes a baseline JPEG at `quality` (1...100), chroma subsampled as cameras do.
    /// `strip` drops every metadata field.
    public func saveJPEG(path: String, quality: Int, strip: Bool = true) throws {
        _ = try FileErrors.attributed { try VipsCall("jpegsave", [
            "in": .image(strip ? removingAllMetadata() : self),
            "filename": .string(path),
            "Q": .int(quality),
            "optimize_coding": .bool(true),
            "strip": .bool(strip),
        ]) }
    }

    /// Writes a lossy WebP at `quality` (1...100; alpha is kept). Careful: libvips 8.14.1's WebP
    /// writer ignores `strip` and always writes an EXIF chunk (SketchEase's exporter takes it
    /// out afterwards); the fields are at least removed from the image first.
    public func saveWebP(path: String, quality: Int, strip: Bool = true) throws {
        _ = try FileErrors.attributed { try VipsCall("webpsave", [
            "in": .image(strip ? removingAllMetadata() : self),
            "filename": .string(path),
            "Q": .int(quality),
            "strip": .bool(strip),
        ]) }
    }

    /// Writes in the format the file name's suffix names (for tests and tools).
    public func save(path: String) throws {
        let saver = try FileErrors.beside {
            guard let saver = vips_foreign_find_save(path) else { throw VipsError.takeFromLibvips(operation: "save") }
            return saver
        }
        _ = try FileErrors.attributed { try VipsCall(String(cString: saver), ["in": .image(self), "filename": .string(path)]) }
    }
}

// MARK: - Metadata

extension VipsImage {
    /// A copy of this image with a binary metadata field set ("exif-data", "icc-profile-data").
    public func settingBlob(_ field: String, _ bytes: [UInt8]) throws -> VipsImage {
        let copy = try VipsCall.image("copy", ["in": .image(self)])
        bytes.withUnsafeBytes { raw in
            vips_image_set_blob_copy(copy.pointer, field, raw.baseAddress, raw.count)
        }
        return copy
    }

    /// A copy with no metadata at all (EXIF, XMP, IPTC, ICC profile, comments): only the
    /// pixels and their header remain.
    public func removingAllMetadata() throws -> VipsImage {
        try removingFields(fieldNames)
    }

    /// A copy without the named metadata fields.
    public func removingFields(_ fields: [String]) throws -> VipsImage {
        let copy = try VipsCall.image("copy", ["in": .image(self)])
        for field in fields { _ = vips_image_remove(copy.pointer, field) }
        return copy
    }

    /// A copy with an integer metadata field set ("page-height", "orientation").
    public func settingInt(_ field: String, _ value: Int) throws -> VipsImage {
        let copy = try VipsCall.image("copy", ["in": .image(self)])
        vips_image_set_int(copy.pointer, field, Int32(value))
        return copy
    }

    /// A copy with the EXIF orientation tag set (1...8), as a camera would write it.
    public func settingOrientation(_ orientation: Int) throws -> VipsImage {
        try settingInt("orientation", orientation)
    }

    /// Converts to the ICC profile `profile` ("srgb", "p3", "cmyk" or a file) and embeds it.
    public func iccExport(profile: String) throws -> VipsImage {
        try VipsCall.image("icc_transform", ["in": .image(self), "output_profile": .string(profile)])
    }
}
