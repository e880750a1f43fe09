/// A part of the face a sticker can go on.
public enum FacialFeature: String, CaseIterable, Sendable {
    /// Each eye gets its own sticker.
    case eyes
    case nose
    /// The mouth and upper lip (a moustache sits here).
    case mouth
    /// The chin and jaw below the mouth.
    case beard

    /// The sticker file looked for in a sticker folder: "eye.png", "nose.png", ...
    public var stickerFileName: String {
        switch self {
        case .eyes: "eye.png"
        case .nose: "nose.png"
        case .mouth: "mouth.png"
        case .beard: "beard.png"
        }
    }

    /// The mask filter's scale parameter for this feature ("eye-scale").
    var scaleParameter: String {
        switch self {
        case .eyes: "eye-scale"
        case .nose: "nose-scale"
        case .mouth: "mouth-scale"
        case .beard: "beard-scale"
        }
    }
}
