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

    /// The smallest rectangle of whole pixels holding `box`; nil for a box that is not usable
    /// (non-finite, empty or absurdly far out), which no pixel rectangle can hold.
    public init?(enclosing box: FaceBox) {
        guard box.isUsable else { return nil }
        let x0 = Int(box.x.rounded(.down)), y0 = Int(box.y.rounded(.down))
        let x1 = Int(box.maxX.rounded(.up)), y1 = Int(box.maxY.rounded(.up))
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func intersects(_ other: PixelRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The part inside `other`; nil where they do not overlap.
    public func clipped(to other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
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
