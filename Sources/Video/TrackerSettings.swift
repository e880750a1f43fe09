/// How faces are followed through a clip.
public struct TrackerSettings: Sendable, Equatable, Codable {
    /// Seconds a face may go unseen (occluded, turned away, missed) and keep its track and style.
    public var maxMiss: Double
    /// Seconds a style takes to fade in before a face's first sighting and out after its last.
    public var fade: Double
    /// The detector runs on every n-th frame; 0 = about three times a second (faces are
    /// followed by their motion in between).
    public var detectEvery: Int
    /// Sightings before a track is drawn, so that a single false detection never flashes.
    public var confirmSightings: Int
    /// The detector's box noise, as a fraction of the face size (smoothing strength).
    public var measurementNoise: Double
    /// How quickly a face may change speed, in face sizes per second² (higher follows sudden
    /// moves more closely, lower smooths more).
    public var acceleration: Double

    public init(maxMiss: Double = 0.5, fade: Double = 0.2, detectEvery: Int = 0, confirmSightings: Int = 2,
                measurementNoise: Double = 0.02, acceleration: Double = 4) {
        self.maxMiss = maxMiss; self.fade = fade; self.detectEvery = detectEvery; self.confirmSightings = confirmSightings
        self.measurementNoise = measurementNoise; self.acceleration = acceleration
    }

    /// Frames between detections at `frameRate`.
    public func detectionInterval(frameRate: Double) -> Int {
        if detectEvery > 0 { return detectEvery }
        return max(1, Int((frameRate / 3).rounded()))
    }
}
