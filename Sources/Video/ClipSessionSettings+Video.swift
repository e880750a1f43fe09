import FFmpeg
import SketchEase

/// A clip session's settings as the types that use them. (The session file, in SketchEase,
/// keeps their fields as plain values: SketchEase sits below Video and FFmpeg.)
extension ClipSessionSettings {
    public init(tracking: TrackerSettings, encoding: EncodingSettings = EncodingSettings(), addedOn: [String: Int] = [:]) {
        self.init(maxMiss: tracking.maxMiss, fade: tracking.fade, detectEvery: tracking.detectEvery,
                  format: encoding.format.rawValue, crf: encoding.crf, preset: encoding.preset,
                  keepMetadata: encoding.keepMetadata, addedOn: addedOn)
    }

    /// How the clip's faces are followed (the settings a session keeps; the rest as default).
    public var tracking: TrackerSettings {
        TrackerSettings(maxMiss: maxMiss, fade: fade, detectEvery: detectEvery)
    }

    /// How the clip is encoded; a format this build does not know is written as MP4.
    public var encoding: EncodingSettings {
        EncodingSettings(format: OutputFormat(rawValue: format) ?? .mp4, crf: crf, preset: preset, keepMetadata: keepMetadata)
    }
}
