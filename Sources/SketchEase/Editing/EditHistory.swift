/// The detected faces and the ordered edits made to them, with an undo position.
///
/// The current faces are always `replay(detected, edits[..<position])`: undo and redo only move
/// the position, so every kind of edit is undoable and a face deleted and then restored by undo
/// comes back exactly as it was (same id, box, landmarks and style). A new edit after an undo
/// drops the edits that could have been redone.
public struct EditHistory: Sendable, Equatable, Codable {
    /// The faces as detected (or as a plan or session began), before any edit.
    public private(set) var detected: [EditableFace]
    public private(set) var edits: [Edit]
    /// How many of `edits` are in effect (the rest can be redone).
    public private(set) var position: Int
    /// The faces after the edits in effect.
    public private(set) var faces: [EditableFace]

    public init(detected: [EditableFace]) {
        self.detected = detected; edits = []; position = 0; faces = detected
    }

    /// Rebuilds a history (from a session file), checking that every edit applies.
    public init(detected: [EditableFace], edits: [Edit], position: Int) throws {
        guard (0...edits.count).contains(position) else {
            throw EditError.invalidBox("undo position \(position) outside 0...\(edits.count)")
        }
        try Self.checkUniqueIDs(detected)
        try Self.checkBoxes(detected)
        self.detected = detected; self.edits = edits; self.position = position
        var state = detected
        for edit in edits { state = try Self.apply(edit, to: state) }
        faces = try Self.replay(detected, edits[..<position])
    }

    public var canUndo: Bool { position > 0 }
    public var canRedo: Bool { position < edits.count }

    /// The id a newly added face gets: one more than any id ever used in this history.
    public var nextFaceID: Int {
        var ids = detected.map(\.id)
        for edit in edits {
            switch edit {
            case .add(let id, _, _): ids.append(id)
            case .redetect(let faces): ids += faces.map(\.id)
            default: break
            }
        }
        return (ids.max() ?? 0) + 1
    }

    public func face(_ id: Int) -> EditableFace? { faces.first { $0.id == id } }

    /// Applies `edit` (throws, changing nothing, if it does not fit the current faces).
    public mutating func perform(_ edit: Edit) throws {
        let next = try Self.apply(edit, to: faces)
        edits.removeSubrange(position...)
        edits.append(edit)
        position = edits.count
        faces = next
    }

    @discardableResult
    public mutating func undo() throws -> Edit {
        guard canUndo else { throw EditError.nothingToUndo }
        position -= 1
        faces = try Self.replay(detected, edits[..<position])
        return edits[position]
    }

    @discardableResult
    public mutating func redo() throws -> Edit {
        guard canRedo else { throw EditError.nothingToRedo }
        faces = try Self.apply(edits[position], to: faces)
        position += 1
        return edits[position - 1]
    }

    static func replay(_ start: [EditableFace], _ edits: ArraySlice<Edit>) throws -> [EditableFace] {
        try edits.reduce(start) { try apply($1, to: $0) }
    }

    /// The faces after one edit: a pure function.
    static func apply(_ edit: Edit, to faces: [EditableFace]) throws -> [EditableFace] {
        var faces = faces
        func index(_ id: Int) throws -> Int {
            guard let i = faces.firstIndex(where: { $0.id == id }) else {
                throw EditError.noSuchFace(id, known: faces.map(\.id))
            }
            return i
        }
        switch edit {
        case .setStyle(let ids, let style):
            for i in try ids.map(index) { faces[i].style = style }
        case .removeStyle(let ids):
            for i in try ids.map(index) { faces[i].style = nil }
        case .move(let id, let dx, let dy):
            guard dx.isFinite, dy.isFinite else { throw EditError.invalidBox("move must be finite") }
            let i = try index(id)
            faces[i] = faces[i].moved(dx: dx, dy: dy)
        case .resize(let id, let w, let h):
            try checkSize(w, h)
            let i = try index(id)
            faces[i] = faces[i].resized(width: w, height: h)
        case .add(let id, let box, let style):
            guard !faces.contains(where: { $0.id == id }) else { throw EditError.duplicateFace(id) }
            try checkSize(box.width, box.height)
            guard box.x.isFinite, box.y.isFinite else { throw EditError.invalidBox("position must be finite") }
            faces.append(EditableFace(id: id, box: box, style: style))
        case .delete(let id):
            faces.remove(at: try index(id))
        case .redetect(let fresh):
            try checkUniqueIDs(fresh)
            faces = fresh
        }
        try checkBoxes(faces)
        return faces
    }

    /// Every box must be drawable: finite, non-empty, within `FaceBox.coordinateLimit`.
    private static func checkBoxes(_ faces: [EditableFace]) throws {
        if let bad = faces.first(where: { !$0.box.isUsable }) {
            throw EditError.invalidBox("face \(bad.id) has an unusable box \(bad.box.array)")
        }
    }

    private static func checkSize(_ w: Double, _ h: Double) throws {
        guard w.isFinite, h.isFinite, w >= 2, h >= 2 else {
            throw EditError.invalidBox("width and height must be at least 2 pixels")
        }
    }

    private static func checkUniqueIDs(_ faces: [EditableFace]) throws {
        var seen = Set<Int>()
        for f in faces where !seen.insert(f.id).inserted { throw EditError.duplicateFace(f.id) }
    }
}
