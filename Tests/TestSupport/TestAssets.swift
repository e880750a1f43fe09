import Foundation
import Vips

/// The example photos and model that `scripts/setup.sh` installs, and scratch folders.
public enum TestAssets {
    /// The repository root, found from this file's location.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func example(_ name: String) -> String {
        root.appendingPathComponent("examples/\(name)").path
    }

    public static var astronaut: String { example("astronaut.png") }
    public static var graceHopper: String { example("grace_hopper.jpg") }
    public static var group: String { example("group.jpg") }
    public static var model: String { root.appendingPathComponent("models/centerface.onnx").path }
    public static let cascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

    /// A fresh empty folder in this test process's scratch folder (`scratch`).
    public static func temporaryFolder(_ label: String = "test") throws -> String {
        let path = scratch + "/\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// One folder under the system temp folder for everything this test process writes
    /// (`temporaryFolder`s, the browsers' profiles), removed with all it holds when the process
    /// exits: a run of the suite leaves nothing behind in /tmp (earlier runs left all their folders there).
    public static let scratch: String = {
        let path = FileManager.default.temporaryDirectory.path + "/sketchease-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestAssets.scratch) }
        return path
    }()

    /// A file's size in bytes.
    public static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    public static func fingerprint(_ path: String) throws -> Data {
        // A content fingerprint good enough to show a file is unchanged.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var hash = [UInt64](repeating: 0xcbf2_9ce4_8422_2325, count: 4)
        for (i, byte) in data.enumerated() {
            hash[i & 3] = (hash[i & 3] ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash.withUnsafeBytes { Data($0) }
    }
}

/// Small image measurements for assertions.
public enum PixelStats {
    /// Mean absolute difference per channel between two same-sized 8-bit images over a region.
    public static func meanAbsoluteDifference(_ a: VipsImage, _ b: VipsImage,
                                              x: Int, y: Int, width: Int, height: Int) throws -> Double {
        let pa = try a.crop(x: x, y: y, width: width, height: height).cast(.float)
        let pb = try b.crop(x: x, y: y, width: width, height: height).cast(.float)
        return try pa.subtract(pb).absolute().average()
    }

    /// The largest absolute difference of any channel of any pixel between two same-sized images.
    public static func maxAbsoluteDifference(_ a: VipsImage, _ b: VipsImage) throws -> Double {
        try a.cast(.float).subtract(b.cast(.float)).absolute().maximum()
    }

    /// How many bytes of two buffers differ (all of them where the sizes do); equal buffers
    /// are told apart by one comparison of their memory.
    public static func differingBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) }
        let same = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        return same ? 0 : zip(a, b).filter { $0 != $1 }.count
    }
}
