/// One change to a photo's faces. A session is the detected faces plus a list of these.
///
/// Edits name faces by their stable `EditableFace.id`, so replaying the list always gives the
/// same faces. Encoded in session files as `{"kind": "style", ...}`.
public enum Edit: Sendable, Equatable, Codable {
    /// Give these faces a style (assigns, or switches the filter or its parameters).
    case setStyle(faces: [Int], style: FaceStyle)
    /// Leave these faces as in the photo.
    case removeStyle(faces: [Int])
    /// Shift a face box by (dx, dy) pixels.
    case move(face: Int, dx: Double, dy: Double)
    /// Give a face box a new width and height, keeping its centre.
    case resize(face: Int, width: Double, height: Double)
    /// A new face box (one the detector missed), optionally already styled.
    case add(face: Int, box: FaceBox, style: FaceStyle?)
    /// Remove face boxes (false detections), in one step.
    case delete(faces: [Int])
    /// Replace every face with a fresh detection; faces that match an old one keep its id and style.
    case redetect(faces: [EditableFace])
    /// Draw the photo around the faces in a style too (nil: leave it as photographed). Blind
    /// panels take a photo drawn whole for a drawing far more often than a face drawn into a
    /// colour photo (docs/look-panel.md).
    case background(style: FaceStyle?)

    /// A short description for the prompt ("style face 2: pencil").
    public var summary: String {
        func list(_ ids: [Int]) -> String { (ids.count == 1 ? "face " : "faces ") + FaceSelection.describe(ids) }
        switch self {
        case .setStyle(let ids, let style): return "\(list(ids)): \(style.label)"
        case .removeStyle(let ids): return "\(list(ids)): no style"
        case .move(let id, let dx, let dy): return "face \(id) moved by \(Rounding.pixels(dx)), \(Rounding.pixels(dy))"
        case .resize(let id, let w, let h): return "face \(id) resized to \(Rounding.pixels(w))×\(Rounding.pixels(h))"
        case .add(let id, let box, _): return "face \(id) added at \(Rounding.corner(box)) (\(Rounding.size(box)))"
        case .delete(let ids): return "\(list(ids)) deleted"
        case .redetect(let faces): return "faces detected again (\(faces.count))"
        case .background(let style): return "the photo around the faces: " + (style.map(\.label) ?? "as photographed")
        }
    }

    enum CodingKeys: String, CodingKey { case kind, faces, face, style, dx, dy, width, height, box }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "style": self = .setStyle(faces: try c.decode([Int].self, forKey: .faces), style: try c.decode(FaceStyle.self, forKey: .style))
        case "unstyle": self = .removeStyle(faces: try c.decode([Int].self, forKey: .faces))
        case "move": self = .move(face: try c.decode(Int.self, forKey: .face), dx: try c.decode(Double.self, forKey: .dx), dy: try c.decode(Double.self, forKey: .dy))
        case "resize": self = .resize(face: try c.decode(Int.self, forKey: .face), width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
        case "add": self = .add(face: try c.decode(Int.self, forKey: .face), box: try c.decode(FaceBox.self, forKey: .box), style: try c.decodeIfPresent(FaceStyle.self, forKey: .style))
        case "delete":
            // Version 1 sessions delete one face at a time ("face"); later ones a list ("faces").
            if let one = try c.decodeIfPresent(Int.self, forKey: .face) { self = .delete(faces: [one]) }
            else { self = .delete(faces: try c.decode([Int].self, forKey: .faces)) }
        case "redetect": self = .redetect(faces: try c.decode([EditableFace].self, forKey: .faces))
        case "background": self = .background(style: try c.decodeIfPresent(FaceStyle.self, forKey: .style))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown edit kind '\(kind)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .setStyle(let ids, let style):
            try c.encode("style", forKey: .kind); try c.encode(ids, forKey: .faces); try c.encode(style, forKey: .style)
        case .removeStyle(let ids):
            try c.encode("unstyle", forKey: .kind); try c.encode(ids, forKey: .faces)
        case .move(let id, let dx, let dy):
            try c.encode("move", forKey: .kind); try c.encode(id, forKey: .face); try c.encode(dx, forKey: .dx); try c.encode(dy, forKey: .dy)
        case .resize(let id, let w, let h):
            try c.encode("resize", forKey: .kind); try c.encode(id, forKey: .face); try c.encode(w, forKey: .width); try c.encode(h, forKey: .height)
        case .add(let id, let box, let style):
            try c.encode("add", forKey: .kind); try c.encode(id, forKey: .face); try c.encode(box, forKey: .box)
            try c.encodeIfPresent(style, forKey: .style)
        case .delete(let ids):
            try c.encode("delete", forKey: .kind); try c.encode(ids, forKey: .faces)
        case .redetect(let faces):
            try c.encode("redetect", forKey: .kind); try c.encode(faces, forKey: .faces)
        case .background(let style):
            try c.encode("background", forKey: .kind); try c.encodeIfPresent(style, forKey: .style)
        }
    }
}

extension FaceStyle {
    /// "pencil" or "pencil (darkness=2)", parameters in name order.
    public var label: String {
        let set = settings.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.text)" }
        return set.isEmpty ? filterID : "\(filterID) (\(set.joined(separator: ", ")))"
    }
}
