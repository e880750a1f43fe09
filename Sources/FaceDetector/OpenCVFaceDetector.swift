import CFaceDetect
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

    /// Finds faces in `image` (any size, any band count), in its pixel coordinates, best first.
    ///
    /// CenterFace looks at a copy whose longest side is at most `options.maxSide` (the coarse
    /// pass), then, where that copy is too small to show faces of `options.minFace` pixels, at
    /// tiles of the image at the resolution such faces need (see `FaceSearch`). A cascade only
    /// makes the coarse pass.
    public func detect(in image: VipsImage, options: DetectionOptions = .init()) throws -> [DetectedFace] {
        try FaceSearch(detector: self, options: options).faces(in: image)
    }

    /// Runs the detector once on `region` of `pixels` (all of it by default), at a network
    /// size of at least `networkSize`; faces come back in `pixels`' coordinates.
    func run(_ pixels: RGBPixels, region: PixelRect? = nil, networkSize: (width: Int, height: Int)? = nil,
             threshold: Double, nmsIoU: Double) throws -> [DetectedFace] {
        let area = region ?? pixels.bounds
        var message = [CChar](repeating: 0, count: 512)
        var capacity = 64
        while true {
            var faces = [sk_face](repeating: sk_face(), count: capacity)
            var found: Int32 = 0
            let written = pixels.withRegion(area) { first, stride in
                sk_detector_run(handle, first, Int32(area.width), Int32(area.height), stride,
                                Int32(networkSize?.width ?? 0), Int32(networkSize?.height ?? 0),
                                Float(threshold), Float(nmsIoU), &faces, Int32(capacity), &found, &message, message.count)
            }
            if written < 0 { throw FaceDetectionError(Self.text(message)) }
            if Int(found) > capacity { capacity = Int(found); continue }
            return faces.prefix(Int(written)).map {
                convert($0).offset(dx: Double(area.x), dy: Double(area.y))
            }
        }
    }

    /// Hands back the network memory kept for the next run of the same size.
    public func releaseNetworks() { sk_detector_release_networks(handle) }

    /// The input size of the network kept from the last run (its working memory grows with
    /// it: ~65 MB at 640 × 640); nil when none is kept.
    public var networkSize: (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0
        sk_detector_network_size(handle, &width, &height)
        return width > 0 && height > 0 ? (Int(width), Int(height)) : nil
    }

    /// The C side's NUL-terminated message buffer as a Swift string.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func convert(_ face: sk_face) -> DetectedFace {
        var points: [Point] = []
        if face.has_landmarks != 0 {
            withUnsafeBytes(of: face.landmarks) { raw in
                let values = raw.bindMemory(to: Float.self)
                for i in 0..<5 { points.append(Point(x: Double(values[2 * i]), y: Double(values[2 * i + 1]))) }
            }
        }
        return DetectedFace(
            box: FaceBox(x: Double(face.x), y: Double(face.y), width: Double(face.width), height: Double(face.height)),
            score: kind == .cascade ? nil : Double(face.score), landmarks: points)
    }
}
