import FFmpeg
import Foundation
import SketchEase

/// A clip behind a chroma-keyed one (a clip's, or Live's camera): the frame showing at each
/// moment of the foreground, started over when it ends (`loop`) or held on its last frame.
/// Not for two threads at once: a clip asks for its frames in order, Live while it follows.
public final class BackgroundClip: @unchecked Sendable {
    public let path: String
    public let loop: Bool
    private var reader: MediaReader
    private var shown: VideoFrame?
    private var upcoming: VideoFrame?
    private var picture: (index: Int, image: VipsImage)?
    private var ended = false
    /// Seconds from the first frame to the end of the last, once met.
    private var length: Double?

    public init(path: String, loop: Bool) throws {
        self.path = path; self.loop = loop
        reader = try MediaReader(MediaSource(path: path))
    }

    /// Whether a chroma background `image` names a clip rather than a picture.
    public static func isClip(_ path: String) -> Bool { !path.isEmpty && ClipFiles.isClip(path) }

    /// The background as it is `time` seconds into the foreground clip (RGB).
    public func picture(at time: Double) throws -> VipsImage {
        var t = time
        if let length, length > 0 { t = loop ? time.truncatingRemainder(dividingBy: length) : min(time, length) }
        if let shown, t + 1e-9 < shown.time { try restart() }
        while true {
            if upcoming == nil, !ended {
                upcoming = try nextFrame()
                if upcoming == nil {
                    ended = true
                    if let shown { length = shown.time + Double(shown.duration) * reader.video.timeBase.value }
                    if loop, let length, length > 0, t >= length - 1e-9 {
                        // Past the end: start over at the same point of the next round.
                        return try picture(at: time)
                    }
                }
            }
            guard let next = upcoming, next.time <= t + 1e-9 || shown == nil else { break }
            shown = next
            upcoming = nil
        }
        guard let shown else { throw MediaError(path: path, reason: .corrupt("no video frames could be decoded")) }
        if let picture, picture.index == shown.index { return picture.image }
        let image = try VipsImage.fromPixels(shown.rgb(x: 0, y: 0, width: shown.width, height: shown.height),
                                             width: shown.width, height: shown.height, bands: 3)
        picture = (shown.index, image)
        return image
    }

    private func nextFrame() throws -> VideoFrame? {
        while let item = try reader.next() { if case .frame(let f) = item { return f } }
        return nil
    }

    private func restart() throws {
        reader = try MediaReader(MediaSource(path: path))
        shown = nil; upcoming = nil; ended = false
    }
}
