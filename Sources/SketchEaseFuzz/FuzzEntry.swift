import FFmpeg
import Foundation
import SketchEase
import Video

/// libFuzzer entry point over the paths that read untrusted bytes.
///
/// `SKETCHEASE_FUZZ=image` (default): the bytes are a photo file — load, decode, detect-size
/// copy, sketch one face region, encode. Bad input must come back as a `PhotoError`.
/// `SKETCHEASE_FUZZ=session`: the bytes are a session sidecar — read it, replay its edits and
/// render them over a small photo. `SKETCHEASE_FUZZ=plan`: the bytes are a batch plan.
/// `SKETCHEASE_FUZZ=clip`: the bytes are a media file — demux, decode, turn upright and convert
/// its frames, draw a style into them and write a short MP4 with its other streams copied.
/// Any outcome but a crash, hang or sanitizer report is fine.
/// Built with `-sanitize=fuzzer` by `scripts/fuzz.sh`; a normal build gets a replay `main`
/// instead, which runs saved inputs (crashes, corpus) given as arguments.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    switch ProcessInfo.processInfo.environment["SKETCHEASE_FUZZ"] ?? "image" {
    case "session": FuzzTargets.session(bytes)
    case "plan": FuzzTargets.plan(bytes)
    case "clip": FuzzTargets.clip(bytes)
    default: FuzzTargets.image(bytes)
    }
    return 0
}

enum FuzzTargets {
    static let scratch: String = {
        let dir = (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
            + "/sketchease-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// A small photo to replay sessions over (made once).
    static let photo: Photo = {
        let grey = try! VipsImage.solid(width: 160, height: 120, pixel: [120, 110, 100])
        return try! Photo(image: grey)
    }()

    static func session(_ bytes: Data) {
        let path = scratch + "/session.json"
        guard (try? bytes.write(to: URL(fileURLWithPath: path))) != nil else { return }
        guard let session = try? SessionFile.read(from: path),
              let history = try? session.history(file: path, imageSize: photo.size) else { return }
        let image = FilteredImage(photo: photo, history: history)
        _ = try? image.render(with: FaceCompositor(options: session.render)).pixels()
    }

    static func plan(_ bytes: Data) {
        let path = scratch + "/plan.json"
        guard (try? bytes.write(to: URL(fileURLWithPath: path))) != nil else { return }
        _ = try? BatchPlan.read(from: path)
    }

    static func clip(_ bytes: Data) {
        let input = scratch + "/input", output = scratch + "/output.mp4"
        guard (try? bytes.write(to: URL(fileURLWithPath: input))) != nil else { return }
        do {
            // A low pixel limit and a few frames keep each run fast; the checks are under test too.
            let reader = try MediaReader(MediaSource(path: input), pixelLimit: 1_000_000, threads: 1)
            let writer = try MediaWriter(path: output, reader: reader, settings: EncodingSettings(preset: "ultrafast", threads: 1),
                                         overwrite: true)
            let styler = FrameStyler(compositor: FaceCompositor())
            let scaler = FrameScaler()
            var frames = 0
            while frames < 12, let item = try reader.next() {
                switch item {
                case .packet(let packet): try writer.write(packet)
                case .frame(let frame):
                    frames += 1
                    _ = scaler.rgb(of: frame, maxSide: 128)
                    _ = scaler.grey(of: frame, maxSide: 96)
                    let box = FaceBox(x: Double(frame.width) / 4, y: Double(frame.height) / 4,
                                      width: Double(frame.width) / 2, height: Double(frame.height) / 2)
                    try styler.draw([FrameStyler.Face(TrackedFace(id: 1, box: box, opacity: 0.5), style: try .named("pixelate"))], into: frame)
                    try writer.write(frame)
                }
            }
            try writer.finish()
        } catch is MediaError {
        } catch is PhotoError {
        } catch is VipsError {
        } catch {
            fatalError("unexpected error type \(type(of: error)): \(error)")
        }
    }

    static func image(_ bytes: Data) {
        let input = scratch + "/input", output = scratch + "/output.png"
        guard (try? bytes.write(to: URL(fileURLWithPath: input))) != nil else { return }
        do {
            // A low pixel limit keeps each run fast; the limit check itself is under test too.
            let photo = try Photo.load(path: input, pixelLimit: 4_000_000)
            let box = FaceBox(x: Double(photo.width) / 4, y: Double(photo.height) / 4,
                              width: Double(photo.width) / 2, height: Double(photo.height) / 2)
            let image = try FaceCompositor().render(photo.rgb, faces: [StyledFace(box: box, style: try .named("pencil"))])
            try ImageExporter.write(image, alpha: photo.alpha, to: output, options: ExportOptions(compression: 0, overwrite: true))
        } catch is PhotoError {
        } catch is RenderError {
        } catch is VipsError {
        } catch {
            fatalError("unexpected error type \(type(of: error)): \(error)")
        }
    }
}

#if FUZZING
/// libFuzzer's driver (in the runtime that `-sanitize=fuzzer` links in).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@main
struct FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
    }
}
#else
/// Replays saved inputs through the fuzz target: `SketchEaseFuzz FILE...`.
@main
struct ReplayInputs {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            _ = data.withUnsafeBytes { raw in
                fuzzOneInput(raw.bindMemory(to: UInt8.self).baseAddress ?? UnsafePointer(bitPattern: 1)!, raw.count)
            }
            print("ok \(path)")
        }
    }
}
#endif
