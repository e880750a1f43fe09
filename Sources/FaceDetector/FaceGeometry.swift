/// A point in image pixel coordinates.
public struct Point: Codable, Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// An axis-aligned face box in upright image pixel coordinates.
public struct FaceBox: Codable, Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

    /// The largest coordinate any box may have (pixels); beyond it a box is not from a photo.
    public static let coordinateLimit = 10_000_000.0

    /// Finite, with a positive size, and within `coordinateLimit`: safe to turn into pixels.
    /// Boxes read from files (sessions, plans) must pass this before they are drawn.
    public var isUsable: Bool {
        [x, y, width, height].allSatisfy { $0.isFinite && abs($0) <= Self.coordinateLimit } && width > 0 && height > 0
    }
    public var area: Double { max(0, width) * max(0, height) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The box scaled about its centre.
    public func grown(by factor: Double) -> FaceBox {
        let c = center
        return FaceBox(x: c.x - width * factor / 2, y: c.y - height * factor / 2,
                       width: width * factor, height: height * factor)
    }

    /// The box moved by (dx, dy).
    public func offset(dx: Double, dy: Double) -> FaceBox { FaceBox(x: x + dx, y: y + dy, width: width, height: height) }

    /// The box with every coordinate multiplied (for mapping between image sizes).
    public func scaled(x sx: Double, y sy: Double) -> FaceBox {
        FaceBox(x: x * sx, y: y * sy, width: width * sx, height: height * sy)
    }

    public func intersection(_ other: FaceBox) -> FaceBox? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return FaceBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Intersection over union, 0...1.
    public func iou(_ other: FaceBox) -> Double {
        guard let i = intersection(other) else { return 0 }
        return i.area / (area + other.area - i.area)
    }

    /// The share of the smaller box that lies inside the other, 0...1.
    public func overlapOfSmaller(_ other: FaceBox) -> Double {
        guard let i = intersection(other) else { return 0 }
        return i.area / min(area, other.area)
    }

    /// The shorter side.
    public var shorterSide: Double { min(width, height) }

    /// Whether `p` lies inside (left and top edges included).
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }

    /// `p` moved to the nearest point of the box (edges included); a point inside stays put.
    public func clamped(_ p: Point) -> Point { Point(x: min(max(p.x, x), maxX), y: min(max(p.y, y), maxY)) }

    /// As `[x, y, w, h]`, the JSON form.
    public var array: [Double] { [x, y, width, height] }
}

/// The five CenterFace landmarks, in image terms (left = smaller x in the upright photo).
public enum Landmark: Int, CaseIterable, Codable, Sendable {
    case leftEye, rightEye, nose, mouthLeft, mouthRight

    public var name: String {
        switch self {
        case .leftEye: "left_eye"
        case .rightEye: "right_eye"
        case .nose: "nose"
        case .mouthLeft: "mouth_left"
        case .mouthRight: "mouth_right"
        }
    }
}

/// One face found by a detector.
public struct DetectedFace: Codable, Equatable, Sendable {
    public var box: FaceBox
    /// Detector confidence, 0...1; nil from a detector that gives none (the cascade fallback).
    public var score: Double?
    /// Five points in `Landmark` order, or empty when the detector gives none.
    public var landmarks: [Point]

    public init(box: FaceBox, score: Double?, landmarks: [Point] = []) {
        self.box = box; self.score = score; self.landmarks = landmarks
    }

    public func landmark(_ which: Landmark) -> Point? {
        landmarks.indices.contains(which.rawValue) ? landmarks[which.rawValue] : nil
    }

    public func scaled(x sx: Double, y sy: Double) -> DetectedFace {
        DetectedFace(box: box.scaled(x: sx, y: sy), score: score,
                     landmarks: landmarks.map { Point(x: $0.x * sx, y: $0.y * sy) })
    }

    /// Moved by (dx, dy), landmarks with it.
    public func offset(dx: Double, dy: Double) -> DetectedFace {
        DetectedFace(box: box.offset(dx: dx, dy: dy), score: score,
                     landmarks: landmarks.map { Point(x: $0.x + dx, y: $0.y + dy) })
    }
}
