/// The detected faces and the ordered edits made to them, with an undo position.
///
/// The current faces are always `replay(detected, edits[..<position])`: undo and redo only move
/// the position, so every kind of edit is undoable and a face deleted and then restored by undo
/// comes back exactly as it was (same id, box, landmarks and style). A new edit after an undo
/// drops the edits that could have been redone. Every box an edit sets follows `BoxRule` for the
/// photo's size.
public struct EditHistory: Sendable, Equatable {
    /// The faces as detected (or as a plan or session began), before any edit.
    public private(set) var detected: [EditableFace]
    public private(set) var edits: [Edit]
    /// How many of `edits` are in effect (the rest can be redone).
    public private(set) var position: Int
    /// The faces after the edits in effect.
    public private(set) var faces: [EditableFace]
    /// The photo's size: boxes are kept to it.
    public let imageSize: ImageSize

    public init(detected: [EditableFace], imageSize: ImageSize) {
        self.detected = detected; edits = []; position = 0; faces = detected; self.imageSize = imageSize
    }

    /// Rebuilds a history (from a session file), checking that every face lies on the photo and
    /// every edit applies.
    public init(detected: [EditableFace], edits: [Edit], position: Int, imageSize: ImageSize) throws {
        guard (0...edits.count).contains(position) else {
            throw EditError.invalidBox("undo position \(position) outside 0...\(edits.count)")
        }
        try Self.checkUniqueIDs(detected)
        for face in detected { _ = try BoxRule.fit(face.box, in: imageSize) }
        self.detected = detected; self.edits = edits; self.position = position; self.imageSize = imageSize
        var state = detected
        for edit in edits { state = try Self.apply(edit, to: state, in: imageSize) }
        faces = try Self.replay(detected, edits[..<position], in: imageSize)
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

    /// Applies `edit` (throws, changing nothing, if it does not fit the current faces). Returns
    /// whether a box was cut off at the photo's edge.
    @discardableResult
    public mutating func perform(_ edit: Edit) throws -> Bool {
        let next = try Self.apply(edit, to: faces, in: imageSize)
        edits.removeSubrange(position...)
        edits.append(edit)
        position = edits.count
        let clipped = Self.clipped(edit, before: faces, after: next)
        faces = next
        return clipped
    }

    /// The style the photo around the faces is drawn in: the last `background` edit's in effect,
    /// else `start` (the session's own, from `--background-filter`).
    public func background(from start: FaceStyle?) -> FaceStyle? {
        for edit in edits[..<position].reversed() {
            if case .background(let style) = edit { return style }
        }
        return start
    }

    /// The render options in effect: `options` with the background the edits chose.
    public func rendering(_ options: RenderOptions) -> RenderOptions {
        var options = options
        options.background = background(from: options.background)
        return options
    }

    /// The edit `undo` would take back, and the one `redo` would put back (nil: none).
    public var nextUndo: Edit? { canUndo ? edits[position - 1] : nil }
    public var nextRedo: Edit? { canRedo ? edits[position] : nil }

    @discardableResult
    public mutating func undo() throws -> Edit {
        guard canUndo else { throw EditError.nothingToUndo }
        position -= 1
        faces = try Self.replay(detected, edits[..<position], in: imageSize)
        return edits[position]
    }

    @discardableResult
    public mutating func redo() throws -> Edit {
        guard canRedo else { throw EditError.nothingToRedo }
        faces = try Self.apply(edits[position], to: faces, in: imageSize)
        position += 1
        return edits[position - 1]
    }

    static func replay(_ start: [EditableFace], _ edits: ArraySlice<Edit>, in size: ImageSize) throws -> [EditableFace] {
        try edits.reduce(start) { try apply($1, to: $0, in: size) }
    }

    /// The faces after one edit: a pure function.
    static func apply(_ edit: Edit, to faces: [EditableFace], in size: ImageSize) throws -> [EditableFace] {
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
            faces[i] = try faces[i].moved(dx: dx, dy: dy).fitted(in: size)
        case .resize(let id, let w, let h):
            let i = try index(id)
            faces[i] = try faces[i].resized(width: w, height: h).fitted(in: size)
        case .add(let id, let box, let style):
            guard !faces.contains(where: { $0.id == id }) else { throw EditError.duplicateFace(id) }
            faces.append(try EditableFace(id: id, box: box, style: style).fitted(in: size))
        case .delete(let ids):
            for i in try ids.map(index).sorted(by: >) { faces.remove(at: i) }
        case .redetect(let fresh):
            try checkUniqueIDs(fresh)
            faces = try fresh.map { try $0.fitted(in: size) }
        case .background:
            break // the faces stay as they are (`background(from:)`)
        }
        return faces
    }

    /// Whether `edit` left a box smaller than it asked for (cut off at the photo's edge).
    private static func clipped(_ edit: Edit, before: [EditableFace], after: [EditableFace]) -> Bool {
        func box(_ id: Int) -> FaceBox? { after.first { $0.id == id }?.box }
        switch edit {
        case .move(let id, _, _):
            guard let old = before.first(where: { $0.id == id })?.box, let new = box(id) else { return false }
            return new.width != old.width || new.height != old.height
        case .resize(let id, let w, let h):
            guard let new = box(id) else { return false }
            return new.width != w || new.height != h
        case .add(let id, let asked, _):
            return box(id) != asked
        default:
            return false
        }
    }

    private static func checkUniqueIDs(_ faces: [EditableFace]) throws {
        var seen = Set<Int>()
        for f in faces where !seen.insert(f.id).inserted { throw EditError.duplicateFace(f.id) }
    }
}

extension EditableFace {
    /// This face with its box kept to a photo of `size` (see `BoxRule`).
    func fitted(in size: ImageSize) throws -> EditableFace {
        var face = self
        face.box = try BoxRule.fit(box, in: size).box
        return face
    }
}
