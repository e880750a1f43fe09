extension BatchRunner {
    /// The faces to draw in one photo: as the plan says for photos it lists, otherwise every
    /// detected face in `options.style`.
    func styledFaces(for file: InputFile, detected: [DetectedFace]) throws -> [StyledFace] {
        guard let plan = options.plan, let entry = plan.entry(for: file.path) else {
            return detected.map { StyledFace(box: $0.box, style: options.style, landmarks: $0.landmarks) }
        }
        var history = EditHistory(detected: EditableFace.numbered(detected))
        do {
            for edit in try entry.edits(for: history, plan: plan.file) { try history.perform(edit) }
        } catch let error as SessionError {
            throw PhotoError(path: file.path, reason: .other(error.description))
        }
        return history.faces.compactMap { face in
            face.style.map { StyledFace(box: face.box, style: $0, landmarks: face.landmarks) }
        }
    }
}
