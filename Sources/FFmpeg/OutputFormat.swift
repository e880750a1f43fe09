import Foundation

/// What `MediaWriter` writes: the container and the codecs that go in it.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// H.264 (libx264), 4:2:0, in MP4; AAC, MP3 or AC-3 audio and mov_text subtitles carried
    /// over (other audio becomes AAC).
    case mp4
    /// VP9 (libvpx) in WebM; Opus or Vorbis audio carried over (others become Opus).
    case webm
    /// Animated GIF, a palette made for each frame; no sound.
    case gif
    /// Animated WebP (libwebp); no sound.
    case webp

    public var fileExtension: String { rawValue }

    /// FFmpeg's muxer name.
    var muxer: String { rawValue }

    /// FFmpeg's encoder name for the pictures.
    var videoEncoder: String {
        switch self {
        case .mp4: "libx264"
        case .webm: "libvpx-vp9"
        case .gif: "gif"
        case .webp: "libwebp_anim"
        }
    }

    /// The encoder audio is turned into when the container cannot hold the original.
    var audioEncoder: String? {
        switch self {
        case .mp4: "aac"
        case .webm: "libopus"
        case .gif, .webp: nil
        }
    }

    /// Whether sound in `codec` (FFmpeg's name: "aac", "opus") is carried over as it is, where
    /// the container holds it. An MP4 is shared to phones and players of every kind: it keeps
    /// only the sound all of them play (AAC, MP3, AC-3, E-AC-3, ALAC); Opus, Vorbis, FLAC or
    /// PCM, which MP4 can hold but not every player plays (Apple's among them), become AAC.
    func keepsAudio(_ codec: String) -> Bool {
        switch self {
        case .mp4: ["aac", "mp3", "ac3", "eac3", "alac"].contains(codec)
        case .webm, .gif, .webp: true
        }
    }

    /// The time base the container keeps (GIF counts hundredths, WebP milliseconds), or nil
    /// for "the input's own", so timestamps pass through exactly.
    var fixedTimeBase: Rational? {
        switch self {
        case .gif: Rational(1, 100)
        case .webp: Rational(1, 1000)
        case .mp4, .webm: nil
        }
    }
}

/// How the video is encoded.
public struct EncodingSettings: Sendable, Equatable {
    public var format: OutputFormat
    /// Constant rate factor (H.264 and VP9): lower is better and larger; 18 looks like the input.
    public var crf: Int
    /// x264's speed/size trade-off, ultrafast...veryslow (for VP9 mapped to its cpu-used).
    public var preset: String
    /// Keep the input's metadata (GPS location, device make and model, dates); stripped by default.
    public var keepMetadata: Bool
    /// Encoder threads (0 = FFmpeg's choice). By default `defaultThreads(for:)`.
    public var threads: Int
    /// For GIF and WebP, which are shared as they are: at most this many frames a second (nil:
    /// the clip's own), and no side longer than `maxSide` pixels (nil: the clip's size).
    public var maxFrameRate: Double?
    public var maxSide: Int?

    /// What a GIF or WebP is held to unless asked otherwise: a 4 s 640×480 clip as a GIF comes
    /// to a few MB, as messengers and pages take them (it was 18–22 MB at the clip's own rate
    /// and size).
    public static let shareFrameRate = 10.0
    public static let shareSide = 480

    /// Whether the format is one shared as it is (GIF, WebP), held to a rate and size.
    public var isShareFormat: Bool { format == .gif || format == .webp }

    /// The size frames of `width` × `height` are written at: within `maxSide` (GIF and WebP
    /// only), keeping the shape, even sides. `reference` is the clip's own frame size when
    /// frames are wider (a side-by-side comparison): each picture is held to `maxSide`.
    public func outputSize(width: Int, height: Int, reference: (width: Int, height: Int)? = nil) -> (width: Int, height: Int) {
        let own = reference ?? (width, height)
        guard isShareFormat, let maxSide, maxSide > 0, max(own.width, own.height) > maxSide else { return (width, height) }
        let scale = Double(maxSide) / Double(max(own.width, own.height))
        func even(_ v: Int) -> Int { max(2, Int((Double(v) * scale / 2).rounded()) * 2) }
        return (even(width), even(height))
    }

    /// The encoder's threads unless asked otherwise. H.264 gets a quarter of the cores, at least
    /// one: the encoder shares them with the styling, which runs a worker per core. x264's own
    /// choice (one and a half threads per core, each holding frames of its own) wrote as large a
    /// file with ~70 MB more memory at 1080p and ~8 % more CPU on two cores (4 s of the bench
    /// clip in pencil: 611–615 → 545 MB, 12.8–13.5 → 11.5–11.7 s of CPU, the same wall time).
    /// The other formats keep FFmpeg's choice.
    public static func defaultThreads(for format: OutputFormat, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        format == .mp4 ? max(1, cores / 4) : 0
    }

    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]
    public static let defaultCRF = 18
    public static let defaultPreset = "veryfast"

    /// `maxFrameRate` and `maxSide` default to `shareFrameRate` and `shareSide` for GIF and WebP;
    /// 0 keeps the clip's own.
    public init(format: OutputFormat = .mp4, crf: Int = EncodingSettings.defaultCRF, preset: String = EncodingSettings.defaultPreset,
                keepMetadata: Bool = false, threads: Int? = nil, maxFrameRate: Double? = nil, maxSide: Int? = nil) {
        self.format = format; self.crf = crf; self.preset = preset; self.keepMetadata = keepMetadata
        self.threads = threads ?? Self.defaultThreads(for: format)
        let share = format == .gif || format == .webp
        let rate = maxFrameRate ?? (share ? Self.shareFrameRate : nil)
        let side = maxSide ?? (share ? Self.shareSide : nil)
        self.maxFrameRate = rate.flatMap { $0 > 0 ? $0 : nil }
        self.maxSide = side.flatMap { $0 > 0 ? $0 : nil }
    }
}
