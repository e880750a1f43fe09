import Foundation
import Vips

/// Writes broken and unusual files for robustness tests (generated, never committed).
public enum BadInputs {
    public static func zeroBytes(in folder: String, name: String = "empty.jpg") throws -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        return path
    }

    public static func text(in folder: String, name: String = "notes.jpg") throws -> String {
        let path = folder + "/" + name
        try Data("this is a shopping list, not a photo\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The first `fraction` of a real JPEG: a header that parses, then data that stops.
    public static func truncatedJPEG(in folder: String, name: String = "truncated.jpg", fraction: Double = 0.4) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestAssets.graceHopper))
        let path = folder + "/" + name
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
        return path
    }

    public static func truncatedPNG(in folder: String, name: String = "truncated.png", fraction: Double = 0.5) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestAssets.astronaut))
        let path = folder + "/" + name
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
        return path
    }

    public static func randomBytes(in folder: String, name: String = "noise.png", count: Int = 20_000) throws -> String {
        var generator = SplitMix(seed: 42)
        let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// A tiny seeded generator so generated inputs are the same on every run.
public struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension BadInputs {
    /// A valid PNG whose header claims `width` × `height`: a decompression bomb's calling card.
    public static func hugeDeclaredPNG(in folder: String, width: UInt32 = 60_000, height: UInt32 = 60_000) throws -> String {
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestAssets.astronaut)))
        // Signature (8) + IHDR length (4) + "IHDR" (4): width and height follow, then CRC at 29.
        func put(_ value: UInt32, at offset: Int) {
            for i in 0..<4 { data[offset + i] = UInt8(value >> (24 - 8 * UInt32(i)) & 0xff) }
        }
        put(width, at: 16)
        put(height, at: 20)
        put(crc32(data[12..<29]), at: 29)
        let path = folder + "/bomb.png"
        try Data(data).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A small TIFF whose header declares `width` × `height` pixels of `channels` 32-bit float
    /// channels (1000 × 1000 × 250 decodes to 1 GB): well within any pixel limit, a bomb
    /// through its channels. (Deflate shrinks such a file of zeros to about 1 MB; without the
    /// check, loading one of 1000 × 1000 × 200 doubles took 3.2 GB and 13 s.) Only the header
    /// is real: the one strip holds a few bytes, so the file must be refused before decoding.
    public static func manyChannelTIFF(in folder: String, width: UInt32 = 1000, height: UInt32 = 1000,
                                       channels: UInt16 = 250) throws -> String {
        var bytes: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0] // little-endian, first directory at 8
        func short(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
        func long(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * UInt32($0)) & 0xff) } }
        let strip: [UInt8] = [0x78, 0x9c, 0x63, 0x60, 0x18, 0x05, 0x00, 0x00] // a stand-in: not the declared strip
        // Directory entries (tag order), then the per-channel arrays and the strip after it.
        let tags: [(tag: UInt16, type: UInt16, values: [UInt32])] = [
            (256, 4, [width]), (257, 4, [height]),
            (258, 3, Array(repeating: 32, count: Int(channels))), // bits per sample
            (259, 3, [8]), (262, 3, [1]),                        // deflate; min-is-black
            (273, 4, [0]),                                       // strip offset: patched below
            (277, 3, [UInt32(channels)]), (278, 4, [height]), (279, 4, [UInt32(strip.count)]),
            (284, 3, [1]),                                       // contiguous samples
            (338, 3, Array(repeating: 0, count: Int(channels) - 1)), // extra samples: unspecified
            (339, 3, Array(repeating: 3, count: Int(channels))),  // IEEE floating point
        ]
        let directorySize = 2 + 12 * tags.count + 4
        var extra: [UInt8] = []
        var entries: [UInt8] = short(UInt16(tags.count))
        var stripOffsetAt = 0
        for (tag, type, values) in tags {
            entries += short(tag) + short(type) + long(UInt32(values.count))
            let packed = values.flatMap { type == 3 ? short(UInt16($0)) : long($0) }
            if packed.count <= 4 {
                if tag == 273 { stripOffsetAt = 8 + entries.count }
                entries += packed + Array(repeating: 0, count: 4 - packed.count)
            } else {
                entries += long(UInt32(8 + directorySize + extra.count))
                extra += packed
            }
        }
        entries += long(0) // no next directory
        let stripOffset = long(UInt32(8 + directorySize + extra.count))
        bytes += entries + extra + strip
        bytes.replaceSubrange(stripOffsetAt..<stripOffsetAt + 4, with: stripOffset)
        let path = folder + "/channels.tif"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Three frames stacked as an animated GIF or WebP (frame k is brightened by 40·k).
    public static func animated(in folder: String, suffix: String = "gif") throws -> String {
        let frame = try VipsImage.load(path: TestAssets.graceHopper).crop(x: 100, y: 80, width: 320, height: 360)
        let frames = try (0..<3).map { k in try frame.linear(1, Double(40 * k)).cast(.uchar) }
        let strip = try VipsCall.image("arrayjoin", ["in": .images(frames), "across": 1])
            .settingInt("page-height", 360)
        let path = folder + "/animated." + suffix
        try strip.save(path: path)
        return path
    }

    /// The upright photo stored as a camera with EXIF orientation `tag` would store it.
    public static func stored(_ upright: VipsImage, orientation tag: Int) throws -> VipsImage {
        let stored: VipsImage = switch tag {
        case 2: try upright.flipped("horizontal")
        case 3: try upright.rotated("d180")
        case 4: try upright.flipped("vertical")
        case 5: try upright.rotated("d90").flipped("horizontal")
        case 6: try upright.rotated("d270")
        case 7: try upright.rotated("d270").flipped("horizontal")
        case 8: try upright.rotated("d90")
        default: upright
        }
        return try stored.settingOrientation(tag)
    }
}
