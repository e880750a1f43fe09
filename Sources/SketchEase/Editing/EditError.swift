/// An edit that cannot be applied to the faces as they are.
public enum EditError: Error, Equatable, CustomStringConvertible, Sendable {
    case noSuchFace(Int, known: [Int])
    case duplicateFace(Int)
    case invalidBox(String)
    case nothingToUndo
    case nothingToRedo

    public var description: String {
        switch self {
        case .noSuchFace(let id, let known):
            known.isEmpty ? "there is no face \(id) (no faces; `add` draws one)"
                : "there is no face \(id) (faces: \(known.map(String.init).joined(separator: ", ")))"
        case .duplicateFace(let id): "face \(id) already exists"
        case .invalidBox(let why): "invalid box: \(why)"
        case .nothingToUndo: "nothing to undo"
        case .nothingToRedo: "nothing to redo"
        }
    }
}
