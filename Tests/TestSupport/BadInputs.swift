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
        let frames = try (0..<3).map { k in try frame.linear(1, Double(40 * k)).cast("uchar") }
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
