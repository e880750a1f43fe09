import CAV

/// One decoded picture: upright, 8-bit 4:2:0 planar, even-sized, with its timestamp.
///
/// Frames pass from stage to stage of a pipeline (one owner at a time); a style changes a
/// frame's pixels in place with `write`, copying the picture first if the decoder still
/// shares it.
public final class VideoFrame: @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>
    /// Position in the clip, from 0.
    public let index: Int
    /// Presentation timestamp in the stream's time base, as decoded (kept through to the output).
    public let pts: Int64
    /// How long it is shown, in the stream's time base.
    public let duration: Int64
    /// Seconds from the first frame.
    public let time: Double
    public let matrix: sk_yuv_matrix

    init(taking frame: UnsafeMutablePointer<AVFrame>, index: Int, pts: Int64, duration: Int64, time: Double) {
        self.frame = frame; self.index = index; self.pts = pts; self.duration = duration; self.time = time
        matrix = sk_yuv_matrix_make(Int32(frame.pointee.colorspace.rawValue), Int32(frame.pointee.color_range.rawValue),
                                    frame.pointee.height)
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&pointer)
    }

    public var width: Int { Int(frame.pointee.width) }
    public var height: Int { Int(frame.pointee.height) }

    /// Packed 8-bit RGB of a rectangle (x, y, width and height even, inside the frame).
    public func rgb(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height
                     && (x | y | width | height) & 1 == 0, "rectangle must be even and inside the frame")
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        withUnsafePointer(to: matrix) { m in
            sk_frame_read_rgb(frame, Int32(x), Int32(y), Int32(width), Int32(height), &pixels, m)
        }
        return pixels
    }

    /// Writes a processed copy of a rectangle read with `rgb` back: only pixels that differ
    /// from `before` change, mixed with the original by `opacity` (0...1).
    public func write(rgb after: [UInt8], before: [UInt8], x: Int, y: Int, width: Int, height: Int,
                      opacity: Double = 1) throws {
        precondition(after.count == width * height * 3 && before.count == after.count, "pixel buffer size mismatch")
        let alpha = Int32((min(max(opacity, 0), 1) * 256).rounded())
        guard alpha > 0 else { return }
        let status = av_frame_make_writable(frame)
        guard status >= 0 else { throw MediaError(path: "frame \(index)", reason: .other(MediaError.text(status))) }
        withUnsafePointer(to: matrix) { m in
            sk_frame_write_rgb(frame, Int32(x), Int32(y), Int32(width), Int32(height), before, after, alpha, m)
        }
    }

    /// Another frame over the same picture: drawing into either copies it first, so the other
    /// keeps the picture as it was.
    public func reference() throws -> VideoFrame {
        guard let clone = av_frame_clone(frame) else { throw MediaError(path: "frame \(index)", reason: .other("out of memory")) }
        return VideoFrame(taking: clone, index: index, pts: pts, duration: duration, time: time)
    }

    /// `left` and `right` side by side, one frame twice as wide, with `left`'s timing.
    public static func sideBySide(_ left: VideoFrame, _ right: VideoFrame) throws -> VideoFrame {
        guard let out = av_frame_alloc() else { throw MediaError(path: "frame \(left.index)", reason: .other("out of memory")) }
        var owned: UnsafeMutablePointer<AVFrame>? = out
        out.pointee.format = left.frame.pointee.format
        out.pointee.width = left.frame.pointee.width * 2
        out.pointee.height = left.frame.pointee.height
        guard av_frame_get_buffer(out, 0) >= 0 else {
            av_frame_free(&owned)
            throw MediaError(path: "frame \(left.index)", reason: .other("out of memory"))
        }
        av_frame_copy_props(out, left.frame)
        sk_frame_side_by_side(left.frame, right.frame, out)
        return VideoFrame(taking: out, index: left.index, pts: left.pts, duration: left.duration, time: left.time)
    }

    /// The Y' (luma) plane sampled on a grid: row-major, one byte per (x in `xs`, y in `ys`),
    /// each coordinate clamped into the frame.
    public func lumaGrid(xs: [Int], ys: [Int]) -> [UInt8] {
        let base = frame.pointee.data.0!, stride = Int(frame.pointee.linesize.0)
        let w = width, h = height
        var out = [UInt8](); out.reserveCapacity(xs.count * ys.count)
        for y in ys {
            let line = base + min(max(y, 0), h - 1) * stride
            for x in xs { out.append(line[min(max(x, 0), w - 1)]) }
        }
        return out
    }

    /// The Y' (luma) plane's bytes for a row, for tests and measurements.
    public func lumaRow(_ row: Int) -> [UInt8] {
        let line = frame.pointee.data.0! + row * Int(frame.pointee.linesize.0)
        return Array(UnsafeBufferPointer(start: line, count: width))
    }
}
