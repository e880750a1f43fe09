import CAV

/// A ratio of integers, as FFmpeg keeps time bases and frame rates.
public struct Rational: Sendable, Equatable, CustomStringConvertible {
    public var numerator: Int32
    public var denominator: Int32

    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator; self.denominator = denominator
    }

    init(_ q: AVRational) { self.init(q.num, q.den) }

    var av: AVRational { AVRational(num: numerator, den: denominator) }

    public var value: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
    public var isValid: Bool { numerator > 0 && denominator > 0 }
    public var description: String { "\(numerator)/\(denominator)" }
}

/// One stream of a media file, as `ffprobe` would list it.
public struct MediaStream: Sendable, Equatable {
    public enum Kind: String, Sendable { case video, audio, subtitle, data, attachment, unknown }

    public let index: Int
    public let kind: Kind
    /// FFmpeg's codec name ("h264", "aac", "mov_text").
    public let codec: String
    public let timeBase: Rational
    /// The language tag ("eng"), if any.
    public let language: String?
    /// A cover picture stored as a one-frame video stream (MP3 or M4A artwork), not a video.
    public let isAttachedPicture: Bool
}

/// The video stream being read, and the frames it gives: upright, 8-bit 4:2:0, even-sized.
public struct VideoStreamInfo: Sendable {
    public let index: Int
    public let codec: String
    /// The size of the frames handed out: upright, each side rounded up to even.
    public let width: Int
    public let height: Int
    /// The pictures' size as stored, before turning upright.
    public let storedWidth: Int
    public let storedHeight: Int
    /// Clockwise quarter turns applied to make the pictures upright (rotation metadata).
    public let quarterTurns: Int
    public let timeBase: Rational
    /// The average frame rate (variable-rate clips: the mean), or a guess from the codec.
    public let frameRate: Rational
    /// Seconds, when the container knows.
    public let duration: Double?
    /// Frames, when the container knows or the duration and rate give an estimate.
    public let estimatedFrames: Int?
    /// Colour tags (FFmpeg's AVColorSpace, AVColorRange, AVColorPrimaries, AVColorTransferCharacteristic).
    public let colourSpace: Int32
    public let colourRange: Int32
    public let colourPrimaries: Int32
    public let colourTransfer: Int32
}
