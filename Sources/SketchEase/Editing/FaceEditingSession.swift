import Foundation

/// What the edit prompt works on: a photo's faces (`EditingSession`) or a clip's tracked faces
/// (the Video module's `ClipEditingSession`). Either way the faces are `EditableFace`s with
/// stable ids in an `EditHistory`, saved in a session file as they change.
public protocol FaceEditingSession: AnyObject {
    var file: InputFile { get }
    /// The faces (a clip's: its tracks, each on the frame that shows it best) and their edits.
    var history: EditHistory { get }
    var detection: DetectionOptions { get }
    var resumed: Bool { get }
    var exportPath: String { get }
    /// Whether the faces now in effect have been exported.
    var exported: Bool { get }
    /// Whether the session file holds the faces now in effect.
    var isSaved: Bool { get }
    /// "3 faces (1500×720)", "3 tracked faces (1920×1080, 60.0 s, 1800 frames)".
    var summary: String { get }
    /// What a face's box is cut off at: "photo", "frame".
    var picture: String { get }

    /// Runs `body` on the history (an edit, an undo, a redo), then marks the export out of date
    /// and saves the session: the one way the faces change (`perform`, `undo` and `redo` are
    /// written on it).
    func change<Result>(_ body: (inout EditHistory) throws -> Result) throws -> Result
    /// Writes the session file (`sessionPath`).
    func save() throws
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

/// What every session does alike: its files, and applying, undoing and redoing edits.
extension FaceEditingSession {
    /// `OUT/.sketchease/<name>.sketchease.json`.
    public var sessionPath: String { SessionFile.path(forExport: exportPath) }
    /// `OUT/.sketchease/<name>.preview.png`.
    public var previewPath: String {
        (sessionPath.parentPath as NSString)
            .appendingPathComponent(((exportPath as NSString).lastPathComponent as NSString).deletingPathExtension + ".preview.png")
    }

    /// Edits made and not exported.
    public var hasUnexportedChanges: Bool { !exported && !history.edits.isEmpty }

    /// Applies an edit and saves the session; returns whether a box was cut off at the edge.
    @discardableResult public func perform(_ edit: Edit) throws -> Bool { try change { try $0.perform(edit) } }
    @discardableResult public func undo() throws -> Edit { try change { try $0.undo() } }
    @discardableResult public func redo() throws -> Edit { try change { try $0.redo() } }

    // The words every front end says after a change (the prompt, the browser's photo and clip pages).

    /// Applies an edit and says so: "face 2 resized to 1627×2067", with " (cut off at the
    /// photo's edge: now 1466×720 at 34, 0)" where its box was.
    public func performSaying(_ edit: Edit) throws -> String {
        guard try perform(edit) else { return edit.summary }
        let id: Int? = switch edit {
        case .move(let id, _, _), .resize(let id, _, _), .add(let id, _, _): id
        default: nil
        }
        guard let id, let box = history.face(id)?.box else { return edit.summary + " (cut off at the \(picture)'s edge)" }
        return edit.summary + " (cut off at the \(picture)'s edge: now \(Rounding.size(box)) at \(Rounding.corner(box)))"
    }

    /// Undoes the last edit in effect: "undone: face 2: pencil".
    public func undoSaying() throws -> String { "undone: " + (try undo()).summary }

    /// Puts back the edit last undone: "redone: face 2: pencil".
    public func redoSaying() throws -> String { "redone: " + (try redo()).summary }

    /// Finds the faces again with `options`: "found 3 faces (threshold 0.5)".
    public func redetectSaying(with detector: OpenCVFaceDetector, options: DetectionOptions) throws -> String {
        let count = try redetect(with: detector, options: options)
        return "found \(count) face\(count == 1 ? "" : "s") (threshold \(options.threshold))"
    }
}

extension EditingSession: FaceEditingSession {
    public var history: EditHistory { image.history }
    public var picture: String { "photo" }

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
