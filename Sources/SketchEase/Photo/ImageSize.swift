/// An image's size in pixels.
public struct ImageSize: Sendable, Equatable, Hashable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// "1500×720".
    public var text: String { "\(width)×\(height)" }
}

extension Photo {
    public var size: ImageSize { ImageSize(width: width, height: height) }
}
