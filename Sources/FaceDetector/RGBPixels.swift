import Vips

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
