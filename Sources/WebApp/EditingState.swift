import Foundation
import SketchEase

/// What the page is sent of any open file, photo or clip, after every request that changes it:
/// which file, its size, its history's undo and redo, its export and session files, and what the
/// last request did. `PhotoState` and `ClipState` add their faces or tracks (`EditingAnswer`).
struct EditingState: Encodable, Sendable {
    /// The file's id in the library (a clip's too: the page's code keys on it).
    var photo: String
    var name: String
    var width: Int
    var height: Int
    /// The number in the preview's URL: it changes with every change.
    var revision: Int
    var canUndo: Bool
    var canRedo: Bool
    /// What undo and redo would do ("face 3 deleted").
    var undo: String?
    var redo: String?
    /// Whether the faces now in effect are exported, and the export is still there.
    var exported: Bool
    var output: String
    var session: String
    var resumed: Bool
    /// What the last request did, in the prompt's words.
    var message: String?

    init(entry: PhotoLibrary.Entry, session: some FaceEditingSession, width: Int, height: Int, revision: Int, message: String?) {
        let history = session.history
        photo = entry.id
        name = (entry.file.path as NSString).lastPathComponent
        self.width = width; self.height = height
        self.revision = revision
        canUndo = history.canUndo; canRedo = history.canRedo
        undo = history.nextUndo?.summary
        redo = history.nextRedo?.summary
        exported = session.exported && FileManager.default.fileExists(atPath: session.exportPath)
        output = session.exportPath
        self.session = session.sessionPath
        resumed = session.resumed
        self.message = message
    }
}

/// An answer made of the `EditingState` every open file has and the fields of its own kind,
/// written as one JSON object.
protocol EditingAnswer: Encodable, Sendable {
    associatedtype Own: Encodable
    var editing: EditingState { get }
    var own: Own { get }
}

extension EditingAnswer {
    func encode(to encoder: any Encoder) throws {
        try editing.encode(to: encoder)
        try own.encode(to: encoder)
    }
}
