import Foundation

/// Finds the CenterFace model and the cascade fallback on disk, and opens the best available.
public enum DetectorLocator {
    public static let modelFileName = "centerface.onnx"
    /// Debian's opencv-data cascade, the fallback when the model is missing.
    public static let defaultCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

    /// Where the model is looked for, in order: `$SKETCHEASE_MODEL`, `./models/`, the install
    /// prefix of the running executable (`../share/sketchease/`), the folders above it (a
    /// SwiftPM build), and `/usr/local/share/sketchease/`.
    public static func modelCandidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var candidates: [String] = []
        if let explicit = environment["SKETCHEASE_MODEL"], !explicit.isEmpty { candidates.append(explicit) }
        candidates.append(FileManager.default.currentDirectoryPath + "/models/" + modelFileName)
        let executableFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        // Installed by `make install`: PREFIX/bin/sketchease and PREFIX/share/sketchease/.
        candidates.append(executableFolder.deletingLastPathComponent()
            .appendingPathComponent("share/sketchease/" + modelFileName).path)
        var dir = executableFolder
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("models/" + modelFileName).path)
            dir.deleteLastPathComponent()
        }
        candidates.append("/usr/local/share/sketchease/" + modelFileName)
        return candidates
    }

    public static func findModel() -> String? {
        modelCandidates().first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Opens CenterFace from `modelPath` (or the first model found); if that fails, the
    /// cascade. `warning` says why the fallback was taken, for the user to see.
    public static func open(modelPath: String? = nil,
                            cascadePath: String = defaultCascade) throws -> (detector: OpenCVFaceDetector, warning: String?) {
        let model = modelPath ?? findModel()
        var reason: String
        if let model {
            do {
                return (try .centerFace(modelPath: model), nil)
            } catch {
                reason = "\(error)"
            }
        } else {
            reason = "no \(modelFileName) found (run `make model`, or pass --model)"
        }
        let cascade = try OpenCVFaceDetector.cascade(path: cascadePath)
        return (cascade, "CenterFace unavailable: \(reason); using the OpenCV cascade (less accurate, no landmarks)")
    }
}
