extension BatchRunner {
    /// The faces to draw in one photo of `size`: as the plan says for photos it lists, otherwise
    /// every detected face in `options.style`. Either way boxes follow `BoxRule`.
    func styledFaces(for file: InputFile, detected: [DetectedFace], size: ImageSize) throws -> [StyledFace] {
        guard let plan = options.plan, let entry = plan.entry(for: file.path) else {
            return detected.onPhoto(size).map { StyledFace(box: $0.box, style: options.style, landmarks: $0.landmarks) }
        }
        var history = EditHistory(detected: EditableFace.numbered(detected, in: size), imageSize: size)
        do {
            for edit in try entry.edits(for: history, plan: plan.file) { try history.perform(edit) }
        } catch let error as SessionError {
            throw PhotoError(path: file.path, reason: .other(error.description))
        } catch let error as EditError {
            throw PhotoError(path: file.path, reason: .other("\(plan.file): \(error)"))
        }
        return history.faces.compactMap { face in
            face.style.map { StyledFace(box: face.box, style: $0, landmarks: face.landmarks) }
        }
    }
}
