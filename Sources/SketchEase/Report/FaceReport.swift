/// The face report: for each face found in a photo, its quality warnings and skin tone.
///
/// ```swift
/// let photo = try Photo.load(path: "portrait.jpg")
/// let faces = try detector.detect(in: photo, options: DetectionOptions())
/// for assessment in try FaceReport.analyse(photo: photo, faces: faces) {
///     assessment.summaryLines.forEach { print($0) }
/// }
/// ```
/// Faces without landmarks (the cascade fallback) are measured with landmarks placed at their
/// typical positions in the box, and say so (`landmarksEstimated`).
public enum FaceReport {
    /// `skinTone: false` leaves the skin tone unmeasured (nil), for callers that want only the
    /// checks (Live's capture guidance, about twice a second).
    public static func analyse(photo: Photo, faces: [DetectedFace],
                               thresholds: FaceQualityThresholds = .init(), skinTone: Bool = true) throws -> [FaceAssessment] {
        try faces.enumerated().map { offset, face in
            let (frame, estimated) = landmarkFrame(for: face)
            let measured = try FaceQualityMeter.measure(photo.rgb, box: face.box, frame: frame)
            var described = face
            if estimated { described.landmarks = frame.landmarks.map { Point(x: $0.x, y: $0.y) } }
            return FaceAssessment(index: offset + 1, face: described, landmarksEstimated: estimated,
                                  measurements: measured, warnings: thresholds.warnings(for: measured),
                                  skinTone: skinTone ? try SkinToneMeter.measure(photo.rgb, frame: frame) : nil)
        }
    }

    /// The face's landmark frame, and whether its landmarks had to be estimated from the box.
    static func landmarkFrame(for face: DetectedFace) -> (LandmarkFrame, estimated: Bool) {
        if let frame = LandmarkFrame(landmarks: face.landmarks.map { SIMD2($0.x, $0.y) }) { return (frame, false) }
        let b = face.box
        return (LandmarkFrame(estimatedIn: (b.x, b.y, b.width, b.height)), true)
    }
}
