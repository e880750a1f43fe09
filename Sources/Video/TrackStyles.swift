import SketchEase

/// Which style each tracked face gets.
public struct TrackStyles: Sendable, Equatable {
    /// Styles (or nil: left as filmed) for tracks named by id.
    public var byTrack: [Int: FaceStyle?]
    /// The style of every track not named (nil: left as filmed).
    public var others: FaceStyle?

    public init(others: FaceStyle?, byTrack: [Int: FaceStyle?] = [:]) {
        self.others = others; self.byTrack = byTrack
    }

    public func style(forTrack id: Int) -> FaceStyle? {
        if let named = byTrack[id] { return named }
        return others
    }
}
