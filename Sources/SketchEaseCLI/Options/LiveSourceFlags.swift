import ArgumentParser
import FFmpeg

/// `--input-format`, `--input-option`, `--duration`: reading a camera (or a generated source).
struct LiveSourceFlags: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Read the inputs through this FFmpeg input format instead of as files: v4l2 for a camera, lavfi for a test source.",
        discussion: "Inputs named /dev/video* are read as cameras (v4l2) without it.",
        valueName: "name"))
    var inputFormat: String?

    @Option(name: .customLong("input-option"), help: ArgumentHelp(
        "An option of that input, repeatable: framerate=30, video_size=1280x720, input_format=mjpeg.", valueName: "key=value"))
    var inputOptions: [String] = []

    @Option(help: ArgumentHelp("Stop after this many seconds (a camera otherwise records until Ctrl-C).", valueName: "seconds"))
    var duration: Double?

    func validate() throws {
        for o in inputOptions where !o.contains("=") { throw ValidationError("--input-option expects key=value, got '\(o)'") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds") }
    }

    /// How to open `input`.
    func source(_ input: String) -> MediaSource {
        var options: [String: String] = [:]
        for o in inputOptions {
            let eq = o.firstIndex(of: "=")!
            options[String(o[..<eq])] = String(o[o.index(after: eq)...])
        }
        let format = inputFormat ?? (input.hasPrefix("/dev/video") ? "v4l2" : nil)
        return MediaSource(path: input, format: format, options: options)
    }

    /// Whether `input` is read as a device or generator rather than a file.
    func isLive(_ input: String) -> Bool { source(input).isLive }
}
