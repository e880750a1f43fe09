import ArgumentParser
import SketchEase
import Synchronization

/// Flags shared by every command that finds faces.
struct DetectionFlags: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The smallest face to find, in pixels of the photo (shorter side of its box); 0 for the coarse pass only.",
        discussion: "Where the coarse pass cannot see faces this small (large photos), the detailed parts of the photo are also searched in tiles at the resolution they need.",
        valueName: "px"))
    var minFace: Int = 24

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The coarse pass runs on a copy whose longest side is at most this many pixels.",
        discussion: "It finds the faces larger than about 1/50 of that side; smaller ones are found in tiles (see --min-face)."))
    var detectSize: Int = 640

    @Option(parsing: .unconditional, help: "Minimum face confidence, 0 to 1.")
    var threshold: Double = 0.5

    @Option(help: ArgumentHelp(
        "Also look for faces turned a quarter or half turn: off, fallback or always.",
        discussion: "For photos lying on their side without an orientation tag. fallback searches again, turned, when the faces found upright lie turned (their landmarks say which way) or when none is found (then every turn until one finds faces); always searches all four ways and merges.",
        valueName: "when"))
    var rotations: RotationSearch = .off

    @Option(help: ArgumentHelp("CenterFace ONNX model file.",
                               discussion: "Default: $SKETCHEASE_MODEL, then ./models/centerface.onnx, then PREFIX/share/sketchease/ beside the installed command.",
                               valueName: "path"),
            completion: .file(extensions: ["onnx"]))
    var model: String?

    func validate() throws {
        guard (64...8192).contains(detectSize) else { throw ValidationError("--detect-size must be 64...8192 (got \(detectSize))") }
        guard (0.0...1.0).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 1 (got \(threshold))") }
        guard minFace == 0 || (8...100_000).contains(minFace) else {
            throw ValidationError("--min-face must be 0 (the coarse pass only) or 8...100000 (got \(minFace))")
        }
    }

    var options: DetectionOptions {
        DetectionOptions(maxSide: detectSize, threshold: threshold, minFace: minFace, rotations: rotations)
    }

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

    /// Detectors for workers, one each (a network runs one image at a time): one is opened
    /// now, to fail early and warn once about the fallback, and goes to the first worker that
    /// asks; the others open their own, quietly.
    func detectors() throws -> @Sendable () throws -> OpenCVFaceDetector {
        let opened = Mutex<OpenCVFaceDetector?>(try openDetector())
        let model = self.model
        return { try opened.withLock { first in defer { first = nil }; return first } ?? DetectorLocator.open(modelPath: model).detector }
    }
}

extension RotationSearch: ExpressibleByArgument {}
