/// A filter could not be chosen or configured as asked.
public enum FilterError: Error, Equatable, CustomStringConvertible, Sendable {
    case unknownFilter(String, known: [String])
    case unknownParameter(filter: String, parameter: String, known: [String])
    case invalidParameter(String)

    public var description: String {
        switch self {
        case .unknownFilter(let id, let known):
            "unknown filter '\(id)' (\(Self.guess(id, known))available: \(known.joined(separator: ", ")))"
        case .unknownParameter(let filter, let parameter, let known):
            known.isEmpty
                ? "filter '\(filter)' has no parameters (got '\(parameter)')"
                : "filter '\(filter)' has no parameter '\(parameter)' (\(Self.guess(parameter, known))parameters: \(known.joined(separator: ", ")))"
        case .invalidParameter(let message):
            "invalid parameter \(message)"
        }
    }

    private static func guess(_ word: String, _ known: [String]) -> String {
        NameSuggestion.closest(to: word, among: known).map { "did you mean '\($0)'? " } ?? ""
    }
}
