import Foundation
import Synchronization
import SketchEase

/// One photo open in the browser: its `EditingSession` (the same type `edit` uses, saving the
/// same session file after every change), the photo reduced once to display size for
/// previews, and the face report for the boxes as they are.
final class Workspace: Sendable {
    let entry: PhotoLibrary.Entry
    private let detector: OpenCVFaceDetector
    private let state: Mutex<State>
    /// Every change anywhere gets a new number, so a preview's URL names exactly one picture.
    private static let revisions = Atomic<Int>(0)

    private struct State {
        var session: EditingSession
        var revision: Int
        var reduced: ReducedPhoto
        /// The face report's warnings by face id, for the boxes in `reportKey`.
        var warnings: [Int: [FaceQualityWarning]] = [:]
        var reportKey: [FaceBox]? = nil
    }

    /// Opens the photo: resumes its session from the output folder, or detects its faces.
    init(entry: PhotoLibrary.Entry, settings: ServeSettings, detector: OpenCVFaceDetector, displaySide: Int) throws {
        self.entry = entry
        self.detector = detector
        let session = try EditingSession(file: entry.file, outputFolder: settings.outputFolder, detector: detector,
                                         detection: settings.detection, render: settings.render,
                                         export: settings.export, pixelLimit: settings.pixelLimit)
        let reduced = try session.image.photo.reduced(maxSide: displaySide)
        state = Mutex(State(session: session, revision: Self.nextRevision(), reduced: reduced))
    }

    private static func nextRevision() -> Int { revisions.wrappingAdd(1, ordering: .relaxed).newValue }

    // MARK: - Reading

    /// What the page shows: faces with styles and warnings, undo state, files.
    func snapshot(message: String? = nil) throws -> PhotoState {
        try state.withLock { state in
            try Self.refreshReport(&state)
            return PhotoState(entry: entry, state: state.session, revision: state.revision, displayScale: state.reduced.scale,
                              warnings: state.warnings, message: message)
        }
    }

    /// The preview at display size: the faces as they are, or with `trial` applied (a slider
    /// being moved, or an edit drawn while it is being recorded: shown, not recorded). A trial
    /// made for an earlier revision is not applied again: the change it tries has landed.
    /// Encoded as JPEG.
    func preview(trial: Edit? = nil, onRevision base: Int? = nil) throws -> [UInt8] {
        let (image, reduced, compositor, revision) = state.withLock {
            ($0.session.image, $0.reduced, $0.session.compositor, $0.revision)
        }
        let trial = base == nil || base == revision ? trial : nil
        var shown = image
        if let trial { try shown.perform(trial) }
        return try shown.render(on: reduced, with: compositor).encoded(as: Self.previewFormat)
    }

    /// The photo as it was taken, at display size: the "before" of the before/after view.
    func original() throws -> [UInt8] {
        try state.withLock { $0.reduced }.image.encoded(as: Self.previewFormat)
    }

    /// Face `id` alone in `style`, for the style picker.
    func sample(face id: Int, style: FaceStyle, side: Int) throws -> [UInt8] {
        let (image, compositor) = state.withLock { ($0.session.image, $0.session.compositor) }
        return try image.sample(face: id, style: style, maxSide: side, with: compositor).encoded(as: ".jpg[Q=85,strip]")
    }

    static let previewFormat = ".jpg[Q=88,strip]"

    /// The files the faces' styles name now (chroma's picture, set at the prompt).
    func namedFiles() -> Set<String> {
        let styles = state.withLock { $0.session.image.faces.compactMap(\.style) }
        return Set(styles.flatMap { Self.files(namedBy: $0).map(\.file) })
    }

    /// The style's `path` parameters that are set, with their values.
    static func files(namedBy style: FaceStyle, registry: FilterRegistry = .standard) -> [(parameter: String, file: String)] {
        guard let filter = try? registry.filter(style.filterID) else { return [] }
        return filter.parameters.compactMap { p in
            guard case .path = p.kind, let value = style.settings.values[p.id], !value.text.isEmpty else { return nil }
            return (p.id, value.text)
        }
    }

    /// The exported PNG's path and bytes, if it has been exported.
    func exported() -> (path: String, data: Data)? {
        let path = state.withLock { $0.session.exportPath }
        return (try? Data(contentsOf: URL(fileURLWithPath: path))).map { (path, $0) }
    }

    /// The reduced photo at `side` if the page now shows a different size.
    func resize(displaySide: Int) throws {
        let current = state.withLock { max($0.reduced.image.width, $0.reduced.image.height) }
        let photo = state.withLock { $0.session.image.photo }
        let wanted = min(displaySide, max(photo.width, photo.height))
        guard abs(current - wanted) > 1 else { return }
        let reduced = try photo.reduced(maxSide: displaySide)
        state.withLock { $0.reduced = reduced; $0.revision = Self.nextRevision() }
    }

    // MARK: - Changing

    /// Applies an edit from the page (the session saves itself); answers with the new state.
    func perform(_ edit: Edit) throws -> PhotoState {
        try change { try $0.performSaying(edit) }
    }

    /// A box drawn for a face the detector missed, with the next free number.
    func addFace(box: FaceBox, style: FaceStyle?) throws -> PhotoState {
        try change { session in
            try session.performSaying(try session.addition(of: box, style: style, at: nil))
        }
    }

    func undo() throws -> PhotoState {
        try change { try $0.undoSaying() }
    }

    func redo() throws -> PhotoState {
        try change { try $0.redoSaying() }
    }

    func redetect(threshold: Double) throws -> PhotoState {
        try change { session in
            var options = session.detection
            options.threshold = threshold
            return try session.redetectSaying(with: detector, options: options)
        }
    }

    /// Writes `OUT/<name>.png` (or the format asked for) as `edit` and `apply` do.
    func export() throws -> PhotoState {
        try state.withLock { state in
            try state.session.export(compare: false)
            try Self.refreshReport(&state)
            return PhotoState(entry: entry, state: state.session, revision: state.revision, displayScale: state.reduced.scale,
                              warnings: state.warnings, message: "exported \(state.session.exportPath)")
        }
    }

    /// Runs a change under the lock (the session saves it at once, as at the prompt). A change
    /// that throws leaves everything as it was.
    private func change(_ body: (EditingSession) throws -> String) throws -> PhotoState {
        try state.withLock { state in
            let message = try body(state.session)
            state.revision = Self.nextRevision()
            try Self.refreshReport(&state)
            return PhotoState(entry: entry, state: state.session, revision: state.revision, displayScale: state.reduced.scale,
                              warnings: state.warnings, message: message)
        }
    }

    /// The face report for the boxes now in effect, measured again only when a box changed
    /// (a new style does not change what the report measures).
    private static func refreshReport(_ state: inout State) throws {
        let faces = state.session.image.faces
        let key = faces.map(\.box)
        guard key != state.reportKey else { return }
        let detected = faces.map { DetectedFace(box: $0.box, score: 1, landmarks: $0.landmarks) }
        let assessments = try FaceReport.analyse(photo: state.session.image.photo, faces: detected)
        state.warnings = Dictionary(uniqueKeysWithValues: zip(faces.map(\.id), assessments.map(\.warnings)))
        state.reportKey = key
    }
}
