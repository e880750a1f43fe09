import Vips

/// A rectangle of whole pixels.
public struct PixelRect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { width * height }
    public var description: String { "\(width)×\(height) at (\(x), \(y))" }

    public func intersects(_ other: PixelRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Grown by `margin` on every side, then clipped to `width` × `height`.
    public func grown(by margin: Int, within width: Int, _ height: Int) -> PixelRect {
        let x0 = max(0, x - margin), y0 = max(0, y - margin)
        return PixelRect(x: x0, y: y0, width: min(width, maxX + margin) - x0, height: min(height, maxY + margin) - y0)
    }
}

/// Packed 8-bit RGB pixels, row after row (R, G, B byte order): what the face networks read.
/// Regions are read in place, so the tiles of an image cost no copies.
public struct RGBPixels: Sendable {
    public let width: Int
    public let height: Int
    public private(set) var bytes: [UInt8]

    /// Black pixels.
    public init(width: Int, height: Int) {
        self.width = width; self.height = height
        bytes = [UInt8](repeating: 0, count: width * height * 3)
    }

    /// The image's pixels as 3-band, 8-bit sRGB (computed now).
    public init(_ image: VipsImage) throws {
        var img = image
        if img.interpretation != .srgb || img.bands < 3 { img = try img.colourspace(.srgb) }
        if img.format != .uchar { img = try img.cast(.uchar) }
        if img.bands > 3 { img = try img.extractBands(0, count: 3) }
        width = img.width; height = img.height
        bytes = try img.pixels()
    }

    public var rowBytes: Int { width * 3 }
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Copies `other` in with its top-left corner at (x, y); what falls outside is dropped.
    public mutating func paste(_ other: RGBPixels, x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(width, x + other.width)
        guard x1 > x0 else { return }
        for row in max(0, y)..<min(height, y + other.height) {
            let from = (row - y) * other.rowBytes + (x0 - x) * 3
            let to = row * rowBytes + x0 * 3
            bytes.replaceSubrange(to..<(to + (x1 - x0) * 3), with: other.bytes[from..<(from + (x1 - x0) * 3)])
        }
    }

    /// Calls `body` with the first byte of `region` (inside the image) and the row stride.
    func withRegion<R>(_ region: PixelRect, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        precondition(region.x >= 0 && region.y >= 0 && region.maxX <= width && region.maxY <= height && region.area > 0,
                     "region \(region) outside a \(width)×\(height) image")
        return try bytes.withUnsafeBufferPointer { buffer in
            try body(buffer.baseAddress! + region.y * rowBytes + region.x * 3, rowBytes)
        }
    }
}
