import CFaceDetect
import Synchronization
import Vips

/// A face detector running in OpenCV: CenterFace through OpenCV DNN, or a Haar/LBP cascade.
///
/// One instance is safe to share between threads (the C++ side serialises runs); give each
/// worker its own instance to detect in parallel.
public final class OpenCVFaceDetector: @unchecked Sendable {
    public enum Kind: String, Sendable { case centerFace = "centerface", cascade }

    public let kind: Kind
    /// The model or cascade file in use.
    public let path: String
    private let handle: OpaquePointer

    /// Opens the CenterFace ONNX model at `modelPath`.
    public static func centerFace(modelPath: String) throws -> OpenCVFaceDetector {
        try OpenCVFaceDetector(kind: .centerFace, path: modelPath)
    }

    /// Opens an OpenCV cascade XML (Haar or LBP).
    public static func cascade(path: String) throws -> OpenCVFaceDetector {
        try OpenCVFaceDetector(kind: .cascade, path: path)
    }

    private init(kind: Kind, path: String) throws {
        var message = [CChar](repeating: 0, count: 512)
        let opened: OpaquePointer? = switch kind {
        case .centerFace: sk_detector_open_centerface(path, &message, message.count)
        case .cascade: sk_detector_open_cascade(path, &message, message.count)
        }
        guard let opened else { throw FaceDetectionError(Self.text(message)) }
        self.kind = kind
        self.path = path
        self.handle = opened
    }

    deinit { sk_detector_close(handle) }

    /// Caps OpenCV's threads for all detectors (nil = OpenCV's default, all cores).
    public static func limitThreads(_ threads: Int?) {
        sk_detector_set_threads(Int32(threads ?? 0))
    }

    /// Finds faces in `image` (any size, any band count).
    ///
    /// The image is shrunk so its longest side is at most `options.maxSide`; boxes and landmarks
    /// come back in `image`'s pixel coordinates. Pass `fullSize` when `image` is already a
    /// reduced copy (a shrink-on-load thumbnail) of a larger upright photo, to map into that
    /// photo's coordinates instead.
    public func detect(in image: VipsImage, options: DetectionOptions = .init(),
                       fullSize: (width: Int, height: Int)? = nil) throws -> [DetectedFace] {
        var small = image
        let longest = max(image.width, image.height)
        if longest > options.maxSide {
            small = try image.resize(scale: Double(options.maxSide) / Double(longest))
        }
        let rgb = try Self.packedRGB(small)
        let target = fullSize ?? (image.width, image.height)
        let sx = Double(target.width) / Double(small.width)
        let sy = Double(target.height) / Double(small.height)
        return try run(rgb: rgb, width: small.width, height: small.height, options: options)
            .map { $0.scaled(x: sx, y: sy) }
    }

    /// 3-band, 8-bit sRGB pixels, the detectors' input.
    static func packedRGB(_ image: VipsImage) throws -> [UInt8] {
        var img = image
        if img.interpretation != "srgb" || img.bands < 3 { img = try img.colourspace("srgb") }
        if img.format != "uchar" { img = try img.cast("uchar") }
        if img.bands > 3 { img = try img.extractBands(0, count: 3) }
        return try img.pixels()
    }

    private func run(rgb: [UInt8], width: Int, height: Int, options: DetectionOptions) throws -> [DetectedFace] {
        var message = [CChar](repeating: 0, count: 512)
        var capacity = 64
        while true {
            var faces = [sk_face](repeating: sk_face(), count: capacity)
            var found: Int32 = 0
            let written = rgb.withUnsafeBufferPointer { buffer in
                sk_detector_run(handle, buffer.baseAddress, Int32(width), Int32(height), width * 3,
                                Float(options.threshold), Float(options.nmsIoU),
                                &faces, Int32(capacity), &found, &message, message.count)
            }
            if written < 0 { throw FaceDetectionError(Self.text(message)) }
            if Int(found) > capacity { capacity = Int(found); continue }
            return faces.prefix(Int(written)).map(Self.convert)
        }
    }

    /// The C side's NUL-terminated message buffer as a Swift string.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func convert(_ face: sk_face) -> DetectedFace {
        var points: [Point] = []
        if face.has_landmarks != 0 {
            withUnsafeBytes(of: face.landmarks) { raw in
                let values = raw.bindMemory(to: Float.self)
                for i in 0..<5 { points.append(Point(x: Double(values[2 * i]), y: Double(values[2 * i + 1]))) }
            }
        }
        return DetectedFace(
            box: FaceBox(x: Double(face.x), y: Double(face.y), width: Double(face.width), height: Double(face.height)),
            score: Double(face.score), landmarks: points)
    }
}
