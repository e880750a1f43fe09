import ArgumentParser
import SketchEase

/// Flags shared by every command that finds faces.
struct DetectionFlags: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Detect on a copy whose longest side is at most this many pixels.",
        discussion: "The default finds faces down to about 1/50 of the photo's longer side and keeps memory low; raise it for tiny faces in large group photos."))
    var detectSize: Int = 640

    @Option(parsing: .unconditional, help: "Minimum face confidence, 0 to 1.")
    var threshold: Double = 0.5

    @Option(help: ArgumentHelp("CenterFace ONNX model file.", discussion: "Default: $SKETCHEASE_MODEL, then ./models/centerface.onnx.", valueName: "path"),
            completion: .file(extensions: ["onnx"]))
    var model: String?

    func validate() throws {
        guard (64...8192).contains(detectSize) else { throw ValidationError("--detect-size must be 64...8192 (got \(detectSize))") }
        guard (0.0...1.0).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 1 (got \(threshold))") }
    }

    var options: DetectionOptions { DetectionOptions(maxSide: detectSize, threshold: threshold) }

    /// Opens the detector, telling the user once if the fallback cascade is used.
    func openDetector() throws -> OpenCVFaceDetector {
        do {
            let (detector, warning) = try DetectorLocator.open(modelPath: model)
            if let warning { Terminal.warn(warning) }
            return detector
        } catch {
            throw ValidationError("no face detector could be opened: \(error)")
        }
    }
}
