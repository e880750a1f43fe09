import FFmpeg
import FaceDetector

/// A picture whose faces' head mattes are cut and carried (`MatteCarrier`): a decoded frame of a
/// clip, or a live camera's frame as packed RGB.
public protocol MatteSource {
    var width: Int { get }
    var height: Int { get }
    /// A grey of the picture (its luma) sampled on a grid: row-major, one byte per (x in `xs`,
    /// y in `ys`), each coordinate clamped into the picture. Only compared with itself, frame
    /// to frame, so any fixed grey will do.
    func lumaGrid(xs: [Int], ys: [Int]) -> [UInt8]
    /// Packed 8-bit RGB of a rectangle inside the picture (even corners and sides).
    func rgb(x: Int, y: Int, width: Int, height: Int) -> [UInt8]
}

extension VideoFrame: MatteSource {}

extension RGBPixels: MatteSource {
    /// Rec. 601 luma, in integers.
    public func lumaGrid(xs: [Int], ys: [Int]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(xs.count * ys.count)
        for y in ys {
            let row = min(max(y, 0), height - 1) * rowBytes
            for x in xs {
                let i = row + min(max(x, 0), width - 1) * 3
                let r = 77 * Int(bytes[i]), g = 150 * Int(bytes[i + 1]), b = 29 * Int(bytes[i + 2])
                out.append(UInt8((r + g + b) >> 8))
            }
        }
        return out
    }

    public func rgb(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height, "rectangle must be inside the picture")
        var out = [UInt8]()
        out.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let from = row * rowBytes + x * 3
            out.append(contentsOf: bytes[from..<(from + width * 3)])
        }
        return out
    }
}
