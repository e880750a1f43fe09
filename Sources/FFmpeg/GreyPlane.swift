import CAV

/// A small 8-bit grey copy of a frame, and how it maps to the frame.
public struct GreyPlane: Sendable {
    public let pixels: [UInt8]
    public let width: Int
    public let height: Int
    /// Its pixels per frame pixel.
    public let scale: Double

    public init(pixels: [UInt8], width: Int, height: Int, scale: Double) {
        self.pixels = pixels; self.width = width; self.height = height; self.scale = scale
    }

    /// How the block (x, y, w, h), in this plane's pixels, moved from `self` to `next`, searching
    /// up to `radius` pixels each way: the offset and the mean absolute difference left (0...255),
    /// or nil when the block is not inside the plane.
    public func motion(to next: GreyPlane, x: Int, y: Int, width w: Int, height h: Int, radius: Int) -> (dx: Double, dy: Double, cost: Double)? {
        precondition(next.width == width && next.height == height, "planes of different sizes")
        var dx = 0.0, dy = 0.0
        let cost = sk_plane_track(pixels, next.pixels, Int32(width), Int32(width), Int32(height), Int32(x), Int32(y),
                                  Int32(w), Int32(h), Int32(radius), &dx, &dy)
        return cost < 0 ? nil : (dx, dy, cost)
    }

    /// The block's pixels, or nil when it is not inside the plane.
    public func block(x: Int, y: Int, width w: Int, height h: Int) -> [UInt8]? {
        guard x >= 0, y >= 0, w > 0, h > 0, x + w <= width, y + h <= height else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(w * h)
        for row in y..<(y + h) { out.append(contentsOf: pixels[(row * width + x)..<(row * width + x + w)]) }
        return out
    }

    /// Mean absolute difference between `block` (w × h) and this plane's pixels at (x, y), or
    /// nil when that place is not inside the plane.
    public func difference(from block: [UInt8], x: Int, y: Int, width w: Int, height h: Int) -> Double? {
        guard x >= 0, y >= 0, w > 0, h > 0, x + w <= width, y + h <= height, block.count == w * h else { return nil }
        var sum = 0
        for row in 0..<h {
            for col in 0..<w { sum += abs(Int(block[row * w + col]) - Int(pixels[(y + row) * width + x + col])) }
        }
        return Double(sum) / Double(w * h)
    }

    /// Mean absolute deviation from its mean of the block: how much texture it has to match on.
    public func texture(x: Int, y: Int, width w: Int, height h: Int) -> Double {
        guard x >= 0, y >= 0, w > 0, h > 0, x + w <= width, y + h <= height else { return 0 }
        var sum = 0
        for row in y..<(y + h) { for col in x..<(x + w) { sum += Int(pixels[row * width + col]) } }
        let mean = Double(sum) / Double(w * h)
        var deviation = 0.0
        for row in y..<(y + h) { for col in x..<(x + w) { deviation += abs(Double(pixels[row * width + col]) - mean) } }
        return deviation / Double(w * h)
    }
}
