/// An edit that cannot be applied to the faces as they are.
public enum EditError: Error, Equatable, CustomStringConvertible, Sendable {
    case noSuchFace(Int, known: [Int])
    /// A word where a face number was expected.
    case notAFace(String, known: [Int])
    case duplicateFace(Int)
    case invalidBox(String)
    /// The box would lie (almost) entirely outside a photo of this size.
    case offPhoto(ImageSize)
    case nothingToUndo
    case nothingToRedo

    public var description: String {
        switch self {
        case .noSuchFace(let id, let known):
            known.isEmpty ? "this photo has no faces (`add X Y W H` draws one)"
                : "there is no face \(id) (faces: \(FaceSelection.describe(known)))"
        case .notAFace(let word, let known):
            "'\(word)' is not a face number (faces: \(known.isEmpty ? "none" : FaceSelection.describe(known)); also 1,3 or 1-3 or all)"
        case .duplicateFace(let id): "face \(id) already exists"
        case .invalidBox(let why): "invalid box: \(why)"
        case .offPhoto(let size): "that box would be outside the photo (\(size.text))"
        case .nothingToUndo: "nothing to undo"
        case .nothingToRedo: "nothing to redo"
        }
    }
}
