import Foundation

/// Finds the CenterFace model and the cascade fallback on disk, and opens the best available.
public enum DetectorLocator {
    public static let modelFileName = "centerface.onnx"
    /// Debian's opencv-data cascade, the fallback when the model is missing.
    public static let defaultCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

    /// Where the model is looked for, in order: `$SKETCHEASE_MODEL`, `./models/`, the install
    /// prefix of the running executable (`PREFIX/share/sketchease/` beside `PREFIX/bin/`), the
    /// folders above the executable (a SwiftPM build: `.build/release/sketchease`), and
    /// `/usr/local/share/sketchease/`.
    ///
    /// The executable is the file actually running (`/proc/self/exe`, links resolved), not
    /// `argv[0]`, which has no folder when the command was found through `PATH`.
    public static func modelCandidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       workingDirectory: String = FileManager.default.currentDirectoryPath,
                                       executable: String? = runningExecutable()) -> [String] {
        var candidates: [String] = []
        if let explicit = environment["SKETCHEASE_MODEL"], !explicit.isEmpty { candidates.append(explicit) }
        candidates.append(URL(fileURLWithPath: workingDirectory).appendingPathComponent("models/" + modelFileName).path)
        if let executable {
            let folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            // Installed by `make install`: PREFIX/bin/sketchease and PREFIX/share/sketchease/.
            candidates.append(folder.deletingLastPathComponent().appendingPathComponent("share/sketchease/" + modelFileName).path)
            var dir = folder
            for _ in 0..<4 {
                candidates.append(dir.appendingPathComponent("models/" + modelFileName).path)
                dir.deleteLastPathComponent()
            }
        }
        candidates.append("/usr/local/share/sketchease/" + modelFileName)
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }

    /// The path of the running executable: `/proc/self/exe` on Linux; else `argv[0]` made
    /// absolute, searched for in `PATH` when it names no folder.
    public static func runningExecutable() -> String? {
        if let linked = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return linked }
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        if first.contains("/") { return URL(fileURLWithPath: first).path }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return folders.map { "\($0)/\(first)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static func findModel(in candidates: [String] = modelCandidates()) -> String? {
        candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Opens CenterFace from `modelPath` (or the first model found); if that fails, the
    /// cascade. `warning` says why the fallback was taken (and where the model was looked
    /// for), for the user to see.
    public static func open(modelPath: String? = nil, candidates: [String] = modelCandidates(),
                            cascadePath: String = defaultCascade) throws -> (detector: OpenCVFaceDetector, warning: String?) {
        let model = modelPath ?? findModel(in: candidates)
        var reason: String
        if let model {
            do {
                return (try .centerFace(modelPath: model), nil)
            } catch {
                reason = "\(error)"
            }
        } else {
            reason = "no \(modelFileName) in " + candidates.joined(separator: ", ")
                + " (set SKETCHEASE_MODEL or pass --model; `make install` puts it in PREFIX/share/sketchease/)"
        }
        let cascade = try OpenCVFaceDetector.cascade(path: cascadePath)
        return (cascade, "CenterFace unavailable: \(reason); using OpenCV's Haar cascade instead "
                + "(less accurate: no confidence, no landmarks, no small faces)")
    }
}
