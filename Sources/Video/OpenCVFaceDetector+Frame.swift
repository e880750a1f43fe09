import FFmpeg
import SketchEase

extension OpenCVFaceDetector {
    /// Faces in a video frame, found in one pass on its copy at most `options.maxSide` long and
    /// mapped back to the frame's coordinates. Tiles for small faces are left to photos: a clip
    /// is searched every few frames and its faces are followed in between.
    public func detect(in frame: VideoFrame, scaler: FrameScaler, options: DetectionOptions) throws -> [DetectedFace] {
        let small = scaler.rgb(of: frame, maxSide: options.maxSide)
        let image = try VipsImage.fromPixels(small.pixels, width: small.width, height: small.height, bands: 3)
        var coarse = options
        coarse.minFace = 0
        let sx = Double(frame.width) / Double(small.width), sy = Double(frame.height) / Double(small.height)
        return try detect(in: image, options: coarse).map { $0.scaled(x: sx, y: sy) }
    }
}
