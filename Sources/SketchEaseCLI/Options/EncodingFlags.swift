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

    func validate() throws {
        guard OutputFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be 0...51") }
        guard EncodingSettings.presets.contains(preset) else {
            throw ValidationError("--preset must be one of \(EncodingSettings.presets.joined(separator: ", "))")
        }
    }

    func settings(keepMetadata: Bool) -> EncodingSettings {
        EncodingSettings(format: OutputFormat(rawValue: format) ?? .mp4, crf: crf, preset: preset, keepMetadata: keepMetadata)
    }
}
