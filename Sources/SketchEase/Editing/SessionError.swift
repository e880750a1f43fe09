/// A session or plan file that cannot be used, phrased as one line naming the file.
public struct SessionError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Reason: Equatable, Sendable {
        case unreadable(String)
        case notJSON(String)
        case foreign(String)
        case newerVersion(found: Int, supported: Int)
        case invalid(String)
        case sourceChanged(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) { self.path = path; self.reason = reason }

    public var description: String { "\(path): \(reasonText)" }

    /// Why, without the file's name.
    public var reasonText: String {
        switch reason {
        case .unreadable(let detail): "cannot read (\(detail))"
        case .notJSON(let detail): "damaged file, not valid JSON (\(detail))"
        case .foreign(let expected): "not a \(expected) file"
        case .newerVersion(let found, let supported):
            "written by a newer SketchEase (format version \(found); this version reads up to \(supported))"
        case .invalid(let detail): "invalid content (\(detail))"
        case .sourceChanged(let detail): detail
        }
    }
}
