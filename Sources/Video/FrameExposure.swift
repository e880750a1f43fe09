import FFmpeg
import SketchEase

/// A clip's white followed from frame to frame (`PictureExposure.Follower`): measured a few
/// times a second (`perSecond`) on a copy of the frame about `PictureExposure.side` pixels
/// long, as a photo's is. Gives the exposure each frame's drawings are made at.
final class FrameExposure {  // used by the track stage alone, one frame after another
    /// How often a second the white is measured.
    static let perSecond = 6.0
    private let scaler = FrameScaler()
    private var follower = PictureExposure.Follower()
    private let every: Int
    private var measured: Int?

    init(frameRate: Double) {
        every = max(1, Int((frameRate / Self.perSecond).rounded()))
    }

    /// The exposure for `frame` (frames given in order).
    func gain(for frame: VideoFrame) throws -> Double {
        if measured.map({ frame.index - $0 >= every || frame.index < $0 }) ?? true {
            let small = scaler.rgb(of: frame, maxSide: PictureExposure.side)
            _ = follower.gain(white: try PictureExposure.white(ofRGB: small.pixels), at: frame.time)
            measured = frame.index
        }
        return follower.gain
    }
}
