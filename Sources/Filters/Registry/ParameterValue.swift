/// A parameter's value. Encodes in JSON as a plain number, boolean or string.
public enum ParameterValue: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    case number(Double)
    case integer(Int)
    case flag(Bool)
    case text(String)

    public var text: String {
        switch self {
        case .number(let v): v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        case .integer(let v): String(v)
        case .flag(let v): String(v)
        case .text(let v): v
        }
    }

    public var description: String { text }

    public var doubleValue: Double? {
        switch self {
        case .number(let v): v
        case .integer(let v): Double(v)
        case .flag, .text: nil
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .flag(b) }
        else if let i = try? c.decode(Int.self) { self = .integer(i) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else { self = .text(try c.decode(String.self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let v): try c.encode(v)
        case .integer(let v): try c.encode(v)
        case .flag(let v): try c.encode(v)
        case .text(let v): try c.encode(v)
        }
    }
}
