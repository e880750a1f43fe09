import ArgumentParser
import FFmpeg

/// `--format`, `--crf`, `--preset`: how a clip is encoded.
struct EncodingFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Output format: mp4 (H.264), webm (VP9), gif or webp (animated, no sound).", valueName: "format"))
    var format: String = OutputFormat.mp4.rawValue

    @Option(help: ArgumentHelp(
        "Quality: lower is better and larger (0...51).",
        discussion: "18, the default, looks like the input. For webm it is mapped onto VP9's scale, for webp it sets quality 100 − crf; gif ignores it."))
    var crf: Int = EncodingSettings.defaultCRF

    @Option(help: ArgumentHelp(
        "Encoder speed: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow.",
        discussion: "Slower presets make smaller files at the same quality. The default keeps up with 1080p30 in real time on two cores."))
    var preset: String = EncodingSettings.defaultPreset

    @Option(name: .customLong("max-fps"), help: ArgumentHelp(
        "gif and webp: at most this many frames a second (0: the clip's own).",
        discussion: "Default \(Int(EncodingSettings.shareFrameRate)): a shared animation need not carry every frame, and each one costs."))
    var maxFPS: Double?

    @Option(name: .customLong("max-size"), help: ArgumentHelp(
        "gif and webp: no side longer than this many pixels (0: the clip's size).",
        discussion: "Default \(EncodingSettings.shareSide). With --compare each of the two pictures is held to it.", valueName: "px"))
    var maxSize: Int?

    func validate() throws {
        guard OutputFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be 0...51") }
        guard EncodingSettings.presets.contains(preset) else {
            throw ValidationError("--preset must be one of \(EncodingSettings.presets.joined(separator: ", "))")
        }
        if let maxFPS, !(maxFPS.isFinite && maxFPS >= 0) { throw ValidationError("--max-fps must be 0 or more (0: the clip's own rate)") }
        if let maxSize, maxSize < 0 || (1..<16).contains(maxSize) { throw ValidationError("--max-size must be 0 (the clip's size) or at least 16") }
        let format = OutputFormat(rawValue: format) ?? .mp4
        if maxFPS != nil || maxSize != nil, format != .gif, format != .webp {
            throw ValidationError("--max-fps and --max-size are for --format gif or webp (\(format.rawValue) keeps the clip's rate and size)")
        }
    }

    func settings(keepMetadata: Bool) -> EncodingSettings {
        EncodingSettings(format: OutputFormat(rawValue: format) ?? .mp4, crf: crf, preset: preset, keepMetadata: keepMetadata,
                         maxFrameRate: maxFPS, maxSide: maxSize)
    }
}
