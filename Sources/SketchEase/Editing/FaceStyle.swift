/// The style chosen for one face: a filter and its settings.
public struct FaceStyle: Sendable, Equatable, Hashable, Codable {
    public var filterID: String
    public var settings: FilterSettings

    public init(filterID: String, settings: FilterSettings) {
        self.filterID = filterID; self.settings = settings
    }

    /// A style with default settings, checked against the registry.
    public static func named(_ id: String, registry: FilterRegistry = .standard) throws -> FaceStyle {
        FaceStyle(filterID: try registry.filter(id).id, settings: try registry.settings(for: id, assignments: [:]))
    }

    /// Words as a person writes a style (`pencil darkness=2 grain=0`, `--param darkness=2`):
    /// the `key=value` assignments (a later one wins), and the other words in order.
    public static func words(_ words: [String]) -> (others: [String], assignments: [String: String]) {
        var others: [String] = [], assignments: [String: String] = [:]
        for word in words {
            if let eq = word.firstIndex(of: "="), eq != word.startIndex {
                assignments[String(word[..<eq])] = String(word[word.index(after: eq)...])
            } else {
                others.append(word)
            }
        }
        return (others, assignments)
    }

    enum CodingKeys: String, CodingKey { case filterID = "filter", parameters }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(String.self, forKey: .filterID)
        let values = try c.decodeIfPresent([String: ParameterValue].self, forKey: .parameters) ?? [:]
        // A filter or parameter the registry does not know is reported at its place in the file.
        do {
            filterID = try FilterRegistry.standard.filter(id).id
        } catch let error as FilterError {
            throw DecodingError.dataCorruptedError(forKey: .filterID, in: c, debugDescription: error.description)
        }
        do {
            settings = try FilterRegistry.standard.settings(for: filterID, values: values)
        } catch let error as FilterError {
            throw DecodingError.dataCorruptedError(forKey: .parameters, in: c, debugDescription: error.description)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(filterID, forKey: .filterID)
        if !settings.values.isEmpty { try c.encode(settings.values, forKey: .parameters) }
    }
}

/// A face box with the style to draw it in.
public struct StyledFace: Sendable, Equatable {
    public var box: FaceBox
    public var style: FaceStyle
    /// The detector's five landmarks in photo coordinates, if it gave them.
    public var landmarks: [Point]
    /// Seed for the style's grain and strokes; nil = derived from the box. A clip's tracked
    /// face keeps one seed for its whole life, so its texture does not change from frame to frame.
    public var seed: Int?
    /// The face's region matte cut on an earlier picture and carried to this one (a clip's
    /// tracked face between detections); nil = cut on this picture.
    public var matte: CarriedMatte?
    /// The size (shorter side, pixels) its style is drawn for, held over the frames of a clip
    /// while its tracked box breathes; nil = from its box (`FaceCompositor.drawingSize`).
    public var drawingSize: Double?
    /// The face's drawing made on an earlier picture, where the face has only moved since (a
    /// clip's face whose look has not changed), laid here as it is; nil = drawn on this picture.
    public var drawing: CarriedDrawing.Placement?

    public init(box: FaceBox, style: FaceStyle, landmarks: [Point] = [], seed: Int? = nil, matte: CarriedMatte? = nil,
                drawingSize: Double? = nil, drawing: CarriedDrawing.Placement? = nil) {
        self.box = box; self.style = style; self.landmarks = landmarks; self.seed = seed; self.matte = matte
        self.drawingSize = drawingSize; self.drawing = drawing
    }
}
