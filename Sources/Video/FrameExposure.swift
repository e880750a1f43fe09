import FFmpeg
import SketchEase

/// A clip's white followed from frame to frame (`PictureExposure.Follower`), measured a few
/// times a second on a copy of the frame `PictureExposure.side` pixels long, as a photo's is:
/// the exposure each frame's drawings are made at.
final class FrameExposure {  // used by the track stage alone, one frame after another
    private let scaler = FrameScaler()
    private var follower = PictureExposure.Follower()

    /// The exposure for `frame` (frames given in order).
    func gain(for frame: VideoFrame) throws -> Double {
        try follower.gain(at: frame.time) { try PictureExposure.white(ofRGB: scaler.rgb(of: frame, maxSide: PictureExposure.side).pixels) }
    }
}
