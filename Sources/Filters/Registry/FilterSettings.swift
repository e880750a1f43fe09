/// A filter's chosen parameter values, checked against its declared parameters.
///
/// Unset parameters read as their defaults. Build one with `FilterRegistry.settings(...)`.
public struct FilterSettings: Sendable, Equatable, Hashable, Codable {
    /// Only the values that were set explicitly (defaults are not stored, so plans stay small).
    public private(set) var values: [String: ParameterValue]
    private var defaults: [String: ParameterValue]

    public init(parameters: [FilterParameter], values: [String: ParameterValue] = [:]) {
        self.values = values
        self.defaults = Dictionary(uniqueKeysWithValues: parameters.map { ($0.id, $0.defaultValue) })
    }

    public func value(_ id: String) -> ParameterValue {
        guard let v = values[id] ?? defaults[id] else {
            preconditionFailure("filter asked for undeclared parameter '\(id)'")
        }
        return v
    }

    public func number(_ id: String) -> Double { value(id).doubleValue ?? 0 }
    public func integer(_ id: String) -> Int { Int(number(id)) }
    public func flag(_ id: String) -> Bool { value(id) == .flag(true) }
    public func text(_ id: String) -> String { value(id).text }
    /// The options chosen in a `choices` parameter, in declared order.
    public func list(_ id: String) -> [String] { text(id).split(separator: ",").map(String.init) }
    /// A `point` parameter's two numbers, nil when it is empty.
    public func point(_ id: String) -> (x: Double, y: Double)? { FilterParameter.point(text(id)) }
    public func colour(_ id: String) -> RGBColour { RGBColour(hex: text(id)) ?? RGBColour(red: 0, green: 0, blue: 0) }

    enum CodingKeys: CodingKey { case values }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        values = try c.decode([String: ParameterValue].self, forKey: .values)
        defaults = [:]
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(values, forKey: .values)
    }
}
