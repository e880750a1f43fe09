/// What the edit prompt works on: a photo's faces (`EditingSession`) or a clip's tracked faces
/// (the Video module's `ClipEditingSession`). Either way the faces are `EditableFace`s with
/// stable ids in an `EditHistory`, saved in a session file as they change.
public protocol FaceEditingSession: AnyObject {
    var file: InputFile { get }
    /// The faces (a clip's: its tracks, each on the frame that shows it best) and their edits.
    var history: EditHistory { get }
    var detection: DetectionOptions { get }
    var resumed: Bool { get }
    var sessionPath: String { get }
    var previewPath: String { get }
    var exportPath: String { get }
    /// Whether the session file holds the faces now in effect.
    var isSaved: Bool { get }
    /// Edits made and not exported.
    var hasUnexportedChanges: Bool { get }
    /// "3 faces (1500×720)", "3 tracked faces (1920×1080, 60.0 s, 1800 frames)".
    var summary: String { get }

    /// Applies an edit and saves the session; returns whether a box was cut off at the edge.
    @discardableResult func perform(_ edit: Edit) throws -> Bool
    @discardableResult func undo() throws -> Edit
    @discardableResult func redo() throws -> Edit
    /// The edit that adds a face box (on a clip: on the frame shown at `time` seconds, followed
    /// from there; a photo takes no time).
    func addition(of box: FaceBox, style: FaceStyle?, at time: Double?) throws -> Edit
    /// Finds the faces again (an undoable edit); returns how many were found.
    func redetect(with detector: OpenCVFaceDetector, options: DetectionOptions) throws -> Int
    /// The face report for the boxes now in effect, each assessment numbered by its face's id.
    func assessments() throws -> [FaceAssessment]
    func writePreview() throws
    func export(compare: Bool) throws
}

extension EditingSession: FaceEditingSession {
    public var history: EditHistory { image.history }

    public var summary: String {
        "\(image.faces.count) face\(image.faces.count == 1 ? "" : "s") (\(image.photo.size.text))"
    }

    public func addition(of box: FaceBox, style: FaceStyle?, at time: Double?) throws -> Edit {
        if time != nil { throw EditingRefusal("a time (@SECONDS) is for clips; a photo has one moment") }
        return .add(face: image.history.nextFaceID, box: box, style: style)
    }

    public func assessments() throws -> [FaceAssessment] {
        let faces = image.faces
        // Boxes as edited: the detector's confidence no longer applies.
        let detected = faces.map { DetectedFace(box: $0.box, score: 1, landmarks: $0.landmarks) }
        var assessments = try FaceReport.analyse(photo: image.photo, faces: detected)
        for i in assessments.indices { assessments[i].index = faces[i].id }
        return assessments
    }
}

/// An editing command that does not apply to what is open (a clip's time given for a photo,
/// `detect` on a clip), in the person's words.
public struct EditingRefusal: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
