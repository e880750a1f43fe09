/// Every sketch style SketchEase offers, by id.
public struct FilterRegistry: Sendable {
    public let filters: [any SketchFilter]

    public init(filters: [any SketchFilter]) {
        self.filters = filters
    }

    /// The built-in styles.
    public static let standard = FilterRegistry(filters: [
        PencilFilter(),
        GraphiteFilter(),
        CharcoalFilter(),
        InkFilter(),
        HatchingFilter(),
        CartoonFilter(),
        ReliefFilter(),
        PixelateFilter(),
        BlurFilter(),
        ChromaKeyFilter(),
        NoneFilter(),
        MaskFilter(),
    ])

    public var ids: [String] { filters.map(\.id) }

    public func filter(_ id: String) throws -> any SketchFilter {
        guard let f = filters.first(where: { $0.id == id.lowercased() }) else {
            throw FilterError.unknownFilter(id, known: ids)
        }
        return f
    }

    /// Parses `key=value` pairs for filter `id` into checked settings.
    public func settings(for id: String, assignments: [String: String]) throws -> FilterSettings {
        let f = try filter(id)
        var values: [String: ParameterValue] = [:]
        for (key, text) in assignments {
            guard let p = f.parameters.first(where: { $0.id == key }) else {
                throw FilterError.unknownParameter(filter: f.id, parameter: key, known: f.parameters.map(\.id))
            }
            values[key] = try p.parse(text)
        }
        return FilterSettings(parameters: f.parameters, values: values)
    }

    /// Re-checks typed values (from JSON) for filter `id`.
    public func settings(for id: String, values: [String: ParameterValue]) throws -> FilterSettings {
        try settings(for: id, assignments: values.mapValues(\.text))
    }
}
