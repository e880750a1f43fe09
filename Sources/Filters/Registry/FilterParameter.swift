import Foundation

/// One typed, documented parameter of a filter.
public struct FilterParameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case number(range: ClosedRange<Double>, defaultValue: Double)
        case integer(range: ClosedRange<Int>, defaultValue: Int)
        case flag(defaultValue: Bool)
        case choice(options: [String], defaultValue: String)
        /// A colour as `#rrggbb`.
        case colour(defaultValue: String)
        /// A file path (may be empty).
        case path(defaultValue: String)
        /// Any number of the options, written comma-separated ("eyes,nose"); empty = none.
        case choices(options: [String], defaultValue: [String])
        /// Two numbers `X,Y` (a pixel, an offset); empty = none.
        case point(defaultValue: String)
    }

    public let id: String
    public let summary: String
    public let kind: Kind

    public init(_ id: String, _ kind: Kind, _ summary: String) {
        self.id = id; self.kind = kind; self.summary = summary
    }

    public var defaultValue: ParameterValue {
        switch kind {
        case .number(_, let d): .number(d)
        case .integer(_, let d): .integer(d)
        case .flag(let d): .flag(d)
        case .choice(_, let d): .text(d)
        case .colour(let d): .text(d)
        case .path(let d): .text(d)
        case .choices(_, let d): .text(d.joined(separator: ","))
        case .point(let d): .text(d)
        }
    }

    /// Whether a slider for this number moves on a logarithmic scale: sizes and strengths whose
    /// range spans a factor of 5 or more (a stroke of 0.002–0.015 of the face). On a linear
    /// slider the values that look good sat in its first tenth and a casual drag to the middle
    /// gave black blobs; on a logarithmic one each stretch of the slider multiplies the value by
    /// the same factor, so the default sits near the middle and every part of it is usable.
    public var logarithmicSlider: Bool {
        guard case .number(let range, _) = kind, range.lowerBound > 0 else { return false }
        return range.upperBound / range.lowerBound >= 5
    }

    /// The accepted values, for help text: "0.5...4 (default 1.5)".
    public var rangeDescription: String {
        switch kind {
        case .number(let r, let d): "\(format(r.lowerBound))...\(format(r.upperBound)) (default \(format(d)))"
        case .integer(let r, let d): "\(r.lowerBound)...\(r.upperBound) (default \(d))"
        case .flag(let d): "true|false (default \(d))"
        case .choice(let options, let d): "\(options.joined(separator: "|")) (default \(d))"
        case .colour(let d): "#rrggbb (default \(d))"
        case .path(let d): d.isEmpty ? "file path (default none)" : "file path (default \(d))"
        case .point(let d): d.isEmpty ? "X,Y (default none)" : "X,Y (default \(d))"
        case .choices(let options, let d):
            "any of \(options.joined(separator: ",")), comma-separated (default \(d.isEmpty ? "none" : d.joined(separator: ",")))"
        }
    }

    /// Parses and checks a value given as text; throws a message naming the parameter and range.
    public func parse(_ text: String) throws -> ParameterValue {
        let fail = { FilterError.invalidParameter("\(id)=\(text): expected \(rangeDescription)") }
        switch kind {
        case .number(let range, _):
            guard let v = Double(text), v.isFinite, range.contains(v) else { throw fail() }
            return .number(v)
        case .integer(let range, _):
            guard let v = Int(text), range.contains(v) else { throw fail() }
            return .integer(v)
        case .flag:
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .flag(true)
            case "false", "no", "off", "0": return .flag(false)
            default: throw fail()
            }
        case .choice(let options, _):
            guard options.contains(text) else { throw fail() }
            return .text(text)
        case .colour:
            guard RGBColour(hex: text) != nil else { throw fail() }
            return .text(text.lowercased())
        case .path:
            return .text(text)
        case .point:
            if text.isEmpty { return .text("") }
            guard let p = Self.point(text) else { throw fail() }
            return .text("\(format(p.x)),\(format(p.y))")
        case .choices(let options, _):
            let chosen = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty }
            guard chosen.allSatisfy(options.contains) else { throw fail() }
            // Kept in the declared order, each once, so equal choices compare equal.
            return .text(options.filter(chosen.contains).joined(separator: ","))
        }
    }

    /// `X,Y` as two finite numbers.
    static func point(_ text: String) -> (x: Double, y: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else { return nil }
        return (x, y)
    }

    /// Checks an already-typed value (from a JSON plan or session).
    public func validate(_ value: ParameterValue) throws -> ParameterValue {
        try parse(value.text)
    }
}

private func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
}
