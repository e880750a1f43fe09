/// What a clip's editing session keeps besides a photo's: how its faces were followed and how
/// it is encoded, and the frame each box added by hand is on (it is followed from there).
/// Saved in the session file as `clip`; absent for a photo.
public struct ClipSessionSettings: Sendable, Equatable, Codable {
    public var maxMiss: Double
    public var fade: Double
    public var detectEvery: Int
    /// The export's container and encoder settings ("mp4", CRF, x264 preset).
    public var format: String
    public var crf: Int
    public var preset: String
    public var keepMetadata: Bool
    /// Face id (as text) → the frame its box was added on.
    public var addedOn: [String: Int]

    public init(maxMiss: Double, fade: Double, detectEvery: Int, format: String, crf: Int, preset: String,
                keepMetadata: Bool, addedOn: [String: Int] = [:]) {
        self.maxMiss = maxMiss; self.fade = fade; self.detectEvery = detectEvery
        self.format = format; self.crf = crf; self.preset = preset; self.keepMetadata = keepMetadata; self.addedOn = addedOn
    }

    enum CodingKeys: String, CodingKey {
        case maxMiss = "max_miss", fade, detectEvery = "detect_every", format, crf, preset
        case keepMetadata = "keep_metadata", addedOn = "added_on"
    }
}
