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
