import FFmpeg

/// Seconds each stage of a clip spent working (not waiting for its neighbours).
public struct ClipStageTimes: Sendable, Equatable, Codable {
    public var decode: Double = 0
    public var detect: Double = 0
    public var track: Double = 0
    public var style: Double = 0
    public var encode: Double = 0

    public init() {}
}

/// What became of one clip.
public struct ClipReport: Sendable {
    public var input: String
    public var output: String?
    public var frames = 0
    /// Frames the container said it holds, if it said.
    public var expectedFrames: Int?
    /// Seconds of video, from the first frame's timestamp to the end of the last.
    public var duration = 0.0
    public var frameSize = (width: 0, height: 0)
    /// The track ids met.
    public var trackIDs = Set<Int>()
    /// How many tracks there were.
    public var tracks: Int { trackIDs.count }
    /// Frames the detector looked at.
    public var detections = 0
    /// Faces on frames: each tracked face counted once for every frame it is on.
    public var faceFrames = 0
    /// Of the faces drawn on frames, those laid as drawn on an earlier frame (they had only
    /// moved since: `DrawingCarrier`).
    public var carriedFaceFrames = 0
    public var damage = MediaReader.Damage()
    /// What happened to each audio or subtitle stream.
    public var streamNotes: [String] = []
    public var stages = ClipStageTimes()
    /// Wall-clock seconds.
    public var seconds = 0.0

    public init(input: String) { self.input = input }

    /// Frames a second, start to finish.
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }

    /// One line about damage met on the way, or nil when there was none.
    public var damageWarning: String? {
        let d = damage
        guard !d.isEmpty else { return nil }
        var parts: [String] = []
        if d.undecodablePackets > 0 { parts.append("\(d.undecodablePackets) damaged packet\(d.undecodablePackets == 1 ? "" : "s") skipped") }
        if d.damagedFrames > 0 { parts.append("\(d.damagedFrames) frame\(d.damagedFrames == 1 ? "" : "s") patched up by the decoder") }
        if let error = d.readError { parts.append(error.contains("truncated") ? error : "the file ends early (\(error))") }
        let at = d.firstAt.map { String(format: " from %.1f s", $0) } ?? ""
        let detail = d.detail.map { "; FFmpeg: \($0)" } ?? ""
        let of = expectedFrames.map { $0 != frames ? " of about \($0)" : "" } ?? ""
        return "\(input): damaged video\(at): \(parts.joined(separator: ", ")); \(frames)\(of) frames written\(detail)"
    }
}
